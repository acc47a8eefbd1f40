/**
 * A table with a column of big integers (type bigint: beyond 32 bits) compiles every query that
 * does not read that column (issue 38: one such column anywhere in ClickBench's table sent all 43
 * queries to sql.js). A query that reads it is still SQLite's. Each query is answered both ways;
 * the ones that leave the column alone must have run on the engine.
 */
import { expect } from 'chai'
import { compiledAnswer, difference, sqliteAnswer, sqlTableOf, type BothTables } from '../helpers/sql-answers.js'
import { makeTable } from '../helpers/engine.js'
import { columnValues } from '../helpers/sql-queries.js'

const COMPILED = [
  'select a, s from pub.e.t',
  'select count(*) as n from pub.e.t',
  'select s, sum(a) as total from pub.e.t group by s order by s',
  'select a from pub.e.t where a > 1 order by a desc',
  'select q.a from pub.e.t q join pub.e.u r on q.a = r.a',
]

const READS_IT = [
  'select * from pub.e.t',
  'select id from pub.e.t',
  'select a from pub.e.t where id > 3000000000',
  'select sum(id) as total from pub.e.t',
  'select s, count(*) as n from pub.e.t group by s, id order by s',
  'select q.a from pub.e.t q join pub.e.u r on q.id = r.id',
]

describe('SQL: a column of big integers declines only the queries that read it (issue 38)', () => {
  let tables: BothTables[]
  before(async () => {
    const t = [
      { name: 'a', type: 'int' as const, values: [1, 2, null, 4] },
      { name: 'id', type: 'bigint' as const, values: [4_000_000_000, -3_000_000_000, 2 ** 53 - 1, null] },
      { name: 's', type: 'text' as const, values: ['x', 'y', 'x', null] },
    ]
    const u = [
      { name: 'a', type: 'int' as const, values: [2, 4] },
      { name: 'id', type: 'bigint' as const, values: [4_000_000_000, 5] },
    ]
    const ti = makeTable('pub.e.t', t)
    const ui = makeTable('pub.e.u', u)
    tables = [
      { input: ti, sql: await sqlTableOf(ti, columnValues(t)) },
      { input: ui, sql: await sqlTableOf(ui, columnValues(u)) },
    ]
  })

  for (const sql of COMPILED)
    it(sql, async () => {
      const want = sqliteAnswer(sql, tables)
      if ('error' in want) throw new Error(`sql.js refused: ${want.error}`)
      const got = await compiledAnswer(sql, tables)
      expect(got, 'compiled to the engine').to.not.equal(null)
      expect(difference(got!, want.result)).to.equal('')
    })

  for (const sql of READS_IT)
    it(`${sql} (left to sql.js)`, async () => {
      const want = sqliteAnswer(sql, tables)
      if ('error' in want) throw new Error(`sql.js refused: ${want.error}`)
      expect(await compiledAnswer(sql, tables)).to.equal(null)
    })
})
