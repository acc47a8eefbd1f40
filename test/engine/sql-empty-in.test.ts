/**
 * `IN ()` and `NOT IN ()` with an empty list (issue 38): SQLite answers them without looking at
 * the left side, so `x IN ()` is FALSE and `x NOT IN ()` TRUE even where x is NULL. The compiled
 * engine answered NULL for `NULL NOT IN ()` (sqllogictest found it); each query here is answered
 * both ways and must agree, and must have run on the engine, not fallen back.
 */
import { expect } from 'chai'
import { bothTablesBefore, itCompilesAsSqlite, sqliteResult } from '../helpers/sql-answers.js'

const QUERIES = [
  'select a, a not in () as x from pub.e.t',
  'select a, a in () as x from pub.e.t',
  'select a, not (a in ()) as x, not (a not in ()) as y from pub.e.t',
  'select a from pub.e.t where a not in ()',
  'select a from pub.e.t where not (a in ())',
  'select a from pub.e.t where a in ()',
  'select a from pub.e.t where not (null in ())',
  'select s, s not in () as x, s in () as y from pub.e.t',
  'select count(*) as n from pub.e.t where s not in () and a not in ()',
  'select a, case when a not in () then 1 else 0 end as x from pub.e.t',
  'select a, case when a in () then 1 when a not in () then 2 else 3 end as x from pub.e.t',
  'select a, null not in () as x, null in () as y from pub.e.t',
  'select a not in () as k, count(*) as n from pub.e.t group by a not in ()',
  'select a, iif(a in (), 1, 2) as x, coalesce(a not in (), 7) as y from pub.e.t',
]

describe('SQL: IN and NOT IN with an empty list, NULL on the left (issue 38)', () => {
  const tables = bothTablesBefore({
    'pub.e.t': [
      { name: 'a', type: 'int', values: [1, null, 3, 4] },
      { name: 's', type: 'text', values: ['x', 'y', null, 'z'] },
    ],
  })

  it('SQLite itself: an empty list or a subquery of no rows is 0 / 1 for NULL, a list that is not empty NULL', () => {
    const sql =
      'select null in () as a, null not in () as b, null in (select 1 where 0) as c, null not in (select 1 where 0) as d, ' +
      'null in (1, 2) as e, null not in (1, 2) as f'
    const want = sqliteResult(sql, tables())
    // A column of nothing but NULL comes back as text, NULL as '' (docs/sql.md).
    const firstCells = want.columns.map((c) => (c.kind === 'int' || c.kind === 'text' ? c.data[0] : c.kind))
    expect(firstCells).to.deep.equal([0, 1, 0, 1, '', ''])
  })

  itCompilesAsSqlite(QUERIES, tables)
})
