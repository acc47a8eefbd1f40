/** sum, avg, var, stdev, wsum, wavg: one pass accumulating per group. */
import type { Column } from '../columns/types.js'
import { asFloat64 } from './numeric.js'
import { accumulating } from './accumulated.js'
import { floatsOf, intsOf, SUM, VALID } from './parts.js'
import type { SummaryDef, SummaryInput } from './types.js'

const NUMERIC = ['int', 'float', 'date'] as const

interface Sums {
  n: Int32Array
  s: Float64Array
  ss: Float64Array
}

/** Count and sum of the non-N/A values per group. */
function sumCount(ids: Int32Array, x: Float64Array, count: number): Sums {
  const n = new Int32Array(count)
  const s = new Float64Array(count)
  for (let i = 0; i < ids.length; i++) {
    const v = x[i]
    if (v === v) {
      const g = ids[i]
      n[g]++
      s[g] += v
    }
  }
  return { n, s, ss: new Float64Array(0) }
}

function sumSquares(ids: Int32Array, x: Float64Array, sums: Sums): Sums {
  const ss = new Float64Array(sums.s.length)
  for (let i = 0; i < ids.length; i++) {
    const v = x[i]
    if (v === v) ss[ids[i]] += v * v
  }
  return { ...sums, ss }
}

function accumulate({ groups, source }: SummaryInput): Sums {
  const x = asFloat64(source!)
  return sumSquares(groups.ids, x, sumCount(groups.ids, x, groups.count))
}

const float = (data: Float64Array): Column => ({ type: 'float', data })

/** Mean of the non-N/A values from their count and sum (N/A without values). */
function mean(count: Int32Array, sum: Float64Array): Column {
  const out = new Float64Array(sum.length)
  for (let g = 0; g < out.length; g++) out[g] = count[g] === 0 ? Number.NaN : sum[g] / count[g]
  return float(out)
}

/** Sample variance (n − 1); fewer than two values → N/A. */
function variance(input: SummaryInput): Float64Array {
  const { n, s, ss } = accumulate(input)
  return s.map((v, g) => (n[g] < 2 ? Number.NaN : Math.max(0, (ss[g] - (v * v) / n[g]) / (n[g] - 1))))
}

function weighted({ groups, source, weight }: SummaryInput): { sw: Float64Array; sxw: Float64Array } {
  const x = asFloat64(source!)
  const w = asFloat64(weight!)
  const ids = groups.ids
  const sw = new Float64Array(groups.count)
  const sxw = new Float64Array(groups.count)
  for (let i = 0; i < ids.length; i++) {
    const v = x[i]
    const wi = w[i]
    if (v !== v || wi !== wi) continue
    sw[ids[i]] += wi
    sxw[ids[i]] += v * wi
  }
  return { sw, sxw }
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
  accumulating({
    name: 'avg',
    accumulates: { parts: [VALID, SUM], finish: ([n, s]) => mean(intsOf(n), floatsOf(s)) },
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    doc: 'avg: mean of non-N/A values',
  }),
  { name: 'var', needsSource: true, needsWeight: false, types: NUMERIC, result: () => 'float', kernel: (i) => float(variance(i)), doc: 'var: sample variance' },
  {
    name: 'stdev',
    needsSource: true,
    needsWeight: false,
    types: NUMERIC,
    result: () => 'float',
    kernel: (i) => float(variance(i).map(Math.sqrt)),
    doc: 'stdev: sample standard deviation',
  },
  {
    name: 'wsum',
    needsSource: true,
    needsWeight: true,
    types: NUMERIC,
    result: () => 'float',
    kernel: (i) => float(weighted(i).sxw),
    doc: 'wsum: sum of value × weight',
  },
  {
    name: 'wavg',
    needsSource: true,
    needsWeight: true,
    types: NUMERIC,
    result: () => 'float',
    kernel: (i) => {
      const { sw, sxw } = weighted(i)
      return float(sxw.map((v, g) => (sw[g] === 0 ? Number.NaN : v / sw[g])))
    },
    doc: 'wavg: weighted average, sum(value × weight) / sum(weight)',
  },
]
