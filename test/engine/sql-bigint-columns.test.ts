/**
 * A table with a column of big integers (type bigint: beyond 32 bits) compiles every query that
 * does not read that column (issue 38: one such column anywhere in ClickBench's table sent all 43
 * queries to sql.js). A query that reads it is still SQLite's. Each query is answered both ways;
 * the ones that leave the column alone must have run on the engine.
 */
import { expect } from 'chai'
import { bothTablesBefore, compiledAnswer, itCompilesAsSqlite, sqliteResult } from '../helpers/sql-answers.js'

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
  const tables = bothTablesBefore({
    'pub.e.t': [
      { name: 'a', type: 'int', values: [1, 2, null, 4] },
      { name: 'id', type: 'bigint', values: [4_000_000_000, -3_000_000_000, 2 ** 53 - 1, null] },
      { name: 's', type: 'text', values: ['x', 'y', 'x', null] },
    ],
    'pub.e.u': [
      { name: 'a', type: 'int', values: [2, 4] },
      { name: 'id', type: 'bigint', values: [4_000_000_000, 5] },
    ],
  })

  itCompilesAsSqlite(COMPILED, tables)

  for (const sql of READS_IT)
    it(`${sql} (left to sql.js)`, async () => {
      sqliteResult(sql, tables())
      expect(await compiledAnswer(sql, tables())).to.equal(null)
    })
})
