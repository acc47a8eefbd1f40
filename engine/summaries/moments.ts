/** sum, avg, var, stdev, wsum, wavg: one pass accumulating per group. */
import type { Column } from '../columns/types.js'
import { accumulating } from './accumulated.js'
import { floatsOf, intsOf, PRODUCTS, SQUARES, SUM, VALID, WEIGHTS } from './parts.js'
import type { SummaryDef } from './types.js'

const NUMERIC = ['int', 'bigint', 'float', 'date'] as const

const float = (data: Float64Array): Column => ({ type: 'float', data })

/** Mean of the non-N/A values from their count and sum (N/A without values). */
function mean(count: Int32Array, sum: Float64Array): Column {
  const out = new Float64Array(sum.length)
  for (let g = 0; g < out.length; g++) out[g] = count[g] === 0 ? Number.NaN : sum[g] / count[g]
  return float(out)
}

/** The sums, N/A where there were no values. */
function sumOrNothing(count: Int32Array, sum: Float64Array): Float64Array {
  const out = new Float64Array(sum.length)
  for (let g = 0; g < out.length; g++) out[g] = count[g] === 0 ? Number.NaN : sum[g]
  return out
}

/** Sample variance (n − 1) from count, sum and sum of squares; fewer than two values → N/A. */
function variance(n: Int32Array, s: Float64Array, ss: Float64Array): Float64Array {
  return s.map((v, g) => (n[g] < 2 ? Number.NaN : Math.max(0, (ss[g] - (v * v) / n[g]) / (n[g] - 1))))
}

/** Sum of value × weight over sum of weight per group (N/A where the weights add to 0). */
function weightedMean(sxw: Float64Array, sw: Float64Array): Column {
  const out = new Float64Array(sxw.length)
  for (let g = 0; g < out.length; g++) out[g] = sw[g] === 0 ? Number.NaN : sxw[g] / sw[g]
  return float(out)
}

export const MOMENTS: readonly SummaryDef[] = [
  accumulating({
    name: 'sum',
    // An all-N/A group sums to 0, as g_sum does.
    accumulates: { parts: [SUM], finish: ([s]) => float(floatsOf(s)) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: 'sum: sum of non-N/A values (0 when all are N/A)',
  }),
  // SQL's sum: like sum, but N/A over no values (compiled SQL only: `$` names are not documented).
  accumulating({
    name: '$sum',
    accumulates: { parts: [VALID, SUM], finish: ([n, s]) => float(sumOrNothing(intsOf(n), floatsOf(s))) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: "$sum: SQL's sum, NULL when there are no values",
  }),
  accumulating({
    name: 'avg',
    accumulates: { parts: [VALID, SUM], finish: ([n, s]) => mean(intsOf(n), floatsOf(s)) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: 'avg: mean of non-N/A values',
  }),
  // One pass of count, sum and sum of squares: split runs add them like sums (parts.ts).
  accumulating({
    name: 'var',
    accumulates: { parts: [VALID, SUM, SQUARES], finish: ([n, s, ss]) => float(variance(intsOf(n), floatsOf(s), floatsOf(ss))) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: 'var: sample variance',
  }),
  accumulating({
    name: 'stdev',
    accumulates: { parts: [VALID, SUM, SQUARES], finish: ([n, s, ss]) => float(variance(intsOf(n), floatsOf(s), floatsOf(ss)).map(Math.sqrt)) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: 'stdev: sample standard deviation',
  }),
  // Weighted: the parts read value × weight and the weight, rows with either N/A left out.
  accumulating({
    name: 'wsum',
    accumulates: { parts: [PRODUCTS], finish: ([sxw]) => float(floatsOf(sxw)) },
    needsSource: true,
    needsWeight: true,
    types: NUMERIC,
    result: () => 'float',
    doc: 'wsum: sum of value × weight',
  }),
  accumulating({
    name: 'wavg',
    accumulates: { parts: [PRODUCTS, WEIGHTS], finish: ([sxw, sw]) => weightedMean(floatsOf(sxw), floatsOf(sw)) },
    needsSource: true,
    needsWeight: true,
    types: NUMERIC,
    result: () => 'float',
    doc: 'wavg: weighted average, sum(value × weight) / sum(weight)',
  }),
]
