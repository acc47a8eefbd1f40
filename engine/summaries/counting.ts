/** cnt, cntnna and ucnt. */
import type { Column } from '../columns/types.js'
import { distinctPerGroup } from '../columns/distinct-per-group.js'
import { accumulating } from './accumulated.js'
import { intsOf, ROWS, VALID } from './parts.js'
import type { SummaryDef, SummaryInput } from './types.js'

/** Distinct non-N/A values per group (columns/distinct-per-group.ts). */
function countDistinct({ groups, source }: SummaryInput): Column {
  return { type: 'int', data: distinctPerGroup(groups.ids, groups.count, source!, groups.ids.length) }
}

export const COUNTING: readonly SummaryDef[] = [
  accumulating({
    name: 'cnt',
    accumulates: { parts: [ROWS], finish: ([rows]) => ({ type: 'int', data: intsOf(rows) }) },
    needsSource: false,
    needsWeight: false,
    result: () => 'int',
    doc: 'cnt: number of rows in the group',
  }),
  accumulating({
    name: 'cntnna',
    accumulates: { parts: [VALID], finish: ([n]) => ({ type: 'int', data: intsOf(n) }) },
    needsSource: true,
    needsWeight: false,
    result: () => 'int',
    doc: 'cntnna: number of non-N/A values',
  }),
  { name: 'ucnt', needsSource: true, needsWeight: false, result: () => 'int', kernel: countDistinct, doc: 'ucnt: number of distinct non-N/A values' },
]
