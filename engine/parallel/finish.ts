/**
 * The end of a parallel run: the parts' rows put one after the other (on the gateway: a copy of
 * rows, no interpreting), or the merged groups made into the tabulation a run on one worker gives
 * (same columns, same group order), with the operations after it run on that (in a merge task on
 * a worker, merge-task.ts).
 */
import { AppError } from '../../shared/errors.js'
import type { CodedResultSet, PlainColumn, ResultColumn, ResultSet, RunTask, TableInput } from '../../shared/protocol.js'
import type { RowRange } from './blocks.js'
import { groupOrder, groupOrderKeys } from '../interpret/ops/group-order.js'
import { tabulationWorksheet } from '../interpret/ops/tabu.js'
import { runOps, runSortRun, sortRunEnd, type Tables } from '../interpret/run.js'
import type { Worksheet } from '../interpret/worksheet.js'
import type { MergedGroups } from './merge.js'
import type { ParallelPlan } from './plan.js'
import { prefixWorksheet } from './part.js'
import { emptyTables } from './range-worksheet.js'
import { isCoded, toCodedResultSet } from './wire.js'
import { dictionaryOf } from '../columns/shared-dictionary.js'

/** Column `k` of the base table over base rows start … start+rows-1, viewed in place (text as its codes). */
function storedColumn(table: TableInput, k: number, start: number, rows: number): ResultColumn {
  const c = table.columns[k]
  if (c.spec.type === 'float') return { kind: 'float', data: new Float64Array(c.buffer, start * 8, rows) }
  if (c.spec.type === 'bigint') return { kind: 'bigint', data: new BigInt64Array(c.buffer, start * 8, rows) }
  const codes = new Int32Array(c.buffer, start * 4, rows)
  return c.spec.type === 'text' ? { kind: 'coded', codes, dict: dictionaryOf(c) } : { kind: 'int', data: codes }
}

/** The stored column every part marks at `c`, or null when the parts differ or carry data. */
function storedEverywhere(sets: readonly ResultSet[], c: number): number | null {
  const first = sets[0] as CodedResultSet
  const k = first.stored?.[c] ?? null
  return k !== null && sets.every((s) => (s as CodedResultSet).stored?.[c] === k) ? k : null
}

/** A column of a part's rows that is not coded text (those go through concatCoded). */
function plain(c: ResultColumn): PlainColumn {
  if (c.kind === 'coded') throw new Error('parallel concat: a coded text column without its dictionary')
  return c
}

function concatColumn(sets: readonly ResultSet[], c: number, rows: number): ResultColumn {
  if (sets.every(isCoded) && sets[0].dicts[c] !== null) return concatCoded(sets, c, rows)
  const parts = sets.map((s) => plain(s.columns[c]))
  const kind = parts[0].kind
  if (kind === 'text') {
    const all = (parts[0].data as string[]).concat(...parts.slice(1).map((p) => p.data as string[]))
    return { kind, data: all.length > rows ? all.slice(0, rows) : all }
  }
  const arrays = parts.map((p) => p.data as Int32Array | Float64Array | BigInt64Array)
  const out = kind === 'float' ? new Float64Array(rows) : kind === 'bigint' ? new BigInt64Array(rows) : new Int32Array(rows)
  let at = 0
  for (const a of arrays) {
    if (at >= rows) break
    const take = Math.min(a.length, rows - at)
    out.set((take === a.length ? a : a.subarray(0, take)) as never, at)
    at += take
  }
  return { kind, data: out } as ResultColumn
}

/**
 * Coded text column c of each part in turn, still coded. Parts reading the same dictionary (a
 * base or linked column) have equal ones and their codes are copied as they are; otherwise each
 * part's codes are renumbered into one dictionary of every part's strings.
 */
