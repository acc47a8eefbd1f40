/**
 * Per-group aggregates broadcast to every row of the group: g_sum, g_cnt, g_avg, g_min, g_max,
 * g_pct, g_wavg. N/A values are ignored; the sum of a group without any value is 0 (§5.2), an
 * average, minimum or maximum of one is N/A.
 */
import { gather, toFloat } from '../../columns/index.js'
import type { Column } from '../../columns/types.js'
import { callError } from '../args.js'
import { floatResult, intResult, type Groups } from './context.js'
import { groupCounts, groupExtremes, groupSums } from './per-group.js'

function numeric(x: Column, fn: string): Column & { type: 'int' | 'bigint' | 'date' | 'float' } {
  if (x.type === 'text') throw callError(`${fn} needs a number, got text for X.`)
  return x
}

/** g_sum(G;S;X): per-group sum (decimal), 0 for a group without values. */
export function gSum(gr: Groups, x: Column): Column {
  const { sum } = groupSums(gr.gid, gr.count, numeric(x, 'g_sum'), gr.rows)
  return gather(floatResult(sum), gr.gid)
}

/** g_cnt(G;S): the number of (selected) rows of the group. */
export function gCnt(gr: Groups): Column {
  return gather(intResult(groupCounts(gr.gid, gr.count, gr.rows)), gr.gid)
}

/** g_avg(G;S;X): per-group mean of the values; N/A without values. */
export function gAvg(gr: Groups, x: Column): Column {
  const { sum, n } = groupSums(gr.gid, gr.count, numeric(x, 'g_avg'), gr.rows)
  for (let g = 0; g < gr.count; g++) sum[g] = n[g] === 0 ? NaN : sum[g] / n[g]
  return gather(floatResult(sum), gr.gid)
}

/** g_min / g_max (G;S;X): per-group extreme, of X's type (text by string order). */
export function gExtreme(gr: Groups, x: Column, isMax: boolean): Column {
  return gather(groupExtremes(gr.gid, gr.count, x, gr.rows, isMax), gr.gid)
}

/** g_pct(G;S;X): X as a fraction of its group's sum (not ×100); N/A for N/A X or a zero sum. */
export function gPct(gr: Groups, x: Column): Column {
  const f = toFloat(numeric(x, 'g_pct')).data
  const { sum } = groupSums(gr.gid, gr.count, x, gr.rows)
  const out = new Float64Array(gr.rows)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    const s = g < 0 ? 0 : sum[g]
    out[r] = g < 0 || s === 0 ? NaN : f[r] / s
  }
  return floatResult(out)
}

/** g_wavg(G;S;X;W): Σx·w / Σw over rows where both are present; N/A when Σw is 0. */
export function gWavg(gr: Groups, x: Column, w: Column): Column {
  const xs = toFloat(numeric(x, 'g_wavg')).data
  const ws = toFloat(numeric(w, 'g_wavg')).data
  const num = new Float64Array(gr.count)
  const den = new Float64Array(gr.count)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    const a = xs[r]
    const b = ws[r]
    if (g < 0 || a !== a || b !== b) continue
    num[g] += a * b
    den[g] += b
  }
  for (let g = 0; g < gr.count; g++) num[g] = den[g] === 0 ? NaN : num[g] / den[g]
  return gather(floatResult(num), gr.gid)
}
