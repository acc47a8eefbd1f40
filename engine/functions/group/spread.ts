/**
 * Per-group aggregates that look at the distribution of values: g_ucnt (distinct values), g_median,
 * g_var and g_stdev (sample: divided by n − 1, N/A for fewer than 2 values; the population
 * variant is unconfirmed and would differ only by that divisor).
 */
import { gather, toFloat } from '../../columns/index.js'
import { distinctPerGroup } from '../../columns/distinct-per-group.js'
import { medianPerGroup } from '../../columns/median-per-group.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { callError } from '../args.js'
import { floatResult, intResult, type Groups } from './context.js'
import { groupSums } from './per-group.js'

/** Rows that take part and have a value, in worksheet order. */
export function rowsWithValues(gr: Groups, x: Column, order: Int32Array | null = null): Int32Array {
  const out = new Int32Array(gr.rows)
  let n = 0
  const data = x.type === 'text' ? x.codes : x.data
  const na = x.type === 'text' ? 0 : NA_INT
  for (let k = 0; k < gr.rows; k++) {
    const r = order === null ? k : order[k]
    const v = data[r]
    if (gr.gid[r] >= 0 && v === v && v !== na) out[n++] = r
  }
  return out.slice(0, n)
}

/** g_ucnt(G;S;X): the number of distinct non-N/A values in the group (0 if none). */
export function gUcnt(gr: Groups, x: Column): Column {
  return gather(intResult(distinctPerGroup(gr.gid, gr.count, x, gr.rows)), gr.gid)
}

/** g_median(G;S;X): the middle value (mean of the two middle ones for an even count); N/A without values. */
export function gMedian(gr: Groups, x: Column): Column {
  if (x.type === 'text') throw callError('g_median needs a number, got text for X.')
  return gather(floatResult(medianPerGroup(gr.gid, gr.count, toFloat(x).data, gr.rows)), gr.gid)
}

/** g_var(G;S;X) (sample variance) or, with `root`, g_stdev; two passes for numerical stability. */
export function gVariance(gr: Groups, x: Column, root: boolean): Column {
  if (x.type === 'text') throw callError(`${root ? 'g_stdev' : 'g_var'} needs a number, got text for X.`)
  const f = toFloat(x).data
  const { sum, n } = groupSums(gr.gid, gr.count, x, gr.rows)
  const ss = new Float64Array(gr.count)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    const v = f[r]
    if (g < 0 || v !== v) continue
    const d = v - sum[g] / n[g]
    ss[g] += d * d
  }
  for (let g = 0; g < gr.count; g++) {
    const v = n[g] < 2 ? NaN : ss[g] / (n[g] - 1)
    ss[g] = root ? Math.sqrt(v) : v
  }
  return gather(floatResult(ss), gr.gid)
}
