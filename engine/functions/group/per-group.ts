/**
 * Per-group accumulations over the rows that take part (gid >= 0), ignoring N/A values. Each
 * returns one entry per group; `gather(perGroup, gid)` then broadcasts it back to the rows
 * (and gives N/A to the rows that took no part).
 */
import { NA_INT, type Column } from '../../columns/types.js'
import { isFloat64 } from '../../columns/index.js'

/** Sum and count of the non-N/A values of each group. */
export function groupSums(gid: Int32Array, count: number, x: Column, rows: number): { sum: Float64Array; n: Int32Array } {
  const sum = new Float64Array(count)
  const n = new Int32Array(count)
  if (isFloat64(x)) {
    const d = x.data
    for (let r = 0; r < rows; r++) {
      const g = gid[r]
      const v = d[r]
      if (g >= 0 && v === v) {
        sum[g] += v
        n[g]++
      }
    }
  } else if (x.type !== 'text') {
    const d = x.data
    for (let r = 0; r < rows; r++) {
      const g = gid[r]
      const v = d[r]
      if (g >= 0 && v !== NA_INT) {
        sum[g] += v
        n[g]++
      }
    }
  }
  return { sum, n }
}

/** Number of taking-part rows in each group. */
export function groupCounts(gid: Int32Array, count: number, rows: number): Int32Array {
  const n = new Int32Array(count)
  for (let r = 0; r < rows; r++) {
    const g = gid[r]
    if (g >= 0) n[g]++
  }
  return n
}

/** Smallest or largest non-N/A value of each group, as a column of X's type (N/A if none). */
export function groupExtremes(gid: Int32Array, count: number, x: Column, rows: number, isMax: boolean): Column {
  if (isFloat64(x)) {
    const best = new Float64Array(count).fill(NaN)
    const d = x.data
    for (let r = 0; r < rows; r++) {
      const g = gid[r]
      const v = d[r]
      if (g < 0 || v !== v) continue
      const b = best[g]
      if (b !== b || (isMax ? v > b : v < b)) best[g] = v
    }
    return { type: x.type, data: best }
  }
  const na = x.type === 'text' ? 0 : NA_INT // text: codes order like strings, '' (0) is N/A
  const d = x.type === 'text' ? x.codes : x.data
  const best = new Int32Array(count).fill(na)
  for (let r = 0; r < rows; r++) {
    const g = gid[r]
    const v = d[r]
    if (g < 0 || v === na) continue
    const b = best[g]
    if (b === na || (isMax ? v > b : v < b)) best[g] = v
  }
  return x.type === 'text' ? { type: 'text', codes: best, dict: x.dict } : { type: x.type, data: best }
}
