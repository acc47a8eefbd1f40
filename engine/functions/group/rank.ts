/**
 * Ranks within groups, largest value first. g_rank gives unique ranks 1, 2, 3…, ties broken by
 * O (or worksheet order); g_rankskip gives tied values one rank and skips the next (1, 2, 2,
 * 4). Rows with N/A X (and rows that take no part) get N/A. Both sort the rows once by
 * (group, X descending) with a stable sort that starts from the tie-breaking order.
 */
import { sortPermutation } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { intResult, type Groups } from './context.js'
import { rowsWithValues } from './spread.js'

/**
 * @param skip g_rankskip: equal values share a rank
 */
export function gRank(gr: Groups, x: Column, skip: boolean): Column {
  const base = rowsWithValues(gr, x, skip ? null : gr.order)
  const sorted = sortPermutation(
    [
      { col: intResult(gr.gid), desc: false },
      { col: x, desc: true },
    ],
    gr.rows,
    base,
  )
  const data = x.type === 'text' ? x.codes : x.data
  const out = new Int32Array(gr.rows).fill(NA_INT)
  let groupStart = 0
  for (let k = 0; k < sorted.length; k++) {
    const r = sorted[k]
    const prev = k > 0 ? sorted[k - 1] : -1
    if (prev < 0 || gr.gid[prev] !== gr.gid[r]) groupStart = k
    // Sorted by value within the group, so a tie is always the row just before.
    out[r] = skip && k > groupStart && data[prev] === data[r] ? out[prev] : k - groupStart + 1
  }
  return intResult(out)
}