function concatCoded(sets: readonly CodedResultSet[], c: number, rows: number): ResultColumn {
  const first = sets[0].dicts[c]!
  const same = sets.every((s) => sameStrings(s.dicts[c]!, first))
  const dict: string[] = same ? [...first] : []
  const numbers = new Map<string, number>()
  const codes = new Int32Array(rows)
  let at = 0
  for (const s of sets) {
    const part = (s.columns[c] as { data: Int32Array }).data
    const take = Math.min(part.length, rows - at)
    if (same) codes.set(part.subarray(0, take), at)
    else {
      const renumber = s.dicts[c]!.map((text) => {
        let n = numbers.get(text)
        if (n === undefined) numbers.set(text, (n = dict.push(text) - 1))
        return n
      })
      for (let i = 0; i < take; i++) codes[at + i] = renumber[part[i]]
    }
    at += take
  }
  return { kind: 'coded', codes, dict }
}

/** Where a part wrote its rows in a shared output buffer, and how many of them the answer keeps. */
interface Placement {
  readonly from: number
  readonly count: number
}

/**
 * Each part's rows in the output buffers: written at its range's place, and kept up to the
 * answer's row limit, in range order.
 */
function placements(sets: readonly ResultSet[], ranges: readonly RowRange[], rows: number): Placement[] {
  let kept = 0
  return sets.map((s, p) => {
    const count = Math.max(0, Math.min(s.rowCount, rows - kept))
    kept += count
    return { from: ranges[p].start - ranges[0].start, count }
  })
}

/**
 * The parts' rows of a buffer moved down to follow one another. A part that keeps every row of its
 * range is already in place; one whose selection left rows out leaves a gap, closed here by a move
 * within the buffer (no new memory, and only the rows after the first gap move).
 */
function closeGaps(data: Int32Array | Float64Array | BigInt64Array, placed: readonly Placement[]): void {
  let at = 0
  for (const { from, count } of placed) {
    if (count > 0 && from !== at) data.copyWithin(at, from, from + count)
    at += count
  }
}

/** The answer's rows of a buffer: a view when they fill most of it, else a copy, so the buffer can go. */
function answerRows<T extends Int32Array | Float64Array | BigInt64Array>(data: T, rows: number): T {
  return (rows * 2 >= data.length ? data.subarray(0, rows) : data.slice(0, rows)) as T
}

/**
 * A text column the parts wrote as codes into one shared buffer, each at its range's place: the
 * codes are used as they are when every part used the same dictionary, else each part's rows are
 * renumbered into one dictionary in place; then the gaps are closed.
 */
function writtenText(sets: readonly CodedResultSet[], c: number, codes: Int32Array, placed: readonly Placement[], rows: number): ResultColumn {
  const first = sets[0].dicts[c]!
  let dict: readonly string[] = first
  if (!sets.every((s) => sameStrings(s.dicts[c]!, first))) {
    const union: string[] = []
    const numbers = new Map<string, number>()
    sets.forEach((s, p) => {
      const renumber = s.dicts[c]!.map((text) => {
        let n = numbers.get(text)
        if (n === undefined) numbers.set(text, (n = union.push(text) - 1))
        return n
      })
      const { from, count } = placed[p]
      for (let i = from; i < from + count; i++) codes[i] = renumber[codes[i]]
    })
    dict = union
  }
  closeGaps(codes, placed)
  return { kind: 'coded', codes: answerRows(codes, rows), dict }
}

export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export interface ConcatOptions {
  readonly maxRows: number
  readonly truncate: boolean
  /** The base table and the parts' ranges, for the columns parts mark as stored. */
  readonly table: TableInput
  readonly ranges: readonly RowRange[]
  /** The buffers the parts wrote columns into (RunPart.output), if any. */
  readonly output?: readonly (SharedArrayBuffer | null)[]
}

/**
 * The parts' rows in range order (text kept as codes; unchanged base columns viewed in the shared
 * table, not copied), under the query's row limit. Parts run with `truncate`, so each says how
 * many rows it had in all; the limit applies to their sum, as to a run on one worker.
 */
