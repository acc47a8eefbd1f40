/**
 * SQL's group_concat (compiled SQL only: `$` names are not documented): each group's non-NULL
 * texts joined in row order by a separator, NULL for a group without any. The separator comes as
 * the weight, a text constant ('' for none, as SQLite reads a NULL separator). Row order is what
 * makes the answer, so it does not accumulate in parts: a split run leaves this `<tabu>` whole.
 */
import { textColumnFromStrings } from '../columns/index.js'
import type { Column } from '../columns/types.js'
import { sqlDeclined } from '../task/outcome.js'
import type { SummaryDef, SummaryInput } from './types.js'

/** Longer answers are left to sql.js (JavaScript strings stop near 2^29 characters). */
const MAX_CHARS = 100_000_000

function groupConcat({ groups, source, weight }: SummaryInput): Column {
  if (source === null || source.type !== 'text') throw sqlDeclined('group_concat of other than text')
  const sep = weight !== null && weight.type === 'text' && weight.codes.length > 0 ? weight.dict[weight.codes[0]] : ''
  const parts: (string[] | null)[] = new Array(groups.count).fill(null)
  const { ids } = groups
  const { codes, dict } = source
  let chars = 0
  for (let i = 0; i < ids.length; i++) {
    const g = ids[i]
    const c = codes[i]
    if (g < 0 || c === 0) continue
    const list = parts[g] ?? (parts[g] = [])
    list.push(dict[c])
    chars += dict[c].length + sep.length
    if (chars > MAX_CHARS) throw sqlDeclined('a group_concat longer than 10^8 characters')
  }
  return textColumnFromStrings(parts.map((p) => (p === null ? null : p.join(sep))))
}

export const CONCATENATING: readonly SummaryDef[] = [
  {
    name: '$group_concat',
    needsSource: true,
    needsWeight: true,
    types: ['text'],
    weightTypes: ['text'],
    result: () => 'text',
    kernel: groupConcat,
    doc: "$group_concat: SQL's group_concat, the texts in row order joined by the weight",
  },
]
