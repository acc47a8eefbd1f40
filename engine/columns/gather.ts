/**
 * Gathering rows by an index vector: the one way rows are selected, reordered or looked up.
 * Selections, sorts and links all produce an Int32Array of row numbers; -1 stands for a row
 * that does not exist (an unmatched link) and yields N/A.
 *
 * A scattered index over a large column (the permutation of a sort) makes nearly every read a
 * cache miss, ~40 ns a row on a small VM. For those, the index is regrouped once by
 * source tile (index-partition.ts), so that every column gathered through it reads one
 * cache-sized tile of rows at a time. The arrangement is kept with the index, so the columns of a
 * worksheet that share one index (all of them after a sort) pay for it once.
 */
import { partitionIndex, type IndexPartition } from './index-partition.js'
import { bigintWords } from './bigint.js'
import { NA_FLOAT, NA_INT, type Column } from './types.js'

/** A new column whose row i is `col`'s row index[i] (N/A where index[i] is -1). */
export function gather(col: Column, index: Int32Array): Column {
  const n = index.length
  if (col.type === 'text') {
    // Text N/A is code 0, and the result keeps the source dictionary (unused entries are allowed).
    return { type: 'text', codes: gatherInt32(col.codes, index, n, 0), dict: col.dict }
  }
  if (col.type === 'float') return { type: col.type, data: gatherFloat64(col.data, index, n) }
  if (col.type === 'bigint') return { type: col.type, data: gatherInt64(col.data, index, n) }
  return { type: col.type, data: gatherInt32(col.data, index, n, NA_INT) }
}

/** Big integers gathered as word pairs: no BigInt is made per value. */
function gatherInt64(src: BigInt64Array, index: Int32Array, n: number): BigInt64Array {
  const out = new BigInt64Array(n)
  const from = bigintWords(src)
  const to = bigintWords(out)
  for (let i = 0; i < n; i++) {
    const r = index[i]
    if (r < 0) {
      to[2 * i + 1] = -2147483648 // NA_BIGINT: high word −2^31, low word 0
    } else {
      to[2 * i] = from[2 * r]
      to[2 * i + 1] = from[2 * r + 1]
    }
  }
  return out
}

function gatherInt32(src: Int32Array, index: Int32Array, n: number, na: number): Int32Array {
  const out = new Int32Array(n)
  const part = partitionIndex(index, src.length)
  if (part) {
    scatterInt32(src, part, out, na)
    return out
  }
  for (let i = 0; i < n; i++) {
    const r = index[i]
    out[i] = r < 0 ? na : src[r]
  }
  return out
}

function gatherFloat64(src: Float64Array, index: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n)
  const part = partitionIndex(index, src.length)
  if (part) {
    scatterFloat64(src, part, out)
    return out
  }
  for (let i = 0; i < n; i++) {
    const r = index[i]
    out[i] = r < 0 ? NA_FLOAT : src[r]
  }
  return out
}

function scatterInt32(src: Int32Array, part: IndexPartition, out: Int32Array, na: number): void {
  const { slots, rows, missingFrom } = part
  for (let k = 0; k < missingFrom; k++) out[slots[k]] = src[rows[k]]
  for (let k = missingFrom; k < slots.length; k++) out[slots[k]] = na
}

function scatterFloat64(src: Float64Array, part: IndexPartition, out: Float64Array): void {
  const { slots, rows, missingFrom } = part
  for (let k = 0; k < missingFrom; k++) out[slots[k]] = src[rows[k]]
  for (let k = missingFrom; k < slots.length; k++) out[slots[k]] = NA_FLOAT
}
