/**
 * Reading single cells as plain JavaScript values. For tests, renderers and error messages: a
 * kernel never calls these per row.
 */
import { NA_INT, columnLength, type Column } from './types.js'
import { isFloat64 } from './types.js'

/** True when the cell is N/A (NA_INT, NaN, or text ''). */
export function isNA(col: Column, row: number): boolean {
  if (col.type === 'text') return col.codes[row] === 0
  const v = col.data[row]
  return isFloat64(col) ? v !== v : v === NA_INT
}

/** The cell as a number or string; null for N/A. */
export function valueAt(col: Column, row: number): number | string | null {
  if (isNA(col, row)) return null
  return col.type === 'text' ? col.dict[col.codes[row]] : col.data[row]
}

/** Every cell of the column as plain values (null for N/A). */
export function columnValues(col: Column): (number | string | null)[] {
  const n = columnLength(col)
  const out: (number | string | null)[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = valueAt(col, i)
  return out
}
