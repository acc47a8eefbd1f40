/**
 * The worker side of one part: the plan's prefix over a row range, answered as rows or as
 * per-group partials, with the merged values of earlier group steps put in place of their g_
 * functions.
 */
import type { ResultSet, RunPart, RunTask } from '../../shared/protocol.js'
import type { OpOf } from '../ast.js'
import { gather, rowsOfPartition } from '../columns/index.js'
import { slotLimit, slotsOfColumn } from '../columns/key-slots.js'
import { NA_INT, type Column } from '../columns/types.js'
import { checkError } from '../check/errors.js'
import { evalExpr, selectionMask } from '../interpret/eval.js'
import { infoPatch } from '../interpret/ops/simple.js'
import { reportSteps, type Tables } from '../interpret/run.js'
import { newColumn, type Worksheet, type WsColumn } from '../interpret/worksheet.js'
import { groupsOf, keyName, partials, valueName } from './aggregate.js'
import { splitDeclined } from '../task/outcome.js'
import { blockEdges } from './blocks.js'
import { decodeColumns, encodeColumns } from './codec.js'
import { numberTogether } from './merge.js'
import { batchEnd, batchStart, keepsRows, summarises, type GroupStep, type ParallelPlan } from './plan.js'
import { BASE_ROW, blockStarts, mergeStep, prefixStep, rangeWorksheet, storedPosition, withoutBaseRows } from './range-worksheet.js'
import { toCodedResultSet } from './wire.js'

export const tablesOf = (task: RunTask): Tables => new Map(task.tables.map((t) => [t.path, t]))

function selection(step: GroupStep, ws: Worksheet): Uint8Array | null {
  return step.select === null ? null : selectionMask(evalExpr(step.select, ws), ws.rows, step.fun)
}

/**
 * Where each of `mine` key tuples is among the merged groups' (-1 when absent): both numbered
 * together, merged groups first, so a tuple numbered below their count is that merged group.
 */
function findInMerged(merged: readonly Column[], count: number, mine: readonly Column[], rows: number): Int32Array {
  const { ids } = numberTogether(
    [merged, mine],
    [count, rows],
    merged.map((c) => c.type),
  )
  const found = new Int32Array(rows)
  const at = ids[1]
  for (let g = 0; g < rows; g++) found[g] = at[g] < count ? at[g] : -1
  return found
}

/** For each worksheet row, its group's row in the merged groups (-1 for rows S leaves out). */
function mergedRowOfEachRow(ws: Worksheet, step: GroupStep, merged: readonly Column[], count: number): Int32Array {
  const rows = new Int32Array(ws.rows)
  // One int key and no S: each key's slot looked up once, no group ids to build.
  const key = step.keys.length === 1 && step.select === null ? ws.column(step.keys[0])?.data() : undefined
  const slots = key === undefined ? null : slotsOfColumn(key, ws.rows, slotLimit(ws.rows))
  if (slots !== null) {
    const off = 1 - slots.min
    const slotKeys = new Int32Array(slots.width)
    for (let i = 0; i < slots.width; i++) slotKeys[i] = i === 0 ? NA_INT : i - off
    const toMerged = findInMerged(merged, count, [{ type: merged[0].type as 'int' | 'date', data: slotKeys }], slots.width)
    const keys = slots.keys
    for (let r = 0; r < rows.length; r++) {
      const k = keys[r]
      rows[r] = toMerged[k === NA_INT ? 0 : k + off]
    }
    return rows
  }
  const { groups, keyCols, first } = groupsOf(ws, step.keys, selection(step, ws))
  const toMerged = findInMerged(
    merged,
    count,
    keyCols.map((c) => gather(c, first)),
    groups.count,
  )
  const ids = groups.ids
  for (let r = 0; r < rows.length; r++) rows[r] = ids[r] < 0 ? -1 : toMerged[ids[r]]
  return rows
}

/** The worksheet with a new column, placed before the hidden base-row column, which stays last. */
function withColumn(ws: Worksheet, column: WsColumn): Worksheet {
  const mark = ws.column(BASE_ROW)
  return ws.withColumns([...ws.cols.filter((c) => c !== mark), column, ...(mark ? [mark] : [])])
}

/** A batch's merged values as applied to a worksheet: read once, and each row's group found once. */
interface Applied {
  readonly merged: ResultSet
  readonly byName: ReadonlyMap<string, Column>
  readonly rows: Int32Array
}

/**
 * The g_ willbe of a group step, its value per row read from the merged groups (column `j` of its
 * batch's). `before` is the application of the step before it on this worksheet: when that was of
 * the same batch (the same merged answer), each row's group is known already.
 */
