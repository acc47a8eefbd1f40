/**
 * `<tabu>`: one row per distinct combination of the break values, one column per `<tcol>`
 * summary. With `cbreaks`, a cross-tabulation: the row totals (t0…) then one column per
 * combination of column-break values (m0, m1…), cells without rows N/A.
 *
 * When every summary accumulates (its SummaryDef's `accumulates`), the groups and summaries come
 * from the one evaluator of grouped summaries (tabu-groups.ts), which a split run's ranges use
 * too; otherwise each summary's whole-column kernel runs over group ids.
 */
import type { BreakSpec, Op, OpOf, Tcol } from '../../ast.js'
import { gather, groupBy, type SortKey } from '../../columns/index.js'
import { NA_BIGINT, NA_INT, type Column, type GroupIndex } from '../../columns/types.js'
import { settled } from '../../summaries/fold.js'
import { accumulationOf, accumulatorOf, lookupSummary } from '../../summaries/index.js'
import { checkError } from '../../check/errors.js'
import { evalColumn } from '../eval-column.js'
import { newColumn, Worksheet, type WsColumn } from '../worksheet.js'
import { groupOrder, groupOrderKeys } from './group-order.js'
import { infoPatch } from './simple.js'
import { groupStates } from './tabu-groups.js'
import { distinctSource } from './tabu-shift.js'

/** A tabulation's groups before ordering: one row per group in every column. */
export interface Tabulated {
  readonly count: number
  /** One column per break: each group's break values. */
  readonly values: Column[]
  /** One column per tcol. */
  readonly summaries: Column[]
  /** The groups in output order, as group-order.ts defines it (null: as they are). */
  readonly order: Int32Array | null
}

/** First row of each group; stops as soon as every group has been seen (usually early). */
function firstRows(g: GroupIndex): Int32Array {
  const rows = new Int32Array(g.count).fill(-1)
  const ids = g.ids
  let found = 0
  for (let i = 0; i < ids.length && found < g.count; i++) {
    const id = ids[i]
    if (id >= 0 && rows[id] < 0) {
      rows[id] = i
      found++
    }
  }
  return rows
}

export function groupsOf(names: readonly string[], ws: Worksheet, op: Op): { groups: GroupIndex; values: Column[] } {
  const cols = names.map((n) => {
    const c = ws.column(n)
    if (!c) throw checkError(op.loc, `Unknown column "${n}" in <tabu>.`)
    return c.data()
  })
  const groups = cols.length > 0 ? groupBy(cols, ws.rows, null) : { ids: new Int32Array(ws.rows), count: 1 }
  const first = firstRows(groups)
  return { groups, values: cols.map((c) => gather(c, first)) }
}

/** A tcol's summary over any grouping of `ws`'s rows, its source and weight evaluated once. */
export function summaryOver(t: Tcol, ws: Worksheet): (groups: GroupIndex) => Column {
  const def = lookupSummary(t.fun)
  if (!def) throw checkError(t.loc, `Unknown summary fun="${t.fun}".`)
  // ucnt of x+k is ucnt of x, without making x+k (tabu-shift.ts); the other general summaries read x+k itself.
  const unshifted = def.name === 'ucnt' && t.source !== null && t.weight === null ? distinctSource(t.source, ws) : null
  const source = unshifted !== null ? unshifted.data() : t.source ? evalColumn(t.source, ws) : null
  const weight = t.weight ? evalColumn(t.weight, ws) : null
  return (groups) => def.kernel({ groups, source, weight })
}

const summarise = (t: Tcol, groups: GroupIndex, ws: Worksheet): Column => summaryOver(t, ws)(groups)

export function breakColumns(op: OpOf<'Tabu'>, ws: Worksheet, values: readonly Column[]): WsColumn[] {
  return op.breaks.map((b, i) => {
    const spec = op.breakSpecs.find((s) => s.col === b)
    const src = ws.column(b)!
    return newColumn(spec?.rename ?? b, values[i], { ...src.info, label: spec?.relabel ?? src.info.label, fixed: true })
  })
}

export const tcolColumn = (t: Tcol, name: string, data: Column, label?: string): WsColumn =>
  newColumn(name, data, { ...infoPatch(t.meta), ...(label !== undefined && !t.meta.label ? { label } : {}) })

