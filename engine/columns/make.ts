/**
 * Building columns: from typed arrays, from plain JavaScript values (tests, inline tables), and
 * from a constant repeated on every row. None of these are kernels; they run once per column.
 */
import { bigintColumn, bigintToFloat, bigintFromFloats, intToBigint, naBigints } from './bigint.js'
import {
  NA_BIGINT,
  NA_FLOAT,
  NA_INT,
  type BigIntColumn,
  type Column,
  type ColumnType,
  type FloatColumn,
  type IntColumn,
  type NumberColumn,
  type Scalar,
  type TextColumn,
} from './types.js'

/** An int column over `data` (not copied). NA_INT marks N/A. */
export const intColumn = (data: Int32Array): IntColumn => ({ type: 'int', data })

/** A date column (yyyymmdd integers) over `data` (not copied). NA_INT marks N/A. */
export const dateColumn = (data: Int32Array): IntColumn => ({ type: 'date', data })

/** A float column over `data` (not copied). NaN marks N/A. */
export const floatColumn = (data: Float64Array): FloatColumn => ({ type: 'float', data })

export { bigintColumn }

/**
 * A text column from strings ('' and null are N/A). The dictionary is the sorted distinct
 * values with '' at code 0, so codes compare like their strings.
 */
export function textColumnFromStrings(strings: readonly (string | null)[]): TextColumn {
  const distinct = new Set<string>(strings.map((s) => s ?? ''))
  distinct.add('')
  // The default sort orders strings by UTF-16 code units, as compareStrings does, without a call per comparison (twice as fast).
  const dict = [...distinct].sort()
  // A Map is fine here: this builds a column once, it is not a per-row kernel.
  const codeOf = new Map<string, number>(dict.map((s, i) => [s, i]))
  const codes = new Int32Array(strings.length)
  for (let i = 0; i < strings.length; i++) codes[i] = codeOf.get(strings[i] ?? '')!
  return { type: 'text', codes, dict }
}

/** JavaScript string order (UTF-16 code units), the order every dictionary is sorted in. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * A column of `type` from plain values: null (and NaN, and '' for text) is N/A. Int and date
 * values must be integers in the Int32 range; big integers whole numbers (or bigints, or their digits).
 */
export function columnFromValues(type: ColumnType, values: readonly (number | bigint | string | null)[]): Column {
  if (type === 'text') return textColumnFromStrings(values.map((v) => (v === null ? '' : String(v))))
  if (type === 'float') return { type, data: Float64Array.from(values, (v) => (v === null ? NA_FLOAT : Number(v))) }
  if (type === 'bigint') {
    const data = new BigInt64Array(values.length)
    values.forEach((v, i) => (data[i] = v === null || (typeof v === 'number' && Number.isNaN(v)) ? NA_BIGINT : BigInt(v)))
    return bigintColumn(data)
  }
  const data = Int32Array.from(values, (v) => (v === null || Number.isNaN(v) ? NA_INT : Number(v)))
  return type === 'date' ? dateColumn(data) : intColumn(data)
}

/** A scalar repeated on `rows` rows. A numeric N/A scalar (NaN or NA_INT) gives an N/A column. */
export function scalarToColumn(s: Scalar, rows: number): Column {
  if (s.type === 'text') {
    if (s.value === '') return { type: 'text', codes: new Int32Array(rows), dict: [''] }
    return { type: 'text', codes: new Int32Array(rows).fill(1), dict: ['', s.value] }
  }
  if (s.type === 'float') return { type: s.type, data: new Float64Array(rows).fill(s.value) }
  if (s.type === 'bigint') return bigintColumn(new BigInt64Array(rows).fill(s.value))
  const v = Number.isNaN(s.value) ? NA_INT : s.value
  return { type: s.type, data: new Int32Array(rows).fill(v) }
}

/** A column of `rows` N/A values of `type`. */
export function naColumn(type: ColumnType, rows: number): Column {
  if (type === 'text') return { type: 'text', codes: new Int32Array(rows), dict: [''] }
  if (type === 'float') return { type, data: new Float64Array(rows).fill(NA_FLOAT) }
  if (type === 'bigint') return bigintColumn(naBigints(rows))
  return { type, data: new Int32Array(rows).fill(NA_INT) }
}

/** An int or date column as floats (NA_INT becomes NaN); a float column as it is; big integers as their nearest float64. */
export function toFloat(col: NumberColumn): FloatColumn {
  if (col.type === 'float') return col
  if (col.type === 'bigint') return bigintToFloat(col)
  const src = col.data
  const out = new Float64Array(src.length)
  for (let i = 0; i < src.length; i++) {
    const v = src[i]
    out[i] = v === NA_INT ? NA_FLOAT : v
  }
  return floatColumn(out)
}

/** An int or date column as big integers (NA_INT becomes NA_BIGINT); a big integer column as it is. */
export function toBigint(col: NumberColumn): BigIntColumn {
  if (col.type === 'bigint') return col
  if (col.type === 'float') throw new Error('toBigint: a decimal column is not a big integer')
  return intToBigint(col)
}

export { bigintFromFloats }
