/**
 * SELECT without FROM (issue 38 part 3; every query of sqllogictest's random/expr): SQLite computes
 * the select list over one row of no columns, and the plan reads a table of one row
 * (engine/sql/compile/one-row.ts). Each query is answered both ways, must agree, and must have
 * run on the engine; `SELECT *` without FROM is SQLite's error, which sql.js reports.
 */
import { expect } from 'chai'
import { bothTablesBefore, compiledAnswer, itCompilesAsSqlite, sqliteAnswer } from '../helpers/sql-answers.js'

const QUERIES = [
  'select 1 + 2, abs(-3)',
  'select 7 / 2 as a, 7 % 3 as b, 7.0 / 2 as c, 1 / 0 as d',
  "select 'x' || 'y' as s, length('abc') as n, upper('q') as u",
  'select null as n, coalesce(null, 4) as c, nullif(2, 2) as z',
  'select case when 1 > 2 then 10 else 20 end as c, - - 5 * + 3 as m',
  'select count(*) as n, sum(3) as s, min(2) as lo, max(5) as hi',
  'select 1 where 1 = 1',
  'select 2 as v where 1 = 0',
  'select count(*) as n, sum(1) as s, total(2) as t where 1 = 0',
  'select 5 as v limit 0',
  'select distinct 3 as v order by 1',
  'select count(*) from (select 1 as a union all select 2 as a)',
  'select a * 10 as b from (select 4 as a) order by b',
  'select cast(2.5 as integer) as i, round(2.567, 2) as r, 2 in (1, 2) as k',
  'select x.a + t.a as s from (select 1 as a) x join pub.f.t t on t.a = x.a',
]

describe('SQL: SELECT without FROM (issue 38)', () => {
  const tables = bothTablesBefore({ 'pub.f.t': [{ name: 'a', type: 'int', values: [1, 2, 3] }] })
  itCompilesAsSqlite(QUERIES, tables)

  it('leaves SELECT * without FROM to sql.js, which reports SQLite’s error', async () => {
    expect(await compiledAnswer('select *', tables())).to.equal(null)
    expect(sqliteAnswer('select *', tables())).to.have.property('error').that.contains('no tables specified')
  })
})
