/** cnt, cntnna and ucnt. */
import { NA_INT, type Column } from '../columns/types.js'
import { accumulating } from './accumulated.js'
import { intsOf, ROWS, VALID } from './parts.js'
import type { SummaryDef, SummaryInput } from './types.js'

function isNaAt(col: Column, i: number): boolean {
  if (col.type === 'float') return col.data[i] !== col.data[i]
  if (col.type === 'text') return col.codes[i] === 0
  return col.data[i] === NA_INT
}

/** Distinct non-N/A values per group: one pass over (group, value) pairs with a Set of keys. */
function countDistinct({ groups, source }: SummaryInput): Column {
  const out = new Int32Array(groups.count)
  const seen = new Set<string | number>()
  const ids = groups.ids
  const col = source!
  const key = col.type === 'text' ? (i: number) => ids[i] * 4294967296 + col.codes[i] : (i: number) => `${ids[i]}:${col.data[i]}`
  for (let i = 0; i < ids.length; i++) {
    if (isNaAt(col, i)) continue
    const k = key(i)
    if (!seen.has(k)) {
      seen.add(k)
      out[ids[i]]++
    }
  }
  return { type: 'int', data: out }
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
