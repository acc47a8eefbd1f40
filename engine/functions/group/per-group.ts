/**
 * Per-group accumulations over the rows that take part (gid >= 0), ignoring N/A values. Each
 * returns one entry per group; `gather(perGroup, gid)` then broadcasts it back to the rows
 * (and gives N/A to the rows that took no part).
 */
import { bigintWords, toFloat } from '../../columns/index.js'
import { NA_INT, type BigIntColumn, type Column } from '../../columns/types.js'

/** Sum and count of the non-N/A values of each group. */
export function groupSums(gid: Int32Array, count: number, x: Column, rows: number): { sum: Float64Array; n: Int32Array } {
  const sum = new Float64Array(count)
  const n = new Int32Array(count)
  if (x.type === 'float' || x.type === 'bigint') {
    // A big integer is summed as its nearest float64: the sums here are decimals.
    const d = toFloat(x).data
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
  if (x.type === 'bigint') return bigintExtremes(gid, count, x, rows, isMax)
  if (x.type === 'float') {
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

/**
 * Per-group extremes of big integers on their words: a value is held as (high word signed, low
 * word unsigned), and N/A (−2^63) is told by its words, so no BigInt is made per row.
 */
function bigintExtremes(gid: Int32Array, count: number, x: BigIntColumn, rows: number, isMax: boolean): Column {
  const data = new BigInt64Array(count)
  const best = bigintWords(data)
  const seen = new Uint8Array(count)
  const w = bigintWords(x.data)
  for (let r = 0; r < rows; r++) {
    const g = gid[r]
    const hi = w[2 * r + 1]
    const lo = w[2 * r]
    if (g < 0 || (hi === -2147483648 && lo === 0)) continue
    if (seen[g] === 1) {
      const bh = best[2 * g + 1]
      const bl = best[2 * g] >>> 0
      const greater = hi > bh || (hi === bh && lo >>> 0 > bl)
      const less = hi < bh || (hi === bh && lo >>> 0 < bl)
      if (!(isMax ? greater : less)) continue
    }
    seen[g] = 1
    best[2 * g] = lo
    best[2 * g + 1] = hi
  }
  // Groups without a value are N/A.
  for (let g = 0; g < count; g++) if (seen[g] === 0) best[2 * g + 1] = -2147483648
  return { type: 'bigint', data }
}
