/**
 * GROUP BY with no aggregate in the query (issue 38, from sqllogictest's random/groupby, none of
 * whose 10,000 queries compiled): the groups alone, one row per distinct key, in key order. The
 * compiler refused them (a `<tabu>` needs a summary); each query here is answered both ways, must
 * agree, and must have run on the engine.
 */
import { bothTablesBefore, itCompilesAsSqlite } from '../helpers/sql-answers.js'

const QUERIES = [
  'select a from pub.e.t group by a',
  'select a * 3 + 1 as x from pub.e.t group by a',
  'select s from pub.e.t group by s',
  'select a, s from pub.e.t group by a, s',
  'select distinct a from pub.e.t group by a, s',
  'select a from pub.e.t where a > 1 group by a order by a desc',
  'select x.a from pub.e.t as x group by x.a having x.a is not null',
]

describe('SQL: GROUP BY without aggregates (issue 38)', () => {
  const tables = bothTablesBefore({
    'pub.e.t': [
      { name: 'a', type: 'int', values: [3, 1, null, 3, 4, 1, null] },
      { name: 's', type: 'text', values: ['x', 'y', null, 'x', 'z', 'x', 'y'] },
    ],
  })
  itCompilesAsSqlite(QUERIES, tables)
})
