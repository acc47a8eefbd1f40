/**
 * g_splice(G;S;O;X;D;N): the group's values joined in O order with the delimiter D (none when
 * omitted), at most N of them (all when omitted). N/A values are left out (aggregates ignore
 * N/A). Numbers read as valueText writes them. The strings are
 * built once per group, not per row, then broadcast as codes.
 */
import { gather, textColumnFromStrings } from '../../columns/index.js'
import type { Column } from '../../columns/types.js'
import type { Groups } from './context.js'
import { groupLayout } from './positional.js'
import { MAX_TEXT_LENGTH, TextBudget } from '../text-limits.js'
import { valueText } from '../value-text.js'

/** g_splice(G;S;O;X;D;N) over prepared groups; `limit` null = every value. */
export function gSplice(gr: Groups, x: Column, delimiter: string, limit: number | null): Column {
  const { list, start } = groupLayout(gr)
  const parts: string[] = []
  const joined: string[] = new Array(gr.count)
  const budget = new TextBudget('g_splice', 'keep fewer values per group with N, use a shorter delimiter D, or group more finely')
  for (let g = 0; g < gr.count; g++) {
    parts.length = 0
    let length = 0
    for (let k = start[g]; k < start[g + 1] && (limit === null || parts.length < limit); k++) {
      const s = valueText(x, list[k])
      if (s === '') continue
      length += s.length + (parts.length > 0 ? delimiter.length : 0)
      // Counted before the join, so a text past the bound is refused, never built.
      if (length > MAX_TEXT_LENGTH) budget.add(length)
      parts.push(s)
    }
    budget.add(length)
    joined[g] = parts.join(delimiter)
  }
  return gather(textColumnFromStrings(joined), gr.gid)
}
