/** first, last, min, max (keep the source type) and median. */
import type { Column } from '../columns/types.js'
import { accumulating } from './accumulated.js'
import { columnOf, FIRST, LAST, MAX, MIN, type StatePart } from './parts.js'
import { asFloat64 } from './numeric.js'
import type { SummaryDef, SummaryInput } from './types.js'

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

/** A summary that is the value of one part, in the source's type. */
const valueOf = (name: string, part: StatePart, doc: string) =>
  accumulating({ name, accumulates: { parts: [part], finish: ([v]) => columnOf(v) }, needsSource: true, needsWeight: false, result: same, doc })

export const POSITIONAL: readonly SummaryDef[] = [
  valueOf('first', FIRST, "first: value of the group's first row"),
  valueOf('last', LAST, "last: value of the group's last row"),
  // Text compares by code, which orders like the strings because dictionaries are sorted.
  valueOf('min', MIN, 'min: smallest non-N/A value'),
  valueOf('max', MAX, 'max: largest non-N/A value'),
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
