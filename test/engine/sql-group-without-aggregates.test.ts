/**
 * GROUP BY with no aggregate in the query (issue 38, from sqllogictest's random/groupby, none of
 * whose 10,000 queries compiled): the groups alone, one row per distinct key, in key order. The
 * compiler refused them (a `<tabu>` needs a summary); each query here is answered both ways, must
 * agree, and must have run on the engine.
 */
import { expect } from 'chai'
import { compiledAnswer, difference, sqliteAnswer, sqlTableOf, type BothTables } from '../helpers/sql-answers.js'
import { makeTable } from '../helpers/engine.js'
import { columnValues } from '../helpers/sql-queries.js'

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
  let tables: BothTables[]
  before(async () => {
    const defs = [
      { name: 'a', type: 'int' as const, values: [3, 1, null, 3, 4, 1, null] },
      { name: 's', type: 'text' as const, values: ['x', 'y', null, 'x', 'z', 'x', 'y'] },
    ]
    const input = makeTable('pub.e.t', defs)
    tables = [{ input, sql: await sqlTableOf(input, columnValues(defs)) }]
  })

  for (const sql of QUERIES)
    it(sql, async () => {
      const want = sqliteAnswer(sql, tables)
      if ('error' in want) throw new Error(`sql.js refused: ${want.error}`)
      const got = await compiledAnswer(sql, tables)
      expect(got, 'compiled to the engine').to.not.equal(null)
      expect(difference(got!, want.result)).to.equal('')
    })
})
