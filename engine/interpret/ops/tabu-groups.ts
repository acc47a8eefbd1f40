/**
 * The one evaluator of grouped summaries: the parts (summaries/parts.ts) of accumulating
 * summaries per group of some break columns, over a worksheet's rows. `<tabu>` in the
 * interpreter (tabu.ts) and a split run's partials (parallel/aggregate.ts: a `<tabu>` or a g_
 * function's range) both come here, and this decides which kernel groups the rows: direct key
 * slots for one int or date break (tabu-slots.ts), else a general group-by; either way the same
 * fold loop accumulates the parts (summaries/fold.ts), so both give the same bits.
 */
import { gather, groupBy } from '../../columns/index.js'
import type { Column, ColumnType, GroupIndex } from '../../columns/types.js'
import { edgeRowsOfIds, foldGroups, type PartState } from '../../summaries/fold.js'
import type { Worksheet } from '../worksheet.js'
import { planFolds, type GroupedSummary } from './tabu-folds.js'
import { slotGroups, slotKey } from './tabu-slots.js'

export type { GroupedSummary } from './tabu-folds.js'

export interface Grouping {
  /** The break columns (none: one group). */
  readonly breaks: readonly string[]
  /** 0/1 per row: rows with 0 belong to no group (a g_ function's selection S). */
  readonly mask: Uint8Array | null
  /** One group even over no rows, as a `<tabu>` without breaks has; else none. */
  readonly alwaysOneGroup: boolean
  /**
   * Where each summing block starts among the rows, plus the row count (parallel/blocks.ts): a
   * whole worksheet is one block.
   */
  readonly starts: Int32Array
  /**
   * `appearance`: groups in order of first appearance, as a group-by numbers them; `any`: in
   * key order when that is cheaper (GroupStates.slotOrder says).
   */
  readonly order: 'appearance' | 'any'
  /** The error for a break column the worksheet lacks. */
  readonly unknownColumn: (name: string) => Error
  /** False forces the general group-by (tests compare the two). */
  readonly slots?: boolean
}

export interface GroupStates {
  readonly count: number
  /** One column per break: each group's break values. */
  readonly keys: Column[]
  /** Per summary, per part (Accumulation.parts): its state per group. */
  readonly states: PartState[][]
  /** Set when the groups come in slot order (N/A, then keys ascending); null: first appearance. */
  readonly slotOrder: { readonly naFirst: boolean } | null
  /** Each summary's source type (null: none). */
  readonly sourceTypes: (ColumnType | null)[]
}

export function groupStates(ws: Worksheet, g: Grouping, summaries: readonly GroupedSummary[]): GroupStates {
  const cols = g.breaks.map((b) => {
    const c = ws.column(b)
    if (!c) throw g.unknownColumn(b)
    return c
  })
  // Summaries over one source share its folds, and x+k's read x's (tabu-folds.ts).
  const plan = planFolds(ws, summaries, g.starts)
  const specs = plan.specs
  const sourceTypes = plan.sourceTypes
  const key = cols.length === 1 && g.mask === null && g.slots !== false ? slotKey(cols[0].view()) : null
  if (key !== null) {
    const bySlots = slotGroups(key, ws.rows, specs, g.starts, g.order === 'any' ? 'slots' : 'appearance')
    if (bySlots !== null) return { count: bySlots.count, keys: [bySlots.keys], states: plan.read(bySlots.states), slotOrder: bySlots.slotOrder, sourceTypes }
  }
  const data = cols.map((c) => c.data())
  const found = groupBy(data, ws.rows, g.mask)
  const groups: GroupIndex = g.alwaysOneGroup && data.length === 0 ? { ids: found.ids, count: 1 } : found
  const first = edgeRowsOfIds(groups, false)
  return {
    count: groups.count,
    keys: data.map((c) => gather(c, first)),
    // Without breaks or a mask every row is in the one group: its count needs no pass over the rows.
    states: plan.read(foldGroups(groups, specs, g.starts, g.mask !== null, data.length === 0 && g.mask === null ? Int32Array.of(ws.rows) : undefined)),
    slotOrder: null,
    sourceTypes,
  }
}
