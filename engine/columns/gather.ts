/**
 * Gathering rows by an index vector: the one way rows are selected, reordered or looked up.
 * Selections, sorts and links all produce an Int32Array of row numbers; -1 stands for a row
 * that does not exist (an unmatched link) and yields N/A.
 */
import { NA_FLOAT, NA_INT, type Column } from './types.js'

/** A new column whose row i is `col`'s row index[i] (N/A where index[i] is -1). */
export function gather(col: Column, index: Int32Array): Column {
  const n = index.length
  if (col.type === 'text') {
    // Text N/A is code 0, and the result keeps the source dictionary (unused entries are allowed).
    return { type: 'text', codes: gatherInt32(col.codes, index, n, 0), dict: col.dict }
  }
  if (col.type === 'float') {
    const src = col.data
    const out = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const r = index[i]
      out[i] = r < 0 ? NA_FLOAT : src[r]
    }
    return { type: 'float', data: out }
  }
  return { type: col.type, data: gatherInt32(col.data, index, n, NA_INT) }
}

function gatherInt32(src: Int32Array, index: Int32Array, n: number, na: number): Int32Array {
  const out = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const r = index[i]
    out[i] = r < 0 ? na : src[r]
  }
  return out
}