export function reorder(cols: WsColumn[], order: Int32Array | null, rows: number): Worksheet {
  const ws = new Worksheet(rows, cols)
  return order ? ws.selectRows(order) : ws
}

/**
 * How a tabulation orders its groups: `sorted`, in the order its breaks ask for; `deferred`, as
 * they come, with the keys of the order its breaks ask for beside them (a sort that reads the
 * groups next ends with those keys instead, tabulateForSorts).
 */
type Ordering = 'sorted' | 'deferred'

/** A tabulation whose `order` is left to `tieKeys` when its ordering was deferred (else none). */
type OrderedTabulation = Tabulated & { readonly tieKeys: SortKey[] }

/** The groups' order, or the keys of it when the ordering is deferred. */
function ordered(t: Omit<Tabulated, 'order'>, op: OpOf<'Tabu'>, ordering: Ordering): OrderedTabulation {
  if (ordering === 'deferred') return { ...t, order: null, tieKeys: groupOrderKeys(op.breaks, t.values, op.breakSpecs) }
  return { ...t, order: groupOrder(op.breaks, t.values, op.breakSpecs, t.count), tieKeys: [] }
}

/** Group ids for every row, then each summary's kernel over them: any breaks, any summaries. */
function generalTabu(op: OpOf<'Tabu'>, ws: Worksheet, ordering: Ordering): OrderedTabulation {
  const { groups, values } = groupsOf(op.breaks, ws, op)
  const summaries = op.tcols.map((t) => summarise(t, groups, ws))
  return ordered({ count: groups.count, values, summaries }, op, ordering)
}

/**
 * Summaries that all accumulate, through the one evaluator of grouped summaries (tabu-groups.ts,
 * which also serves a split run's ranges); null when one does not.
 */
function accumulatedTabu(op: OpOf<'Tabu'>, ws: Worksheet, slots: boolean, ordering: Ordering): OrderedTabulation | null {
  const names = op.tcols.map(accumulatorOf)
  if (!names.every((n) => n !== null)) return null
  const how = names.map((n) => accumulationOf(n!))
  const spec = op.breaks.length === 1 ? op.breakSpecs.find((b) => b.col === op.breaks[0]) : undefined
  const sorted = spec !== undefined && spec.sort !== 'none'
  const g = groupStates(
    ws,
    {
      breaks: op.breaks,
      mask: null,
      alwaysOneGroup: true,
      starts: Int32Array.of(0, ws.rows),
      order: sorted ? 'any' : 'appearance',
      unknownColumn: (n) => checkError(op.loc, `Unknown column "${n}" in <tabu>.`),
      slots,
    },
    op.tcols.map((t, i) => ({ accumulates: how[i], source: t.source, weight: t.weight })),
  )
  const summaries = g.states.map((parts, i) => how[i].finish(parts.map(settled)))
  // Groups in slot order are put in the order asked for without sorting: nothing to defer.
  if (g.slotOrder !== null) return { count: g.count, values: g.keys, summaries, order: keyOrder(spec!, g.slotOrder.naFirst, g.count), tieKeys: [] }
  return ordered({ count: g.count, values: g.keys, summaries }, op, ordering)
}

/**
 * The order a sorting break asks for (group-order.ts: N/A where naorder puts it, in either
 * direction), read off groups that are in slot order (N/A, then keys ascending) instead of sorted
 * again. Null when that is the slot order itself, the usual case.
 */
function keyOrder(spec: BreakSpec, naFirst: boolean, n: number): Int32Array | null {
  const desc = spec.sort === 'down'
  const naLast = naFirst && spec.naorder === 'last'
  if (!desc && !naLast) return null
  const out = new Int32Array(n)
  let p = 0
  if (naFirst && !naLast) out[p++] = 0
  const first = naFirst ? 1 : 0
  if (desc) for (let g = n - 1; g >= first; g--) out[p++] = g
  else for (let g = first; g < n; g++) out[p++] = g
  if (naLast) out[p] = 0
  return out
}

/**
 * A tabulation without a rollup (run.ts sends those to tabu-rollup.ts, which builds on this file).
 * @param slots false forces the general group-by (tests compare the two)
 */
export function runTabu(op: OpOf<'Tabu'>, ws: Worksheet, slots = true): Worksheet {
  if (op.cbreaks.length > 0) return runCrossTab(op, ws)
  return tabulationWorksheet(op, ws, accumulatedTabu(op, ws, slots, 'sorted') ?? generalTabu(op, ws, 'sorted'))
}