function applyGroupValues(
  op: OpOf<'Willbe'>,
  step: GroupStep,
  j: number,
  ws: Worksheet,
  merged: ResultSet,
  before: Applied | null,
): { ws: Worksheet; applied: Applied } {
  if (ws.column(op.name)) throw checkError(op.loc, `A column named "${op.name}" already exists; choose another name.`)
  let applied = before
  if (applied === null || applied.merged !== merged) {
    const byName = decodeColumns(merged)
    const keys = step.keys.map((_, i) => byName.get(keyName(i))!)
    applied = { merged, byName, rows: mergedRowOfEachRow(ws, step, keys, merged.rowCount) }
  }
  const column = newColumn(op.name, gather(applied.byName.get(valueName(j))!, applied.rows), infoPatch(op.meta))
  return { ws: withColumn(ws, column), applied }
}

/**
 * Base row numbers are carried when a selection may leave rows out of the blocks, and when the
 * values of partition steps are read by base row.
 */
const carriesBaseRows = (plan: ParallelPlan): boolean => (summarises(plan) && !keepsRows(plan)) || plan.partitionSteps.length > 0

/** A partition step's willbe, its value on each row read from the shared column by base row. */
function applyPartitionValues(op: OpOf<'Willbe'>, ws: Worksheet, values: ResultSet): Worksheet {
  if (ws.column(op.name)) throw checkError(op.loc, `A column named "${op.name}" already exists; choose another name.`)
  const rows = (ws.column(BASE_ROW)!.data() as { data: Int32Array }).data
  const column = newColumn(op.name, gather(decodeColumns(values).get(valueName(0))!, rows), infoPatch(op.meta))
  return withColumn(ws, column)
}

/**
 * The rows of a partition: those whose group keys fall to it, in order. The keys must be columns
 * of the base table, since the partitions are made before any operation runs.
 */
function partitionRows(ws: Worksheet, keys: readonly string[], index: number, count: number): Int32Array {
  const cols = keys.map((k) => {
    const c = ws.column(k.toLowerCase())
    if (c === undefined) throw splitDeclined(`the groups of a g_ function are not columns of the table (${k})`)
    return c.data()
  })
  return rowsOfPartition(cols, ws.rows, index, count)
}

/**
 * A 'values' task: the whole base table's rows of one partition through the prefix up to the
 * partition step's willbe, whose values are written into the shared column at their base rows.
 * Answers the text dictionary of those values (the driver checks that every partition has the same).
 */
function runValues(task: RunTask, plan: ParallelPlan, part: RunPart): ResultSet {
  const step = plan.partitionSteps[part.step!]
  const op = plan.prefix[step.at] as OpOf<'Willbe'>
  const tables = tablesOf(task)
  const { index, count } = part.partition!
  let ws = rangeWorksheet(tables, plan.table, part.start, part.end, true)
  if (count > 1) ws = ws.selectRows(partitionRows(ws, step.keys, index, count))
  ws = prefixWorksheet(plan, tables, part, step.at + 1, part.groupValues ?? [], { upTo: 0, ws, values: [] })
  const values = ws.column(op.name)!.data()
  const rows = (ws.column(BASE_ROW)!.data() as { data: Int32Array }).data
  const buffer = part.output![0]!
  if (values.type === 'float') {
    const out = new Float64Array(buffer)
    for (let i = 0; i < rows.length; i++) out[rows[i]] = values.data[i]
  } else if (values.type === 'bigint') {
    const out = new BigInt64Array(buffer)
    for (let i = 0; i < rows.length; i++) out[rows[i]] = values.data[i]
  } else {
    const out = new Int32Array(buffer)
    const data = values.type === 'text' ? values.codes : values.data
    for (let i = 0; i < rows.length; i++) out[rows[i]] = data[i]
  }
  const dict = values.type === 'text' ? values.dict : ['']
  return encodeColumns([{ name: 'dict', column: { type: 'text', codes: Int32Array.from(dict, (_, c) => c), dict } }], dict.length)
}

const NO_ROWS = { start: 0, end: 0 }

/**
 * The part's worksheet after the prefix's first `upTo` operations. A part of the merge's foreign
 * table starts from no base rows and takes its range at the merge; a base part merges none.
 * @param groupValues merged values of the group steps met on the way
 * @param from a worksheet of this range after the first `from.upTo` operations, to go on from
 */
