/**
 * The steps of a parallel run, the same whoever runs the parts: a generator that yields each
 * phase's part tasks and is handed back their answers in the same order. The gateway runs a
 * phase's parts on the worker pool at once (gateway/queries/parallel.ts); a worker running the
 * query alone runs its one part in place (local.ts). Either way the merges are the same code, so
 * one part and many give the same answer.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { keyName } from './aggregate.js'
import type { RowRange } from './blocks.js'
import { encodeColumns } from './codec.js'
import { concatResults, finishTabu } from './finish.js'
import { mergePartials } from './merge.js'
import { prefixWorksheet, tablesOf } from './part.js'
import { keepsRows, type ParallelPlan } from './plan.js'
import { emptyTables, storedPosition, withoutBaseRows } from './range-worksheet.js'

/**
 * One shared buffer per computed column of the answer (text as codes), for the parts to write
 * their rows into (RunPart.output): the shape comes from the prefix run over empty tables.
 */
function outputBuffers(plan: ParallelPlan, task: RunTask, groupValues: readonly ResultSet[], rows: number): (SharedArrayBuffer | null)[] {
  const shape = withoutBaseRows(prefixWorksheet(plan, emptyTables(tablesOf(task)), { start: 0, end: 0 }, plan.prefix.length, groupValues))
  return shape.cols
    .filter((c) => c.visible)
    .map((c) => (storedPosition(c) !== null ? null : new SharedArrayBuffer(rows * (c.type === 'float' ? 8 : 4))))
}

export type PhaseRun = Generator<RunTask[], ResultSet, ResultSet[]>

export function* parallelRun(plan: ParallelPlan, task: RunTask, ranges: readonly RowRange[], blockRows: number): PhaseRun {
  const groupValues: ResultSet[] = []
  const parts = (phase: 'rows' | 'partials', step?: number): RunTask[] =>
    ranges.map((r) => ({ ...task, truncate: true, part: { start: r.start, end: r.end, blockRows, phase, step, groupValues: [...groupValues] } }))

  for (let k = 0; k < plan.groupSteps.length; k++) {
    const step = plan.groupSteps[k]
    const merged = mergePartials(yield parts('partials', k), step.keys.length, [step.agg])
    const keys = merged.keys.map((column, i) => ({ name: keyName(i), column }))
    groupValues.push(encodeColumns([...keys, { name: 'value', column: merged.values[0] }], merged.count))
  }
  const truncate = task.truncate === true
  if (plan.tail.kind === 'rows') {
    const table = task.tables.find((t) => t.path === plan.table)!
    const output = ranges.length > 1 && keepsRows(plan) ? outputBuffers(plan, task, groupValues, table.rows) : undefined
    const first = ranges[0].start
    const tasks = parts('rows').map((t, i) => (output === undefined ? t : { ...t, part: { ...t.part!, output, outputAt: ranges[i].start - first } }))
    return concatResults(yield tasks, { maxRows: task.maxRows, truncate, table, ranges, keepCodes: task.textCodes === true, output })
  }
  const merged = mergePartials(yield parts('partials', plan.groupSteps.length), plan.tail.op.breaks.length, plan.tail.aggs)
  return finishTabu(plan, merged, tablesOf(task), groupValues, task.maxRows, truncate)
}
