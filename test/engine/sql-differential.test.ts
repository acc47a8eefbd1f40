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
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import { SqlQueries } from '../helpers/sql-queries.js'
import { compiledAnswer, sqliteAnswer, sqlTableOf, type SqlTable } from '../helpers/sql-answers.js'

const QUERIES = Number(process.env.SQL_DIFF_QUERIES ?? 2000)

function cells(r: ResultSet): unknown[][] {
  return r.columns.map((c) => {
    if (c.kind === 'coded') return Array.from(c.codes.subarray(0, r.rowCount), (k) => c.dict[k])
    if (c.kind === 'text') return c.data.slice(0, r.rowCount)
    return Array.from(c.data.subarray(0, r.rowCount))
  })
}

const close = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'number' || typeof b !== 'number') return false
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))
}

/** The first difference between two answers, or ''. */
export function difference(got: ResultSet, want: ResultSet): string {
  const gotMeta = got.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  const wantMeta = want.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  if (JSON.stringify(gotMeta) !== JSON.stringify(wantMeta)) return `columns ${JSON.stringify(gotMeta)} vs ${JSON.stringify(wantMeta)}`
  if (got.rowCount !== want.rowCount) return `rows ${got.rowCount} vs ${want.rowCount}`
  const a = cells(got)
  const b = cells(want)
  for (let c = 0; c < a.length; c++)
    for (let r = 0; r < got.rowCount; r++) if (!close(a[c][r], b[c][r])) return `column ${got.cols[c].name} row ${r}: ${String(a[c][r])} vs ${String(b[c][r])}`
  return ''
}

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
