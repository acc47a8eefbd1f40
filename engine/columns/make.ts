/**
 * Building columns: from typed arrays, from plain JavaScript values (tests, inline tables), and
 * from a constant repeated on every row. None of these are kernels; they run once per column.
 */
import { isFloat64Type, NA_FLOAT, NA_INT, type Column, type ColumnType, type FloatColumn, type IntColumn, type Scalar, type TextColumn } from './types.js'

/** An int column over `data` (not copied). NA_INT marks N/A. */
export const intColumn = (data: Int32Array): IntColumn => ({ type: 'int', data })

/** A date column (yyyymmdd integers) over `data` (not copied). NA_INT marks N/A. */
export const dateColumn = (data: Int32Array): IntColumn => ({ type: 'date', data })

/** A float column over `data` (not copied). NaN marks N/A. */
export const floatColumn = (data: Float64Array): FloatColumn => ({ type: 'float', data })

/** A big-integer column over float64 values that are whole (or NaN for N/A), exact to ±2^53. */
export const bigintColumn = (data: Float64Array): FloatColumn => ({ type: 'bigint', data })

/**
 * A text column from strings ('' and null are N/A). The dictionary is the sorted distinct
 * values with '' at code 0, so codes compare like their strings.
 */
export function textColumnFromStrings(strings: readonly (string | null)[]): TextColumn {
  const distinct = new Set<string>(strings.map((s) => s ?? ''))
  distinct.add('')
  const dict = [...distinct].sort(compareStrings)
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
 * values must be integers in the Int32 range.
 */
export function columnFromValues(type: ColumnType, values: readonly (number | string | null)[]): Column {
  if (type === 'text') return textColumnFromStrings(values.map((v) => (v === null ? '' : String(v))))
  if (isFloat64Type(type)) return { type, data: Float64Array.from(values, (v) => (v === null ? NA_FLOAT : Number(v))) }
  const data = Int32Array.from(values, (v) => (v === null || Number.isNaN(v) ? NA_INT : Number(v)))
  return type === 'date' ? dateColumn(data) : intColumn(data)
}

/** A scalar repeated on `rows` rows. A numeric N/A scalar (NaN or NA_INT) gives an N/A column. */
export function scalarToColumn(s: Scalar, rows: number): Column {
  if (s.type === 'text') {
    if (s.value === '') return { type: 'text', codes: new Int32Array(rows), dict: [''] }
    return { type: 'text', codes: new Int32Array(rows).fill(1), dict: ['', s.value] }
  }
  if (s.type === 'float' || s.type === 'bigint') return { type: s.type, data: new Float64Array(rows).fill(s.value) }
  const v = Number.isNaN(s.value) ? NA_INT : s.value
  return { type: s.type, data: new Int32Array(rows).fill(v) }
}

/** A column of `rows` N/A values of `type`. */
export function naColumn(type: ColumnType, rows: number): Column {
  if (type === 'text') return { type: 'text', codes: new Int32Array(rows), dict: [''] }
  if (isFloat64Type(type)) return { type, data: new Float64Array(rows).fill(NA_FLOAT) }
  return { type, data: new Int32Array(rows).fill(NA_INT) }
}

/** An int or date column as floats (NA_INT becomes NaN); a float column as it is; a big integer's values typed float. */
export function toFloat(col: IntColumn | FloatColumn): FloatColumn {
  if (col.type === 'float') return col
  if (col.type === 'bigint') return floatColumn(col.data)
  const src = col.data
  const out = new Float64Array(src.length)
  for (let i = 0; i < src.length; i++) {
    const v = src[i]
    out[i] = v === NA_INT ? NA_FLOAT : v
  }
  return floatColumn(out)
}

/** An int or date column as big integers (NA_INT becomes NaN); a big integer column as it is. */
export function toBigint(col: IntColumn | FloatColumn): FloatColumn {
  if (col.type === 'bigint') return col
  if (col.type === 'float') throw new Error('toBigint: a decimal column is not a big integer')
  return bigintColumn(toFloat(col).data)
}
