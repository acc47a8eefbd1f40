/**
 * The interpreter: one exhaustive pass over the checked operations, each evaluated over whole
 * columns. A `<link>` or `<merge>` runs its own pipeline on its foreign table first. It takes
 * only what the checker produced (CheckedOps), and so trusts what the checker established
 * (check/checked.ts) instead of asking again.
 */
import type { OpOf } from '../ast.js'
import type { SortKey } from '../columns/index.js'
import type { CheckedOp, CheckedOps } from '../check/index.js'
import { AppError } from '../../shared/errors.js'
import { PROGRESS_SCALE, PROGRESS_SLOTS } from '../../shared/protocol.js'
import { firstRowsKept } from './first-rows.js'
import { inlineColumn } from './inline-table.js'
import { runLink } from './ops/link.js'
import { runMerge } from './ops/merge.js'
import { runCols } from './ops/cols.js'
import { infoPatch, runColMeta, runColord, runSel, runSort, runSorts, runWillbe } from './ops/simple.js'
import { runTabu, tabulateForSorts } from './ops/tabu.js'
import { runRollup } from './ops/tabu-rollup.js'
import { tableWorksheet, type TableInput } from './tables.js'
import { newColumn, Worksheet } from './worksheet.js'

export type Tables = ReadonlyMap<string, TableInput>

const EMPTY = new Worksheet(0, [])

function inlineTable(op: OpOf<'Table'>): Worksheet {
  if (op.depth !== null) return new Worksheet(op.depth, [], op.title)
  const cols = op.cols.map((name, c) =>
    newColumn(
      name,
      inlineColumn(
        op.rows.map((r) => r[c] ?? ''),
        op.types?.[c],
      ),
      infoPatch(op.meta?.[c] ?? {}),
    ),
  )
  return new Worksheet(op.rows.length, cols, op.title)
}

/**
 * The one dispatcher over operation kinds: one operation over a worksheet. Also runs the
 * prefix of a split run (parallel/range-worksheet.ts), so every kind is handled here only.
 * `next`, the operation that follows, lets a sort read by a first-N selection stop at N rows.
 */
export function step(op: CheckedOp, ws: Worksheet, tables: Tables, next?: CheckedOp): Worksheet {
  switch (op.kind) {
    case 'Base':
      return tableWorksheet(tables, op.table, op.loc)
    case 'Table':
      return inlineTable(op)
    case 'Sel':
      return runSel(op, ws)
    case 'Willbe':
      return runWillbe(op, ws)
    case 'Colord':
      return runColord(op, ws)
    case 'ColMeta':
      return runColMeta(op, ws)
    case 'Cols':
      return runCols(op, ws)
    case 'Sort':
      return runSort(op, ws, firstRowsKept(next) ?? undefined)
    case 'Tabu':
      return op.rollup ? runRollup(op, op.rollup, ws) : runTabu(op, ws)
    case 'Link':
      return runLink(op, ws, runOps(op.ops, tables, tableWorksheet(tables, op.table2, op.loc)))
    case 'Merge':
      return runMerge(ws, runOps(op.ops, tables, tableWorksheet(tables, op.table2, op.loc)))
    default: {
      const never: never = op
      throw new AppError('INTERNAL', `Unknown operation ${JSON.stringify(never)}`)
    }
  }
}

/*
 * Progress for `!status`: the cell shared with the gateway (layout in shared/protocol.ts) of the
 * task this thread runs. Module state rather than a parameter because a worker runs one task at
 * a time, synchronously, and the task entry (task.ts) need not know about it; withProgress arms
 * it for one task. It is written once per operation, never per row, so it costs nothing.
 */
let cell: Int32Array | null = null
/** Nesting of runOps: 0 is the query itself, 1 the pipeline of a `<link>`/`<merge>` in it. */
let depth = 0
/** Top-level operations finished so far. */
let finished = 0

/** Runs `work` (one task) reporting into `buffer`, when there is one. */
export function withProgress<T>(buffer: SharedArrayBuffer | undefined, work: () => T): T {
  cell = buffer ? new Int32Array(buffer) : null
  depth = 0
  finished = 0
  try {
    return work()
  } finally {
    cell = null
  }
}

/** Publishes `done` operations (fractional within the current one) in one atomic store. */
function report(done: number): void {
  if (cell) Atomics.store(cell, PROGRESS_SLOTS.done, Math.min(Math.round(done * PROGRESS_SCALE), 0x7fffffff))
}

/**
 * Publishes `done` of `total` steps for a pipeline run outside runOps: the prefix of one part of
 * a split query (engine/parallel), whose steps the gateway averages over the parts.
 */
export function reportSteps(done: number, total: number): void {
  if (!cell) return
  Atomics.store(cell, PROGRESS_SLOTS.total, total)
  report(done)
}

/** Where the run of sorts starting at `i` ends (exclusive): i when ops[i] is no sort. */
export function sortRunEnd(ops: CheckedOps, i: number): number {
  let end = i
  while (end < ops.length && ops[end].kind === 'Sort') end++
  return end
}

/**
 * The sorts ops[from…end) as one sort ending with `tieKeys` (ops/simple.ts runSorts), a top-N
 * when the operation after them keeps only the first rows.
 */
export function runSortRun(ops: CheckedOps, from: number, end: number, ws: Worksheet, tieKeys: readonly SortKey[]): Worksheet {
  return runSorts(ops.slice(from, end) as OpOf<'Sort'>[], ws, firstRowsKept(ops[end]) ?? undefined, tieKeys)
}

/**
 * Runs a pipeline from a starting worksheet (empty for a whole query). The query's operations
 * are the progress steps; a `<link>` or `<merge>` pipeline moves the bar within its one step
 * (its operations plus the join itself), since such a pipeline can hold most of the work.
 */
export function runOps(ops: CheckedOps, tables: Tables, start: Worksheet = EMPTY): Worksheet {
  const level = depth++
  try {
    if (level === 0 && cell) {
      finished = 0
      Atomics.store(cell, PROGRESS_SLOTS.total, ops.length)
    }
    let ws = start
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]
      const sortsFrom = op.kind === 'Tabu' && !op.rollup && op.cbreaks.length === 0 ? i + 1 : i
      const end = sortRunEnd(ops, sortsFrom)
      if (sortsFrom > i && end > sortsFrom) {
        // A tabulation read by sorts leaves its own order to them (tabu.ts tabulateForSorts).
        const t = tabulateForSorts(op as OpOf<'Tabu'>, ws)
        ws = runSortRun(ops, sortsFrom, end, t.ws, t.tieKeys)
        i = end - 1
      } else if (end > i + 1) {
        // Consecutive sorts run as one (runSorts), and count as the operations they are.
        ws = runSortRun(ops, i, end, ws, [])
        i = end - 1
      } else ws = step(op, ws, tables, ops[i + 1])
      if (level === 0) {
        finished = i + 1
        report(finished)
      } else if (level === 1) {
        report(finished + (i + 1) / (ops.length + 1))
      }
    }
    return ws
  } finally {
    depth--
  }
}
