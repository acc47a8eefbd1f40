/**
 * Reading single cells as plain JavaScript values. For tests, renderers and error messages: a
 * kernel never calls these per row.
 */
import { NA_BIGINT, NA_INT, columnLength, type Column } from './types.js'

/** True when the cell is N/A (NA_INT, NaN, NA_BIGINT, or text ''). */
export function isNA(col: Column, row: number): boolean {
  if (col.type === 'text') return col.codes[row] === 0
  if (col.type === 'float') return Number.isNaN(col.data[row])
  if (col.type === 'bigint') return col.data[row] === NA_BIGINT
  return col.data[row] === NA_INT
}

/**
 * The cell as a number or string; null for N/A. A big integer is a number while a float64 holds it
 * exactly (±(2^53 − 1)), a bigint past it.
 */
export function valueAt(col: Column, row: number): number | bigint | string | null {
  if (isNA(col, row)) return null
  if (col.type === 'text') return col.dict[col.codes[row]]
  if (col.type === 'bigint') {
    const v = col.data[row]
    return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : v
  }
  return col.data[row]
}

/** Every cell of the column as plain values (null for N/A). */
export function columnValues(col: Column): (number | bigint | string | null)[] {
  const n = columnLength(col)
  const out: (number | bigint | string | null)[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = valueAt(col, i)
  return out
}
