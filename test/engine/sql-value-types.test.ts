/**
 * What sql.js answers keeps what SQLite says each value is (issue 38): a REAL in a column that
 * also holds text prints as SQLite prints it (`else 2.0` is "2.0", which came back as "2"), an
 * integer in such a column keeps all its digits, and an integer past ±(2^53 − 1) in a numeric
 * column, which a JavaScript number would round, is refused with a message saying what to do.
 */
import { expect } from 'chai'
import { sqliteAnswer, sqlTableOf, type BothTables } from '../helpers/sql-answers.js'
import { makeTable } from '../helpers/engine.js'
import { columnValues } from '../helpers/sql-queries.js'

describe('sql.js answers: REAL and INTEGER values as SQLite has them (issue 38)', () => {
  let tables: BothTables[]
  before(async () => {
    const defs = [{ name: 'a', type: 'int' as const, values: [1, 3, 4] }]
    const input = makeTable('pub.e.t', defs)
    tables = [{ input, sql: await sqlTableOf(input, columnValues(defs)) }]
  })

  const column = (sql: string): unknown => {
    const got = sqliteAnswer(sql, tables)
    if ('error' in got) throw new Error(got.error)
    return (got.result.columns[0] as { data: unknown }).data
  }

  it("prints a REAL in a text column as SQLite does: case when a > 2 then 'x' else 2.0 end", () => {
    expect(column("select case when a > 2 then 'x' else 2.0 end as v from pub.e.t")).to.deep.equal(['2.0', 'x', 'x'])
    expect(column("select case when a > 2 then 'x' else 0.5 end as v from pub.e.t")).to.deep.equal(['0.5', 'x', 'x'])
    expect(column("select case when a > 2 then 'x' else 1e20 end as v from pub.e.t")).to.deep.equal(['1.0e+20', 'x', 'x'])
  })

  it('keeps an integer in a text column whole, however large', () => {
    expect(column("select case when a > 2 then 'x' else 9223372036854775807 end as v from pub.e.t")).to.deep.equal(['9223372036854775807', 'x', 'x'])
    expect(column("select case when a > 2 then 'x' else 2 end as v from pub.e.t")).to.deep.equal(['2', 'x', 'x'])
  })

  it('answers numeric columns as before: whole REALs and integers alike, within ±(2^53 − 1)', () => {
    expect(Array.from(column('select a * 2.0 as v from pub.e.t') as Float64Array | Int32Array)).to.deep.equal([2, 6, 8])
    expect(Array.from(column('select 9007199254740991 + 0 * a as v from pub.e.t') as Float64Array)).to.deep.equal([
      9007199254740991, 9007199254740991, 9007199254740991,
    ])
  })

  it('refuses an integer past ±(2^53 − 1) in a numeric column rather than round it', () => {
    const got = sqliteAnswer('select 9007199254740993 + 0 * a as v from pub.e.t', tables)
    expect(got).to.have.property('error').that.contains('"v"').and.contains('9007199254740993').and.contains('CAST(v AS TEXT)')
    expect(column('select cast(9007199254740993 + 0 * a as text) as v from pub.e.t')).to.deep.equal([
      '9007199254740993',
      '9007199254740993',
      '9007199254740993',
    ])
  })

  it('refuses an integer a number holds exactly but would write with other digits (1<<62), and answers 2^53 itself', () => {
    // 2^62 is a double exactly, but written as 4611686018427388000: a client reading 64-bit integers gets another value.
    const got = sqliteAnswer('select (1 << 62) + 0 * a as v from pub.e.t', tables)
    expect(got).to.have.property('error').that.contains('4611686018427387904').and.contains('CAST(v AS TEXT)')
    expect(sqliteAnswer('select (1 << 63) + 0 * a as v from pub.e.t', tables)).to.have.property('error').that.contains('-9223372036854775808')
    expect(Array.from(column('select (1 << 53) + 0 * a as v from pub.e.t') as Float64Array)).to.deep.equal([2 ** 53, 2 ** 53, 2 ** 53])
  })
})
