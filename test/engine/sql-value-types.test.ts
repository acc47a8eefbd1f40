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

  it('answers whole REALs and integers alike, an integer past 32 bits as a 64-bit integer', () => {
    expect(Array.from(column('select a * 2.0 as v from pub.e.t') as Float64Array | Int32Array)).to.deep.equal([2, 6, 8])
    expect(Array.from(column('select 9007199254740991 + 0 * a as v from pub.e.t') as BigInt64Array)).to.deep.equal([
      9007199254740991n,
      9007199254740991n,
      9007199254740991n,
    ])
  })

  it('answers an integer past ±(2^53 − 1) with every digit (issue 38: 64-bit integers end to end)', () => {
    expect(Array.from(column('select 9007199254740993 + 0 * a as v from pub.e.t') as BigInt64Array)).to.deep.equal([
      9007199254740993n,
      9007199254740993n,
      9007199254740993n,
    ])
    // 2^62 is a double exactly, but a double writes it 4611686018427388000: the digits must be SQLite's.
    expect(Array.from(column('select (1 << 62) - a as v from pub.e.t') as BigInt64Array)).to.deep.equal([
      4611686018427387903n,
      4611686018427387901n,
      4611686018427387900n,
    ])
    expect(column('select 9223372036854775807 - max(a) + 4 as v from pub.e.t')).to.deep.equal(BigInt64Array.of(9223372036854775807n))
  })

  it('refuses −2^63, the one 64-bit integer kept for N/A, naming what to write instead', () => {
    expect(sqliteAnswer('select (1 << 63) + 0 * a as v from pub.e.t', tables))
      .to.have.property('error')
      .that.contains('-9223372036854775808')
      .and.contains('CAST(v AS TEXT)')
    // Beside a REAL in one column, an integer past 2^53 cannot be a number with its own digits.
    expect(sqliteAnswer('select case when a > 2 then 0.5 else 9007199254740993 end as v from pub.e.t', tables))
      .to.have.property('error')
      .that.contains('9007199254740993')
  })
})
