/** Reading any numeric column as doubles, with N/A as NaN, so one loop serves int and float. */
import { NA_INT, type Column } from '../columns/types.js'
import { bigintToFloats } from '../columns/index.js'

/** A numeric column as a Float64Array with NaN for N/A (a copy but for float columns; big integers as their nearest doubles). */
export function asFloat64(col: Column): Float64Array {
  if (col.type === 'float') return col.data
  if (col.type === 'bigint') return bigintToFloats(col.data)
  const out = new Float64Array(col.type === 'text' ? col.codes.length : col.data.length)
  if (col.type === 'text') return out.fill(Number.NaN)
  const d = col.data
  for (let i = 0; i < d.length; i++) out[i] = d[i] === NA_INT ? Number.NaN : d[i]
  return out
}
