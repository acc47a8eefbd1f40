/**
 * The steps of a parallel run, the same whoever runs them: a generator that yields each phase's
 * tasks and is handed back their answers in the same order. A summarising phase is two: the
 * parts' partials, then one task merging them (merge-task.ts), so every merge runs where a query
 * runs, on a worker, under the query's stop and time limit. driveSplitRun is the one loop over
 * those phases; only who runs a phase's tasks differs. The gateway runs them on the worker pool
 * at once (gateway/query/parallel.ts) or a window at a time (gateway/query/windowed.ts); a worker
 * running the query alone runs them in place (engine/task/execute.ts). Either way the merges are
 * the same code, so one part and many give the same answer. Only the parts' rows are put
 * together here, which is copying, not interpreting.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { splitRanges, type RowRange } from './blocks.js'
import { concatResults } from './finish.js'
import { prefixWorksheet, tablesOf } from './part.js'
import { partitions, partitionValues, valueColumn } from './partition-phase.js'
import { batchEnd, summarises, type ParallelPlan } from './plan.js'
import { emptyTables, storedPosition, withoutBaseRows } from './range-worksheet.js'
import { bytesPerValue } from '../columns/types.js'

/**
 * One shared buffer per computed column of the answer (text as codes), for the parts to write
 * their rows into (RunPart.output): the shape comes from the prefix run over empty tables.
 */
function outputBuffers(plan: ParallelPlan, task: RunTask, groupValues: readonly ResultSet[], rows: number): (SharedArrayBuffer | null)[] {
  const shape = withoutBaseRows(prefixWorksheet(plan, emptyTables(tablesOf(task)), { start: 0, end: 0 }, plan.prefix.length, groupValues))
  return shape.cols.filter((c) => c.visible).map((c) => (storedPosition(c) !== null ? null : new SharedArrayBuffer(rows * bytesPerValue(c.type))))
}

type PhaseRun = Generator<RunTask[], ResultSet, ResultSet[]>

/** The rows a plan splits: its base table's, and its merge's foreign table's after them. */
export function splitRows(plan: ParallelPlan, task: RunTask): number {
  const rowsOf = (path: string) => task.tables.find((t) => t.path === path)?.rows ?? 0
  return rowsOf(plan.table) + (plan.merge === null ? 0 : rowsOf(plan.merge.table))
}

/**
 * The parts of a run in `parts` pieces (at most; one for a run on one worker): ranges of the base
 * table, then of the merge's foreign table, each side cut on summing-block edges when the plan
 * sums, so that every run of the plan adds the same blocks.
 */
export function partRanges(plan: ParallelPlan, task: RunTask, parts: number, blockRows: number): RowRange[] {
  const align = summarises(plan) ? blockRows : 1
  const rowsOf = (path: string) => task.tables.find((t) => t.path === path)?.rows ?? 0
  const ranges = splitRanges(rowsOf(plan.table), parts, align)
  if (plan.merge === null) return ranges
  return [...ranges, ...splitRanges(rowsOf(plan.merge.table), parts, align).map((r) => ({ ...r, foreign: true }))]
}

function* parallelRun(plan: ParallelPlan, task: RunTask, ranges: readonly RowRange[], blockRows: number): PhaseRun {
  const groupValues: ResultSet[] = []
  const parts = (phase: 'rows' | 'partials', step?: number): RunTask[] =>
    ranges.map((r) => ({
      ...task,
      truncate: true,
      part: { start: r.start, end: r.end, foreign: r.foreign, blockRows, phase, step, groupValues: [...groupValues] },
    }))
  // The merge keeps the query's own truncate: its answer is the query's.
  const merge = (step: number, partials: ResultSet[]): RunTask[] => [{ ...task, merge: { step, partials, groupValues: [...groupValues] } }]

  for (let k = 0; k < plan.partitionSteps.length; k++) {
    const column = valueColumn(plan, task, groupValues, k)
    const answers = yield partitions(task, groupValues, k, column, ranges.length, blockRows)
    groupValues.push(partitionValues(column, answers))
  }
  // A batch of group steps is one phase; its merged values serve every step of it.
  for (let k = 0; k < plan.groupSteps.length;) {
    const end = batchEnd(plan, k)
    const [values] = yield merge(k, yield parts('partials', k))
    for (; k < end; k++) groupValues.push(values)
  }
  const truncate = task.truncate === true
  if (plan.tail.kind === 'rows') {
    const table = task.tables.find((t) => t.path === plan.table)!
    // Parts write their rows at their ranges' places; a selection's gaps are closed on the gateway.
    // Not for a table larger than the cache, read in windows: a buffer of its every row is what it must not have.
    const output = ranges.length > 1 && plan.merge === null && table.firstRow === undefined ? outputBuffers(plan, task, groupValues, table.rows) : undefined
    const first = ranges[0].start
    const tasks = parts('rows').map((t, i) => (output === undefined ? t : { ...t, part: { ...t.part!, output, outputAt: ranges[i].start - first } }))
    return concatResults(yield tasks, { maxRows: task.maxRows, truncate, table, ranges, output })
  }
  const step = plan.groupSteps.length
  const [answer] = yield merge(step, yield parts('partials', step))
  return answer
}

/** Runs one phase's tasks and answers their results in the tasks' order. */
export type PhaseRunner = (tasks: RunTask[]) => ResultSet[]
/** The same, answering later: the gateway runs the tasks on the worker pool. */
export type AsyncPhaseRunner = (tasks: RunTask[]) => Promise<ResultSet[]>

/**
 * Runs a split query's phases (parallelRun) to its answer, each phase's tasks run by `runPhase`.
 * A worker stepping a query in place runs it in one synchronous turn (its progress cell is armed
 * for that turn alone, engine/interpret/run.ts), so a runner that answers at once gets the answer
 * at once. One that answers a promise gets a promise (every run has a phase); what fails before
 * the first phase is asked for is thrown at once, so callers await inside their try.
 */
export function driveSplitRun(plan: ParallelPlan, task: RunTask, ranges: readonly RowRange[], blockRows: number, runPhase: PhaseRunner): ResultSet
export function driveSplitRun(plan: ParallelPlan, task: RunTask, ranges: readonly RowRange[], blockRows: number, runPhase: AsyncPhaseRunner): Promise<ResultSet>
export function driveSplitRun(
  plan: ParallelPlan,
  task: RunTask,
  ranges: readonly RowRange[],
  blockRows: number,
  runPhase: PhaseRunner | AsyncPhaseRunner,
): ResultSet | Promise<ResultSet> {
  const run = parallelRun(plan, task, ranges, blockRows)
  const from = (phase: IteratorResult<RunTask[], ResultSet>): ResultSet | Promise<ResultSet> => {
    while (!phase.done) {
      const answers = runPhase(phase.value)
      if (answers instanceof Promise) return answers.then((a) => from(run.next(a)))
      phase = run.next(answers)
    }
    return phase.value
  }
  return from(run.next())
}