export function concatResults(sets: readonly ResultSet[], o: ConcatOptions): ResultSet {
  const total = sets.reduce((n, s) => n + (s.totalRows ?? s.rowCount), 0)
  const { maxRows } = o
  if (total > maxRows && !o.truncate) {
    throw new AppError('RESULT_TOO_LARGE', `The result has ${total} rows, more than ${maxRows} (MAX_RESULT_ROWS); select fewer rows or tabulate.`, {
      rows: total,
      maxRows,
    })
  }
  const rows = Math.min(total, maxRows)
  const start = o.ranges[0]?.start ?? 0
  const cols = sets[0].cols
  // A single part's answer goes on as it came, text as codes, only its stored columns viewed.
  if (sets.length === 1 && isCoded(sets[0])) {
    const only = sets[0]
    const columns = only.columns.map((col, c) => {
      const k = only.stored?.[c] ?? null
      return k === null ? col : storedColumn(o.table, k, start, rows)
    })
    const { stored: _stored, written: _written, ...rest } = only
    return { ...rest, columns }
  }
  const placed = placements(sets, o.ranges, rows)
  const columns = cols.map((col, c): ResultColumn => {
    const out = o.output?.[c]
    if (out != null && sets.every((s) => (s as CodedResultSet).written?.[c] === true)) {
      if (col.logical === 'text') return writtenText(sets as readonly CodedResultSet[], c, new Int32Array(out), placed, rows)
      if (col.logical === 'float' || col.logical === 'bigint') {
        const data = col.logical === 'float' ? new Float64Array(out) : new BigInt64Array(out)
        closeGaps(data, placed)
        return data instanceof Float64Array ? { kind: 'float', data: answerRows(data, rows) } : { kind: 'bigint', data: answerRows(data, rows) }
      }
      const data = new Int32Array(out)
      closeGaps(data, placed)
      return { kind: 'int', data: answerRows(data, rows) }
    }
    const k = storedEverywhere(sets, c)
    return k === null ? concatColumn(sets, c, rows) : storedColumn(o.table, k, start, rows)
  })
  return total > maxRows ? { cols, columns, rowCount: rows, totalRows: total } : { cols, columns, rowCount: rows }
}

/**
 * The tabulation from its merged groups, then the operations after it, answered as a run of the
 * whole query on one worker answers (text as codes).
 */
export function finishTabu(plan: ParallelPlan, merged: MergedGroups, tables: Tables, groupValues: readonly ResultSet[], task: RunTask): ResultSet {
  if (plan.tail.kind !== 'tabu') throw new Error('finishTabu: the plan has no tabulation')
  const op = plan.tail.op
  // The prefix over no rows: the worksheet's columns as the tabulation saw them.
  const shape = prefixWorksheet(plan, emptyTables(tables), { start: 0, end: 0 }, plan.prefix.length, groupValues)
  const rest = plan.tail.rest
  const groups = { count: merged.count, values: merged.keys, summaries: merged.values }
  const sortsEnd = sortRunEnd(rest, 0)
  let done: Worksheet
  if (sortsEnd > 0) {
    // Sorts read the groups next: they end with the keys of the tabulation's order instead of
    // the groups being put in that order first (as interpret/run.ts does on one worker).
    const ws = tabulationWorksheet(op, shape, { ...groups, order: null })
    const sorted = runSortRun(rest, 0, sortsEnd, ws, groupOrderKeys(op.breaks, merged.keys, op.breakSpecs))
    done = runOps(rest.slice(sortsEnd), tables, sorted)
  } else {
    const order = groupOrder(op.breaks, merged.keys, op.breakSpecs, merged.count)
    done = runOps(rest, tables, tabulationWorksheet(op, shape, { ...groups, order }))
  }
  return toCodedResultSet(done, task.maxRows, task.truncate === true)
}
