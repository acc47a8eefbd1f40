/**
 * Group functions about positions in O order: g_first, g_last, g_nth (the X of the first, last
 * or Nth row, N/A included as it is), g_first1 / g_last1 (1 on that row, 0 on the group's
 * other rows), g_num (groups numbered 1, 2… in the O order of their first rows), g_rshift
 * (X from N rows later, or |N| rows earlier) and g_rshifti (that row's zero-based number).
 */
import { gather } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { idsInOrder, intResult, rowAt, type Groups } from './context.js'

/** First and last taking-part row of each group in O order (-1 for an empty group). */
export function endRows(gr: Groups): { first: Int32Array; last: Int32Array } {
  const first = new Int32Array(gr.count).fill(-1)
  const last = new Int32Array(gr.count).fill(-1)
  const ids = idsInOrder(gr)
  for (let k = 0; k < gr.rows; k++) {
    const g = ids[k]
    if (g < 0) continue
    const r = rowAt(gr.order, k)
    if (first[g] < 0) first[g] = r
    last[g] = r
  }
  return { first, last }
}

/** g_first / g_last (G;S;O;X). */
export function gEnd(gr: Groups, x: Column, which: 'first' | 'last'): Column {
  return gather(x, pickRows(endRows(gr)[which], gr.gid))
}

/** Per row, the row chosen for its group (-1 for rows that take no part). */
function pickRows(perGroup: Int32Array, gid: Int32Array): Int32Array {
  const pick = new Int32Array(gid.length)
  for (let r = 0; r < gid.length; r++) {
    const g = gid[r]
    pick[r] = g < 0 ? -1 : perGroup[g]
  }
  return pick
}

/** g_first1 / g_last1 (G;S;O): 1 on the group's first (last) row in O order, else 0. */
export function gEndFlag(gr: Groups, which: 'first' | 'last'): Column {
  const rowOf = endRows(gr)[which]
  const out = new Int32Array(gr.rows)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    out[r] = g < 0 ? NA_INT : +(rowOf[g] === r)
  }
  return intResult(out)
}

/** g_num(G;S;O): 1 for the group whose first row comes first in O order, then 2, 3… */
export function gNum(gr: Groups): Column {
  const num = new Int32Array(gr.count)
  let next = 0
  const ids = idsInOrder(gr)
  for (let k = 0; k < gr.rows; k++) {
    const g = ids[k]
    if (g >= 0 && num[g] === 0) num[g] = ++next
  }
  const out = new Int32Array(gr.rows)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    out[r] = g < 0 ? NA_INT : num[g]
  }
  return intResult(out)
}

/**
 * The rows of each group laid out one group after another, each in O order: group g occupies
 * list[start[g] … start[g+1]), and pos[r] is row r's place within its group.
 */
export function groupLayout(gr: Groups): { list: Int32Array; start: Int32Array; pos: Int32Array } {
  const start = new Int32Array(gr.count + 1)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    if (g >= 0) start[g + 1]++
  }
  for (let g = 0; g < gr.count; g++) start[g + 1] += start[g]
  const fill = start.slice(0, gr.count)
  const list = new Int32Array(start[gr.count])
  const pos = new Int32Array(gr.rows).fill(-1)
  const ids = idsInOrder(gr)
  for (let k = 0; k < gr.rows; k++) {
    const g = ids[k]
    if (g < 0) continue
    const r = rowAt(gr.order, k)
    pos[r] = fill[g] - start[g]
    list[fill[g]++] = r
  }
  return { list, start, pos }
}

/** g_nth(G;S;O;X;N): X of the group's Nth row (1-based) in O order; N/A beyond the group. */
export function gNth(gr: Groups, x: Column, n: number): Column {
  const { list, start } = groupLayout(gr)
  const chosen = new Int32Array(gr.count).fill(-1)
  for (let g = 0; g < gr.count; g++) if (n >= 1 && n <= start[g + 1] - start[g]) chosen[g] = list[start[g] + n - 1]
  return gather(x, pickRows(chosen, gr.gid))
}

/**
 * Per row, the row N places later in its group (earlier for N < 0), or -1 beyond the group's
 * edge. N is a constant or a per-row column (N/A → -1).
 */
export function shiftedRows(gr: Groups, n: number | Int32Array): Int32Array {
  const { list, start, pos } = groupLayout(gr)
  const pick = new Int32Array(gr.rows)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    const step = typeof n === 'number' ? n : n[r]
    if (g < 0 || step === NA_INT) {
      pick[r] = -1
      continue
    }
    const t = pos[r] + step
    pick[r] = t >= 0 && t < start[g + 1] - start[g] ? list[start[g] + t] : -1
  }
  return pick
}

/** g_rshift(G;S;O;X;N). */
export function gRshift(gr: Groups, x: Column, n: number | Int32Array): Column {
  return gather(x, shiftedRows(gr, n))
}

/** g_rshifti(G;S;O;N): the zero-based worksheet row number of the shifted row (N/A beyond the edge). */
export function gRshifti(gr: Groups, n: number | Int32Array): Column {
  const pick = shiftedRows(gr, n)
  for (let r = 0; r < pick.length; r++) if (pick[r] < 0) pick[r] = NA_INT
  return intResult(pick)
}
