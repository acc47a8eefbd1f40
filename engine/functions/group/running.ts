/**
 * Running (cumulative) group functions, walking the rows in O order: g_cumcnt, g_cumsum (N/A
 * counts as 0, so a group without values runs at 0), g_cummax, g_cummin, g_cumavg (N/A until
 * the group's first value), g_cumrunlen (length of the current run of true X; a false or N/A X
 * ends the run and gives 0).
 */
import { bigintWords, toFloat } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { callError } from '../args.js'
import { floatResult, intResult, rowAt, type Groups } from './context.js'

/** g_cumcnt(G;S;O): 1, 2, 3… within the group in O order. */
export function gCumcnt(gr: Groups): Column {
  const { gid, order, rows } = gr
  const cnt = new Int32Array(gr.count)
  const out = new Int32Array(rows)
  for (let k = 0; k < rows; k++) {
    const r = rowAt(order, k)
    const g = gid[r]
    out[r] = g < 0 ? NA_INT : ++cnt[g]
  }
  return intResult(out)
}

/** g_cumsum(G;S;O;X): running sum of X up to and including the row. */
export function gCumsum(gr: Groups, x: Column): Column {
  if (x.type === 'text') throw callError('g_cumsum needs a number, got text for X.')
  const { gid, order, rows } = gr
  const sum = new Float64Array(gr.count)
  const out = new Float64Array(rows)
  if (x.type === 'float' || x.type === 'bigint') {
    // The running sums are decimals: a big integer is read as its nearest float64.
    const d = toFloat(x).data
    for (let k = 0; k < rows; k++) {
      const r = rowAt(order, k)
      const g = gid[r]
      const v = d[r]
      if (g < 0) out[r] = NaN
      else out[r] = v === v ? (sum[g] += v) : sum[g]
    }
  } else {
    const d = x.data
    for (let k = 0; k < rows; k++) {
      const r = rowAt(order, k)
      const g = gid[r]
      const v = d[r]
      if (g < 0) out[r] = NaN
      else out[r] = v !== NA_INT ? (sum[g] += v) : sum[g]
    }
  }
  return floatResult(out)
}

/** g_cummax / g_cummin (G;S;O;X): running extreme of X's type; N/A before the first value. */
export function gCumExtreme(gr: Groups, x: Column, isMax: boolean): Column {
  const { gid, order, rows } = gr
  if (x.type === 'bigint') return bigintCumExtreme(gr, x.data, isMax)
  if (x.type === 'float') {
    const best = new Float64Array(gr.count).fill(NaN)
    const d = x.data
    const out = new Float64Array(rows)
    for (let k = 0; k < rows; k++) {
      const r = rowAt(order, k)
      const g = gid[r]
      if (g < 0) {
        out[r] = NaN
        continue
      }
      const v = d[r]
      const b = best[g]
      if (v === v && (b !== b || (isMax ? v > b : v < b))) best[g] = v
      out[r] = best[g]
    }
    return { type: x.type, data: out }
  }
  const na = x.type === 'text' ? 0 : NA_INT
  const d = x.type === 'text' ? x.codes : x.data
  const best = new Int32Array(gr.count).fill(na)
  const out = new Int32Array(rows)
  for (let k = 0; k < rows; k++) {
    const r = rowAt(order, k)
    const g = gid[r]
    if (g < 0) {
      out[r] = na
      continue
    }
    const v = d[r]
    const b = best[g]
    if (v !== na && (b === na || (isMax ? v > b : v < b))) best[g] = v
    out[r] = best[g]
  }
  return x.type === 'text' ? { type: 'text', codes: out, dict: x.dict } : { type: x.type, data: out }
}

/** gCumExtreme over big integers, on their words (see per-group.ts bigintExtremes). */
function bigintCumExtreme(gr: Groups, x: BigInt64Array, isMax: boolean): Column {
  const { gid, order, rows } = gr
  const best = new Int32Array(2 * gr.count)
  const seen = new Uint8Array(gr.count)
  const w = bigintWords(x)
  const data = new BigInt64Array(rows)
  const out = bigintWords(data)
  for (let k = 0; k < rows; k++) {
    const r = rowAt(order, k)
    const g = gid[r]
    if (g < 0) {
      out[2 * r + 1] = -2147483648
      continue
    }
    const hi = w[2 * r + 1]
    const lo = w[2 * r]
    if (!(hi === -2147483648 && lo === 0)) {
      const bh = best[2 * g + 1]
      const bl = best[2 * g] >>> 0
      const better = isMax ? hi > bh || (hi === bh && lo >>> 0 > bl) : hi < bh || (hi === bh && lo >>> 0 < bl)
      if (seen[g] === 0 || better) {
        seen[g] = 1
        best[2 * g] = lo
        best[2 * g + 1] = hi
      }
    }
    if (seen[g] === 0) out[2 * r + 1] = -2147483648
    else {
      out[2 * r] = best[2 * g]
      out[2 * r + 1] = best[2 * g + 1]
    }
  }
  return { type: 'bigint', data }
}

/** g_cumavg(G;S;O;X): running mean of the values so far; N/A before the first value. */
export function gCumavg(gr: Groups, x: Column): Column {
  if (x.type === 'text') throw callError('g_cumavg needs a number, got text for X.')
  const { gid, order, rows } = gr
  const d = toFloat(x).data
  const sum = new Float64Array(gr.count)
  const n = new Int32Array(gr.count)
  const out = new Float64Array(rows)
  for (let k = 0; k < rows; k++) {
    const r = rowAt(order, k)
    const g = gid[r]
    if (g < 0) {
      out[r] = NaN
      continue
    }
    const v = d[r]
    if (v === v) {
      sum[g] += v
      n[g]++
    }
    out[r] = n[g] === 0 ? NaN : sum[g] / n[g]
  }
  return floatResult(out)
}

/** g_cumrunlen(G;S;O;X): consecutive true X (non-zero, not N/A) ending at this row, in O order. */
export function gCumrunlen(gr: Groups, x: Column): Column {
  if (x.type === 'text') throw callError('g_cumrunlen needs a 0/1 number, got text for X.')
  const { gid, order, rows } = gr
  const d = toFloat(x).data
  const run = new Int32Array(gr.count)
  const out = new Int32Array(rows)
  for (let k = 0; k < rows; k++) {
    const r = rowAt(order, k)
    const g = gid[r]
    if (g < 0) {
      out[r] = NA_INT
      continue
    }
    const v = d[r]
    out[r] = run[g] = v !== 0 && v === v ? run[g] + 1 : 0
  }
  return intResult(out)
}
