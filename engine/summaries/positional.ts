/** first, last, min, max (keep the source type) and median. */
import type { Column } from '../columns/types.js'
import { medianPerGroup } from '../columns/median-per-group.js'
import { accumulating } from './accumulated.js'
import { columnOf, FIRST, LAST, MAX, MIN, type StatePart } from './parts.js'
import { asFloat64 } from './numeric.js'
import type { SummaryDef, SummaryInput } from './types.js'

function median({ groups, source }: SummaryInput): Column {
  return { type: 'float', data: medianPerGroup(groups.ids, groups.count, asFloat64(source!), groups.ids.length) }
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
    types: ['int', 'bigint', 'float', 'date'],
    result: () => 'float',
    kernel: median,
    doc: 'median: middle non-N/A value (mean of the two middle ones)',
  },
]
