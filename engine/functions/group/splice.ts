/**
 * g_splice(G;S;O;X;D;N): the group's values joined in O order with the delimiter D (none when
 * omitted), at most N of them (all when omitted). N/A values are left out (aggregates ignore
 * N/A). Numbers are written as JavaScript prints them (dates as yyyymmdd). The strings are
 * built once per group, not per row, then broadcast as codes.
 */
import { gather, textColumnFromStrings } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import type { Groups } from './context.js'
import { groupLayout } from './positional.js'
import { MAX_TEXT_LENGTH, TextBudget } from '../text-limits.js'
import { isFloat64 } from '../../columns/index.js'

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
      const s = display(x, list[k])
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

function display(x: Column, r: number): string {
  if (x.type === 'text') return x.dict[x.codes[r]]
  const v = x.data[r]
  return v !== v || (!isFloat64(x) && v === NA_INT) ? '' : String(v)
}