/**
 * A tabulation (no cbreaks, no rollup) that a run of sorts reads next: its groups as they come,
 * and the keys of the order its breaks ask for, which that sort ends with (simple.ts runSorts).
 * Sorted by those keys, then by the sorts', the groups come out as they would from sorting them
 * once for the tabulation and again for the sorts (ties kept in order each time), without the
 * first sort of every group, often millions of them, nor the gathers that read through it.
 */
export function tabulateForSorts(op: OpOf<'Tabu'>, ws: Worksheet): { ws: Worksheet; tieKeys: SortKey[] } {
  const t = accumulatedTabu(op, ws, true, 'deferred') ?? generalTabu(op, ws, 'deferred')
  return { ws: tabulationWorksheet(op, ws, t), tieKeys: t.tieKeys }
}

/**
 * The tabulation's worksheet from its groups, however they were computed (general path, slot
 * fast path, or merged from a split run's partials, parallel/finish.ts): break columns named and
 * labelled as `ws` has them, then one column per tcol, groups in `t.order`.
 */
export function tabulationWorksheet(op: OpOf<'Tabu'>, ws: Worksheet, t: Tabulated): Worksheet {
  const tcols = op.tcols.map((tc, i) => tcolColumn(tc, tc.name ?? `t${i}`, t.summaries[i]))
  return reorder([...breakColumns(op, ws, t.values), ...tcols], t.order, t.count)
}

/** Marks cells of empty (row, column) combinations N/A. */
function blankEmpty(col: Column, counts: Int32Array): Column {
  if (col.type === 'float') return { type: col.type, data: col.data.map((v, i) => (counts[i] === 0 ? Number.NaN : v)) }
  if (col.type === 'bigint') return { type: col.type, data: col.data.map((v, i) => (counts[i] === 0 ? NA_BIGINT : v)) }
  if (col.type === 'text') return { ...col, codes: col.codes.map((v, i) => (counts[i] === 0 ? 0 : v)) }
  return { type: col.type, data: col.data.map((v, i) => (counts[i] === 0 ? NA_INT : v)) }
}

function displayValue(col: Column, row: number): string {
  if (col.type === 'text') return col.dict[col.codes[row]]
  if (col.type === 'bigint') return col.data[row] === NA_BIGINT ? '' : String(col.data[row])
  const v = col.data[row]
  return v === NA_INT || v !== v ? '' : String(v)
}

function runCrossTab(op: OpOf<'Tabu'>, ws: Worksheet): Worksheet {
  const rowSide = groupsOf(op.breaks, ws, op)
  const colSide = groupsOf(op.cbreaks, ws, op)
  const colOrder =
    groupOrder(op.cbreaks, colSide.values, op.breakSpecs, colSide.groups.count, 'up') ?? Int32Array.from({ length: colSide.groups.count }, (_, i) => i)
  const nc = colSide.groups.count
  const cellIds = new Int32Array(ws.rows)
  for (let i = 0; i < ws.rows; i++) cellIds[i] = rowSide.groups.ids[i] * nc + colSide.groups.ids[i]
  const cells: GroupIndex = { ids: cellIds, count: rowSide.groups.count * nc }
  const counts = new Int32Array(cells.count)
  for (let i = 0; i < ws.rows; i++) counts[cellIds[i]]++
  const totals = op.tcols.map((t, i) => tcolColumn(t, op.tcols.length === 1 ? 't0' : `t${i}`, summarise(t, rowSide.groups, ws)))
  const cellValues = op.tcols.map((t) => blankEmpty(summarise(t, cells, ws), counts))
  const matrix: WsColumn[] = []
  colOrder.forEach((cg) => {
    const label = colSide.values.map((v) => displayValue(v, cg)).join(' ')
    const pick = Int32Array.from({ length: rowSide.groups.count }, (_, r) => r * nc + cg)
    op.tcols.forEach((t, k) =>
      matrix.push(tcolColumn(t, `m${matrix.length}`, gather(cellValues[k], pick), op.tcols.length === 1 ? label : `${label} ${t.meta.label ?? t.fun}`)),
    )
  })
  const order = groupOrder(op.breaks, rowSide.values, op.breakSpecs, rowSide.groups.count)
  return reorder([...breakColumns(op, ws, rowSide.values), ...totals, ...matrix], order, rowSide.groups.count)
}
