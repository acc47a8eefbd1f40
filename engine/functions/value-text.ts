/**
 * How a value reads as text where a function builds text from values of any type (splice,
 * g_splice): text as it is, numbers as JavaScript prints them (no exponent below 1e21, the
 * shortest digits that read back to the same double), dates as their yyyymmdd integer. N/A is ''.
 */
import { NA_BIGINT, NA_INT, type Column } from '../columns/types.js'

/** Row `r` of `col` as text; '' for N/A. */
export function valueText(col: Column, r: number): string {
  if (col.type === 'text') return col.dict[col.codes[r]]
  if (col.type === 'bigint') return col.data[r] === NA_BIGINT ? '' : String(col.data[r])
  const v = col.data[r]
  return v !== v || (col.type !== 'float' && v === NA_INT) ? '' : String(v)
}
