/**
 * The columnar engine's answer to compiled SQL in the shape sql.js gives its own (result-builder.ts):
 * SQLite's values carry no column type, so a column's kind follows from its values. Integers
 * that fit in 32 bits are int (an SQL integer computed through doubles, or a real column whose
 * values are all whole, as sql.js hands them over as plain numbers), other whole numbers bigint
 * (64-bit, a `j` column's exactly), other numbers float, a
 * column of nothing but NULL (or of no rows) text. Dates are SQLite integers.
 */
import type { ResultColumn, ResultSet } from '../../../shared/protocol.js'
import { NA_INT, type ColumnType } from '../../../shared/table.js'
import { bigintFromFloats, bigintWords, isNaWords } from '../../columns/index.js'
import { sqlColumnsMeta, WIDTH_SAMPLE } from '../result-builder.js'

/** The kind sql.js would give a column of these values. */
function kindOf(col: ResultColumn, rows: number): ColumnType {
  if (col.kind === 'coded' || col.kind === 'text' || rows === 0) return 'text'
  if (col.kind === 'int') {
    for (let r = 0; r < rows; r++) if (col.data[r] !== NA_INT) return 'int'
    return 'text'
  }
  if (col.kind === 'bigint') return bigintKind(col.data, rows)
  // Compiled plans carry integers as doubles (kernels.ts).
  const data = col.data
  let any = false
  let big = false
  for (let r = 0; r < rows; r++) {
    const v = data[r]
    if (v !== v) continue
    any = true
    if (!Number.isSafeInteger(v)) return 'float'
    if (v > 2147483647 || v <= NA_INT) big = true
  }
  return !any ? 'text' : big ? 'bigint' : 'int'
}

/** A 64-bit integer column's kind: int when every value fits in 32 bits (and is not int's N/A, −2^31). */
function bigintKind(data: BigInt64Array, rows: number): ColumnType {
  const w = bigintWords(data)
  let any = false
  for (let r = 0; r < rows; r++) {
    const lo = w[2 * r]
    const hi = w[2 * r + 1]
    if (isNaWords(lo, hi)) continue
    any = true
    // A value fits in 32 bits exactly when its high word is its low word's sign.
    if (hi !== lo >> 31 || lo === NA_INT) return 'bigint'
  }
  return any ? 'int' : 'text'
}

function asKind(col: ResultColumn, kind: ColumnType, rows: number): ResultColumn {
  if (kind === 'text') return col.kind === 'coded' || col.kind === 'text' ? col : { kind: 'coded', codes: new Int32Array(rows), dict: [''] }
  if (col.kind === 'bigint') return kind === 'int' ? { kind: 'int', data: bigintToInts(col.data, rows) } : col
  if (col.kind !== 'float') return col
  const data = col.data
  if (kind === 'int') {
    const out = new Int32Array(rows)
    // -0 becomes 0, as SQLite's integer.
    for (let r = 0; r < rows; r++) out[r] = data[r] === data[r] ? data[r] : NA_INT
    return { kind: 'int', data: out }
  }
  // Whole numbers within ±2^53 (kindOf): exact as big integers, as sql.js answers integers.
  if (kind === 'bigint') return { kind: 'bigint', data: bigintFromFloats(data.subarray(0, rows)).data }
  return col
}

/** 64-bit integers that all fit in 32 bits (bigintKind) as an int column, N/A as NA_INT. */
function bigintToInts(data: BigInt64Array, rows: number): Int32Array {
  const w = bigintWords(data)
  const out = new Int32Array(rows)
  for (let r = 0; r < rows; r++) out[r] = isNaWords(w[2 * r], w[2 * r + 1]) ? NA_INT : w[2 * r]
  return out
}

function textSample(col: ResultColumn, rows: number): string[] {
  const n = Math.min(rows, WIDTH_SAMPLE)
  if (col.kind === 'coded') return Array.from(col.codes.subarray(0, n), (c) => col.dict[c])
  if (col.kind === 'text') return col.data.slice(0, n)
  return []
}

/** The engine's result as sql.js would give it, its columns named `names` (SQLite's). */
export function sqlShaped(result: ResultSet, names: readonly string[]): ResultSet {
  const rows = result.rowCount
  const kinds = result.columns.map((c) => kindOf(c, rows))
  const columns = result.columns.map((c, i) => asKind(c, kinds[i], rows))
  const cols = sqlColumnsMeta(names, kinds, (c) => textSample(columns[c], rows))
  return { ...result, cols, columns }
}
