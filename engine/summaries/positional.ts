/** first, last, min, max (keep the source type) and median. */
import { NA_INT, type Column } from '../columns/types.js'
import { asFloat64 } from './numeric.js'
import type { SummaryDef, SummaryInput } from './types.js'

/** Row of each group's first (or last) appearance; -1 for none. */
function edgeRows({ groups }: SummaryInput, last: boolean): Int32Array {
  const rows = new Int32Array(groups.count).fill(-1)
  const ids = groups.ids
  for (let i = 0; i < ids.length; i++) if (last || rows[ids[i]] < 0) rows[ids[i]] = i
  return rows
}

function pick(col: Column, rows: Int32Array): Column {
  if (col.type === 'text') return { type: 'text', dict: col.dict, codes: rows.map((r) => (r < 0 ? 0 : col.codes[r])) }
  if (col.type === 'float') return { type: 'float', data: Float64Array.from(rows, (r) => (r < 0 ? Number.NaN : col.data[r])) }
  return { type: col.type, data: rows.map((r) => (r < 0 ? NA_INT : col.data[r])) }
}

/**
 * Row holding each group's smallest (or largest) non-N/A value; text compares by code, which
 * orders like the strings because dictionaries are sorted.
 */
function extremeRows({ groups, source }: SummaryInput, max: boolean): Int32Array {
  const col = source!
  const rows = new Int32Array(groups.count).fill(-1)
  const best = new Float64Array(groups.count)
  const ids = groups.ids
  const values = col.type === 'text' ? col.codes : col.data
  const na = col.type === 'text' ? 0 : NA_INT
  for (let i = 0; i < ids.length; i++) {
    const v = values[i]
    if (v !== v || (col.type !== 'float' && v === na)) continue
    const g = ids[i]
    if (rows[g] < 0 || (max ? v > best[g] : v < best[g])) {
      rows[g] = i
      best[g] = v
    }
  }
  return rows
}

function median({ groups, source }: SummaryInput): Column {
  const x = asFloat64(source!)
  const buckets: number[][] = Array.from({ length: groups.count }, () => [])
  for (let i = 0; i < x.length; i++) if (x[i] === x[i]) buckets[groups.ids[i]].push(x[i])
  const out = new Float64Array(groups.count)
  buckets.forEach((b, g) => {
    if (b.length === 0) return void (out[g] = Number.NaN)
    const sorted = Float64Array.from(b).sort()
    const mid = sorted.length >> 1
    out[g] = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  })
  return { type: 'float', data: out }
}

const same = (t: Parameters<SummaryDef['result']>[0]) => t ?? 'int'

export const POSITIONAL: readonly SummaryDef[] = [
  {
    name: 'first',
    accumulator: 'first',
    needsSource: true,
    needsWeight: false,
    result: same,
    kernel: (i) => pick(i.source!, edgeRows(i, false)),
    doc: "first: value of the group's first row",
  },
  {
    name: 'last',
    accumulator: 'last',
    needsSource: true,
    needsWeight: false,
    result: same,
    kernel: (i) => pick(i.source!, edgeRows(i, true)),
    doc: "last: value of the group's last row",
  },
  {
    name: 'min',
    accumulator: 'min',
    needsSource: true,
    needsWeight: false,
    result: same,
    kernel: (i) => pick(i.source!, extremeRows(i, false)),
    doc: 'min: smallest non-N/A value',
  },
  {
    name: 'max',
    accumulator: 'max',
    needsSource: true,
    needsWeight: false,
    result: same,
    kernel: (i) => pick(i.source!, extremeRows(i, true)),
    doc: 'max: largest non-N/A value',
  },
  {
    name: 'median',
    needsSource: true,
    needsWeight: false,
    types: ['int', 'float', 'date'],
    result: () => 'float',
    kernel: median,
    doc: 'median: middle non-N/A value (mean of the two middle ones)',
  },
]
