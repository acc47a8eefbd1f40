/** Reading any numeric column as doubles, with N/A as NaN, so one loop serves int and float. */
import { NA_INT, type Column } from '../columns/types.js'

/** The value of row i as a double (NaN for N/A). Text has no numeric value: NaN. */
export function numericReader(col: Column): (i: number) => number {
  if (col.type === 'float') {
    const d = col.data
    return (i) => d[i]
  }
  if (col.type === 'text') return () => Number.NaN
  const d = col.data
  return (i) => (d[i] === NA_INT ? Number.NaN : d[i])
}

/** A numeric column as a Float64Array with NaN for N/A (a copy only for integer columns). */
export function asFloat64(col: Column): Float64Array {
  if (col.type === 'float') return col.data
  const out = new Float64Array(col.type === 'text' ? col.codes.length : col.data.length)
  if (col.type === 'text') return out.fill(Number.NaN)
  const d = col.data
  for (let i = 0; i < d.length; i++) out[i] = d[i] === NA_INT ? Number.NaN : d[i]
  return out
}
