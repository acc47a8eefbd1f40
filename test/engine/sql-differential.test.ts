/**
 * SQL compiled to the columnar engine against sql.js, the oracle: random queries from a grammar
 * of the compiled subset over random tables (NULL in every column, ties, negative numbers, -0,
 * text with case and LIKE's wildcards, dates, empty tables), each answered both ways and
 * compared cell for cell, in order (every generated ORDER BY ends with every result column, so
 * the order is total; without ORDER BY, SQLite's own order: the table's, or the groups' keys
 * ascending). Floats may differ in their last bits only where SQLite adds with compensation
 * (sum, total, avg). A positive control keeps the test honest: most queries must compile.
 */
import { expect } from 'chai'
import type { TableInput } from '../../shared/protocol.js'
import { SqlQueries } from '../helpers/sql-queries.js'
import { compiledAnswer, difference, sqliteAnswer, sqlTableOf, type SqlTable } from '../helpers/sql-answers.js'

const QUERIES = Number(process.env.SQL_DIFF_QUERIES ?? 2000)

describe('SQL on the columnar engine agrees with sql.js', function () {
  this.timeout(600_000)

  it(`on ${QUERIES} random queries over random tables (fixed seed)`, async () => {
    const gen = new SqlQueries(20261127)
    let compiled = 0
    let table: { input: TableInput; sql: SqlTable } | null = null
    for (let q = 0; q < QUERIES; q++) {
      if (q % 40 === 0) {
        const { input, data } = gen.table()
        table = { input, sql: await sqlTableOf(input, data) }
      }
      const sql = gen.query()
      const want = sqliteAnswer(sql, table!.input.path, table!.sql)
      if ('error' in want) continue
      const got = await compiledAnswer(sql, table!.input)
      if (got === null) continue
      compiled++
      expect(difference(got, want.result), `query ${q} over ${table!.input.rows} rows: ${sql}`).to.equal('')
    }
    // Most generated queries are inside the subset; a compiler that declined everything would pass otherwise.
    expect(compiled).to.be.greaterThan(QUERIES * 0.8)
  })
})