export function prefixWorksheet(
  plan: ParallelPlan,
  tables: Tables,
  range: { start: number; end: number; foreign?: boolean },
  upTo: number,
  groupValues: readonly ResultSet[],
  from: KeptPrefix | null = null,
): Worksheet {
  const base = range.foreign === true ? NO_ROWS : range
  const foreign = range.foreign === true ? range : NO_ROWS
  let ws = from?.ws ?? rangeWorksheet(tables, plan.table, base.start, base.end, carriesBaseRows(plan))
  let applied: Applied | null = null
  for (let i = from?.upTo ?? 0; i < upTo; i++) {
    const op = plan.prefix[i]
    const k = plan.groupSteps.findIndex((s) => s.at === i)
    const p = plan.partitionSteps.findIndex((s) => s.at === i)
    if (k >= 0) {
      const j = k - batchStart(plan, k)
      ;({ ws, applied } = applyGroupValues(op as OpOf<'Willbe'>, plan.groupSteps[k], j, ws, groupValues[k], applied))
    } else if (p >= 0 && p < groupValues.length) ws = applyPartitionValues(op as OpOf<'Willbe'>, ws, groupValues[p])
    else if (plan.merge?.at === i) ws = mergeStep(op as OpOf<'Merge'>, ws, tables, foreign)
    else ws = prefixStep(op, ws, tables)
    reportSteps(i + 1, upTo + 1)
  }
  return ws
}

/** A range's prefix worksheet after `upTo` operations, kept for the query's next phase. */
interface KeptPrefix {
  readonly upTo: number
  readonly ws: Worksheet
  /** The group values it was made with (the merged answers of one run, by identity). */
  readonly values: readonly ResultSet[]
}

/**
 * Per query (its operations array) and range start, the last prefix worksheet this thread made.
 * A query stepped in place on one worker (engine/task/execute.ts) runs its phases here one after another
 * with the same operations array, so each phase goes on from where the one before stopped
 * instead of redoing the prefix and every group step applied so far: `g_sum` then `g_cnt` then a
 * tabulation applied the first group step's values twice. Tasks sent by the gateway arrive as
 * copies, never find an entry, and let theirs go with the task.
 */
const keptPrefixes = new WeakMap<object, Map<string, KeptPrefix>>()

function partWorksheet(task: RunTask, plan: ParallelPlan, part: RunPart, upTo: number, groupValues: readonly ResultSet[]): Worksheet {
  const kept = keptPrefixes.get(task.ops) ?? new Map<string, KeptPrefix>()
  keptPrefixes.set(task.ops, kept)
  const range = `${part.foreign === true ? 'foreign ' : ''}${part.start}:${part.end}`
  const before = kept.get(range)
  // Going on is sound when the kept worksheet stops at or before this phase's point and was made
  // in this run: with the very merged values this phase has for the steps it applied.
  const from = before !== undefined && before.upTo <= upTo && before.values.every((v, i) => groupValues[i] === v) ? before : null
  const ws = prefixWorksheet(plan, tablesOf(task), part, upTo, groupValues, from)
  kept.set(range, { upTo, ws, values: groupValues.slice(0, plan.groupSteps.filter((s) => s.at < upTo).length) })
  return ws
}

/** The answer of one part (see RunPart). */
export function executePart(task: RunTask, part: RunPart, plan: ParallelPlan | null): ResultSet {
  if (plan === null) throw new Error('executePart: the query has no parallel plan')
  if (part.phase === 'values') return runValues(task, plan, part)
  const groupValues = part.groupValues ?? []
  const step = part.step ?? plan.groupSteps.length
  const upTo = part.phase === 'partials' && step < plan.groupSteps.length ? plan.groupSteps[step].at : plan.prefix.length
  const ws = partWorksheet(task, plan, part, upTo, groupValues)
  if (part.phase === 'rows') {
    const output = part.output === undefined ? undefined : { buffers: part.output, at: part.outputAt ?? 0 }
    // Writing past the range would overwrite the next part's rows: the prefix never adds rows.
    if (output !== undefined && ws.rows > part.end - part.start) throw new Error('executePart: a part has more rows than its range')
    // A stored column is viewed by the gateway in the base table over the part's range: after a
    // merge, a part's rows may be of the foreign table instead.
    // Nor is it when the part read a window of a table larger than the cache: the gateway does not hold that table.
    const windowed = task.tables.find((t) => t.path === plan.table)?.firstRow !== undefined
    const stored = plan.merge === null && !windowed ? storedPosition : undefined
    return toCodedResultSet(withoutBaseRows(ws), task.maxRows, task.truncate === true, stored, output)
  }
  const edges = blockEdges(part.start, part.end, part.blockRows)
  const starts = ws.column(BASE_ROW) ? blockStarts(ws, edges) : Int32Array.from(edges, (e) => e - part.start)
  let out
  if (step < plan.groupSteps.length) {
    const batch = plan.groupSteps.slice(step, batchEnd(plan, step))
    out = partials(
      ws,
      batch[0].keys,
      selection(batch[0], ws),
      batch.map((s) => s.agg),
      starts,
    )
  } else if (plan.tail.kind === 'tabu') {
    out = partials(ws, plan.tail.op.breaks, null, plan.tail.aggs, starts)
  } else {
    throw new Error('executePart: partials asked of a plan without a tabulation')
  }
  return encodeColumns(out.cols, out.rows)
}
