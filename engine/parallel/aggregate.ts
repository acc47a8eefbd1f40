/**
 * Per-group partials of one part: what each range of rows contributes to a group summary, in a
 * form that merges exactly (merge.ts): each summary's parts (summaries/parts.ts) as the one
 * evaluator of grouped summaries computes them (interpret/ops/tabu-groups.ts), sums kept per
 * summing block (blocks.ts) so that the merge adds them in the same order for any split.
 */
import { AppError } from '../../shared/errors.js'
import { firstRowOfGroups, groupBy } from '../columns/index.js'
import type { Column, GroupIndex } from '../columns/types.js'
import type { Worksheet } from '../interpret/worksheet.js'
import { groupStates } from '../interpret/ops/tabu-groups.js'
import { accumulationOf } from '../summaries/index.js'
import type { PartValue } from '../summaries/parts.js'
import type { NamedColumn } from './codec.js'
import type { AggSpec } from './plan.js'
import { splitDeclined } from '../task/outcome.js'

/** Column names of the partials ResultSet, which merge.ts reads back. */
export const keyName = (i: number): string => `key:${i}`
/** The merged value of the j-th group step of a batch (plan.ts batchEnd), read by the parts. */
export const valueName = (j: number): string => `value:${j}`
/** Summary j's part, and for a part kept per summing block, block b of it. */
export const partName = (j: number, part: string, b?: number): string => (b === undefined ? `agg:${j}:${part}` : `agg:${j}:${part}:${b}`)

const unknownColumn = (k: string): AppError => new AppError('CHECK_ERROR', `Unknown column "${k}".`, { column: k })

/** The groups of a worksheet by key columns (none: one group), rows with mask 0 left out. */
export function groupsOf(ws: Worksheet, keys: readonly string[], mask: Uint8Array | null): { groups: GroupIndex; keyCols: Column[]; first: Int32Array } {
  const keyCols = keys.map((k) => {
    const c = ws.column(k)
    if (!c) throw unknownColumn(k)
    return c.data()
  })
  const groups = groupBy(keyCols, ws.rows, mask)
  return { groups, keyCols, first: firstRowOfGroups(groups) }
}

/**
 * The partials of `aggs` over the worksheet's groups, as named columns (one row per group, groups
 * in order of first appearance).
 * @param starts where each block starts among the rows, plus the row count (blockStarts)
 */
export function partials(
  ws: Worksheet,
  keys: readonly string[],
  mask: Uint8Array | null,
  aggs: readonly AggSpec[],
  starts: Int32Array,
): { rows: number; cols: NamedColumn[] } {
  const how = aggs.map((a) => accumulationOf(a.fun))
  const g = groupStates(
    ws,
    { breaks: keys, mask, alwaysOneGroup: false, starts, order: 'appearance', unknownColumn },
    aggs.map((a, j) => ({ accumulates: how[j], source: a.source, weight: a.weight })),
  )
  const cols: NamedColumn[] = g.keys.map((column, i) => ({ name: keyName(i), column }))
  g.states.forEach((states, j) =>
    how[j].parts.forEach((part, k) => {
      const state = states[k]
      if (part.kind === 'fold' && !part.mergesText && g.sourceTypes[j] === 'text') throw splitDeclined(`${aggs[j].fun} of a text value`)
      if (part.kind === 'fold' && part.summed)
        state.forEach((v, b) => cols.push({ name: partName(j, part.name, b), column: { type: 'float', data: v as Float64Array } }))
      else cols.push({ name: partName(j, part.name), column: asColumn(state[0]) })
    }),
  )
  return { rows: g.count, cols }
}

/** A part's value per group as a column: counts int, sums float, values in their own type. */
function asColumn(v: PartValue): Column {
  if (v instanceof Int32Array) return { type: 'int', data: v }
  if (v instanceof Float64Array) return { type: 'float', data: v }
  return v
}
