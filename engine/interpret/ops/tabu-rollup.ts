/**
 * `<tabu>` with `<rollup>`: one block of rows per level (grouping set, op-rollup.ts), each level
 * grouping the worksheet's rows by the breaks it keeps. Every level's summaries run over the rows
 * of its own groups, never by adding up finer groups, so that avg, ucnt, median, first and last
 * are right on subtotal rows too. A rolled-up break shows its placeholder, or N/A.
 *
 * Row order: by the breaks in `breaks` order, each ordered as its `<break sort>` asks (by first
 * appearance of its values when it does not sort), a rolled-up break coming before all of that
 * break's values (after them under a sorting `<break naorder="last">`): so the grand total comes
 * first and each subtotal right before the rows it sums up.
 */
import type { BreakSpec, OpOf, RollupSpec } from '../../ast.js'
import { firstRowOfGroups, gather, groupBy, sortPermutation, unifyTextColumns } from '../../columns/index.js'
import { concatColumns } from '../../columns/concat.js'
import type { Column, GroupIndex } from '../../columns/types.js'
import { Worksheet, newColumn } from '../worksheet.js'
import { groupOrder } from './group-order.js'
import { placeholderValue } from './rollup-placeholder.js'
import { breakColumns, groupsOf, reorder, summaryOver, tcolColumn } from './tabu.js'

type TabuOp = OpOf<'Tabu'>

/** The finest groups (every break kept): the rows' group ids and each group's break values. */
interface Fine {
  readonly groups: GroupIndex
  readonly values: Column[]
}

/** One level's groups: the fine group that stands for each (its kept values), and the summaries. */
interface Level {
  readonly kept: ReadonlySet<number>
  readonly count: number
  readonly rep: Int32Array
  readonly summaries: Column[]
}

/** Where one break's values come in the output order, per fine group, and where "rolled up" comes. */
interface BreakRanks {
  readonly ofFine: Int32Array
  readonly rolledUp: number
}

export function runRollup(op: TabuOp, rollup: RollupSpec, ws: Worksheet): Worksheet {
  const fine: Fine = groupsOf(op.breaks, ws, op)
  const ranks = op.breaks.map((b, i) => breakRanks(b, fine.values[i], fine.groups.count, op.breakSpecs))
  const summaries = op.tcols.map((t) => summaryOver(t, ws))
  const levels = rollup.sets.map((kept) => levelOf(new Set(kept), fine, ws, op.breaks.length, summaries))
  const total = levels.reduce((n, l) => n + l.count, 0)
  const columns = op.breaks.map((b, i) =>
    breakColumn(
      i,
      levels,
      fine.values[i],
      ranks[i],
      op.breakSpecs.find((s) => s.col === b),
    ),
  )
  const values = columns.map((c) => c.shown)
  const tcols = op.tcols.map((tc, k) =>
    tcolColumn(
      tc,
      tc.name ?? `t${k}`,
      concatColumns(
        levels.map((l) => l.summaries[k]),
        levels[0].summaries[k].type,
      ),
    ),
  )
  const ind = rollup.ind === null ? [] : [newColumn(rollup.ind, { type: 'int', data: indicator(levels, op.breaks.length, total) }, { label: rollup.ind })]
  const order = sortPermutation(
    columns.map((c) => ({ col: { type: 'int', data: c.key }, desc: false })),
    total,
  )
  return reorder([...breakColumns(op, ws, values), ...tcols, ...ind], order, total)
}

/**
 * Break `i` on every output row (its placeholder or N/A where a level rolls it up), and the row's
 * sort key for that break (BreakRanks).
 */
function breakColumn(i: number, levels: readonly Level[], values: Column, ranks: BreakRanks, spec: BreakSpec | undefined): { shown: Column; key: Int32Array } {
  const total = levels.reduce((n, l) => n + l.count, 0)
  const at = new Int32Array(total).fill(-1)
  const key = new Int32Array(total).fill(ranks.rolledUp)
  const rolled = new Uint8Array(total).fill(1)
  let row = 0
  for (const l of levels) {
    if (l.kept.has(i)) {
      for (let g = 0; g < l.count; g++) {
        at[row + g] = l.rep[g]
        key[row + g] = ranks.ofFine[l.rep[g]]
        rolled[row + g] = 0
      }
    }
    row += l.count
  }
  const shown = gather(values, at)
  if (!spec?.placeholder) return { shown, key }
  return { shown: withPlaceholder(shown, rolled, placeholderValue({ ...spec, placeholder: spec.placeholder }, shown.type)), key }
}

