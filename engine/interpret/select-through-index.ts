/**
 * A selection on columns that all read one smaller table through one row index, as the columns
 * of a `<link>` do: the test is evaluated once per row of that table (and once for N/A, the
 * value of rows the index leaves unmatched), and each worksheet row reads its answer through
 * the index. `<link table2="products" …/><sel value="category='Toys'"/>` over 10M orders then
 * tests 100,000 products instead of gathering and testing 10M categories: the semi-join a
 * database makes by filtering the smaller side of a join first.
 *
 * Only row-wise expressions qualify (functions/registry.ts): their value on a row depends on that
 * row's values alone, so the answer for a product is the answer for every order linked to it.
 */
import type { Expr } from '../ast.js'
import { NA_BIGINT, NA_INT, type Column } from '../columns/types.js'
import { rowWiseExpr } from '../functions/index.js'
import { evalExpr, toMask } from './eval.js'
import { newColumn, Worksheet } from './worksheet.js'

/** The smaller table must have at most this share of the worksheet's rows to be worth it. */
const MAX_SHARE = 0.5

/**
 * The rows (of `rows`, or of the whole worksheet) where `e` holds, when every column it reads
 * is read through one index over a smaller table; otherwise null.
 */
export function rowsThroughIndex(e: Expr, ws: Worksheet, rows: Int32Array | null): Int32Array | null {
  const names = new Set<string>()
  if (!rowWiseExpr(e, names) || names.size === 0) return null
  let index: Int32Array | null = null
  let sourceRows = -1
  const sources: { name: string; source: Column }[] = []
  for (const name of names) {
    const view = ws.column(name)?.view()
    if (view === undefined || view.index === null) return null
    const length = view.source.type === 'text' ? view.source.codes.length : view.source.data.length
    if (index === null) {
      index = view.index
      sourceRows = length
    } else if (view.index !== index || length !== sourceRows) return null
    sources.push({ name, source: view.source })
  }
  if (index === null || sourceRows + 1 > ws.rows * MAX_SHARE) return null
  // Row `sourceRows` of the small worksheet is all N/A: where index -1 (no match) reads.
  const small = new Worksheet(
    sourceRows + 1,
    sources.map(({ name, source }) => newColumn(name, withNARow(source))),
  )
  const holds = toMask(evalExpr(e, small), small.rows)
  return keepThrough(index, holds, sourceRows, rows)
}

/** The column with one N/A row added at the end. */
function withNARow(col: Column): Column {
  if (col.type === 'text') {
    const codes = new Int32Array(col.codes.length + 1)
    codes.set(col.codes)
    return { type: 'text', codes, dict: col.dict }
  }
  if (col.type === 'bigint') {
    const data = new BigInt64Array(col.data.length + 1)
    data.set(col.data)
    data[col.data.length] = NA_BIGINT
    return { type: col.type, data }
  }
  if (col.type === 'float') {
    const data = new Float64Array(col.data.length + 1)
    data.set(col.data)
    data[col.data.length] = Number.NaN
    return { type: col.type, data }
  }
  const data = new Int32Array(col.data.length + 1)
  data.set(col.data)
  data[col.data.length] = NA_INT
  return { type: col.type, data }
}

/** The candidate rows whose source row (`naRow` for -1) holds. */
function keepThrough(index: Int32Array, holds: Uint8Array, naRow: number, rows: Int32Array | null): Int32Array {
  const n = rows === null ? index.length : rows.length
  const out = new Int32Array(n)
  let k = 0
  if (rows === null) {
    for (let r = 0; r < n; r++) {
      const j = index[r]
      out[k] = r
      k += holds[j < 0 ? naRow : j]
    }
  } else {
    for (let i = 0; i < n; i++) {
      const r = rows[i]
      const j = index[r]
      out[k] = r
      k += holds[j < 0 ? naRow : j]
    }
  }
  return out.subarray(0, k)
}