/**
 * Ranks of one break's values: the order `<break sort>` gives them, or first appearance (the fine
 * groups are numbered by first appearance, so a value's first fine group is its first row's).
 */
function breakRanks(name: string, values: Column, fineCount: number, specs: readonly BreakSpec[]): BreakRanks {
  const distinct = groupBy([values], fineCount)
  const sorted = groupOrder([name], [gather(values, firstRowOfGroups(distinct))], specs, distinct.count)
  const rankOf = new Int32Array(distinct.count)
  for (let k = 0; k < distinct.count; k++) rankOf[sorted === null ? k : sorted[k]] = k
  const ofFine = new Int32Array(fineCount)
  for (let f = 0; f < fineCount; f++) ofFine[f] = rankOf[distinct.ids[f]]
  const spec = specs.find((s) => s.col === name)
  const last = spec !== undefined && spec.sort !== 'none' && spec.naorder === 'last'
  return { ofFine, rolledUp: last ? distinct.count : -1 }
}

/** A level's groups over the worksheet's rows, made from the fine groups (a group-by of their keys). */
function levelOf(kept: ReadonlySet<number>, fine: Fine, ws: Worksheet, breaks: number, summaries: readonly ((groups: GroupIndex) => Column)[]): Level {
  let groups: GroupIndex
  let rep: Int32Array
  if (kept.size === breaks) {
    groups = fine.groups
    rep = Int32Array.from({ length: fine.groups.count }, (_, f) => f)
  } else if (kept.size === 0) {
    // The grand total: one row even over no rows, as <tabu> without breaks has.
    groups = { ids: new Int32Array(ws.rows), count: 1 }
    rep = Int32Array.of(-1)
  } else {
    const ofFine = groupBy(
      [...kept].map((i) => fine.values[i]),
      fine.groups.count,
    )
    const ids = new Int32Array(ws.rows)
    for (let r = 0; r < ws.rows; r++) ids[r] = ofFine.ids[fine.groups.ids[r]]
    groups = { ids, count: ofFine.count }
    rep = firstRowOfGroups(ofFine)
  }
  return { kept, count: groups.count, rep, summaries: summaries.map((summary) => summary(groups)) }
}

/** The `ind` column: bit I-1 set where the I-th break from the last is rolled up (rolledup(X;I)). */
function indicator(levels: readonly Level[], breaks: number, total: number): Int32Array {
  const out = new Int32Array(total)
  let row = 0
  for (const l of levels) {
    let bits = 0
    for (let i = 0; i < breaks; i++) if (!l.kept.has(i)) bits |= 1 << (breaks - 1 - i)
    out.fill(bits, row, row + l.count)
    row += l.count
  }
  return out
}

/** The column with `value` on the rows flagged in `rolled`. */
function withPlaceholder(col: Column, rolled: Uint8Array, value: number | string): Column {
  if (col.type === 'text') {
    // '' is text N/A itself.
    if (value === '') return col
    const [shown, extra] = unifyTextColumns([col, { type: 'text', codes: Int32Array.of(1), dict: ['', String(value)] }])
    const code = extra.codes[0]
    const codes = Int32Array.from(shown.codes, (c, r) => (rolled[r] ? code : c))
    return { type: 'text', codes, dict: shown.dict }
  }
  if (col.type === 'float') return { type: col.type, data: Float64Array.from(col.data, (v, r) => (rolled[r] ? Number(value) : v)) }
  if (col.type === 'bigint') return { type: col.type, data: col.data.map((v, r) => (rolled[r] ? BigInt(value) : v)) }
  return { type: col.type, data: Int32Array.from(col.data, (v, r) => (rolled[r] ? Number(value) : v)) }
}
