/**
 * The one path of a `run` task through a worker: a whole query, one part of a split query, or the
 * merge of its parts' partials (the finish after a split `<tabu>` included). The plan comes with
 * the task (RunTask.plan, made once on the gateway), and the answer is always text as codes
 * (CodedResultSet), which the gateway reads back one way (engine/parallel/wire.ts, fromWire).
 *
 * A whole query whose plan sums per group runs the split run's phases here, over one part and
 * through the same steps as a sent part or merge, so its sums are blocked exactly as in a split
 * run and one worker or many give the same bits. Any other whole query runs in the interpreter.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { checkedOpsOf } from '../check/index.js'
import { runOps } from '../interpret/run.js'
import { currentBlockRows } from '../parallel/blocks.js'
import { inSharedMemory } from '../parallel/codec.js'
import { driveSplitRun, partRanges } from '../parallel/driver.js'
import { executeMerge } from '../parallel/merge-task.js'
import { executePart, tablesOf } from '../parallel/part.js'
import { planOf, summarises, type ParallelPlan } from '../parallel/plan.js'
import { toCodedResultSet } from '../parallel/wire.js'
import { fallbackOf } from './outcome.js'

export function executeRunTask(task: RunTask): ResultSet {
  const plan = planOf(task)
  const answer = step(task, plan)
  return handedOn(task, plan) ? inSharedMemory(answer) : answer
}

/** One task where it is: a part, a merge, or the whole query. */
function step(task: RunTask, plan: ParallelPlan | null): ResultSet {
  if (task.part !== undefined) return executePart(task, task.part, plan)
  if (task.merge !== undefined) return executeMerge(task, task.merge, plan)
  // A window of a table larger than the cache is read by parts alone (engine/parallel/windows.ts); whole, it would read as empty.
  if (task.tables.some((t) => t.firstRow !== undefined)) throw new Error('executeRunTask: a whole query over a table window')
  return (plan !== null && summarises(plan) ? inPlace(task, plan) : null) ?? interpreted(task)
}

function interpreted(task: RunTask): ResultSet {
  return toCodedResultSet(runOps(checkedOpsOf(task), tablesOf(task)), task.maxRows, task.truncate === true)
}

/** The split run's phases over one part, each task stepped here; null when the data decline the plan (a 'whole' fallback). */
function inPlace(task: RunTask, plan: ParallelPlan): ResultSet | null {
  if (!task.tables.some((t) => t.path === plan.table)) return null
  try {
    const blockRows = currentBlockRows()
    return driveSplitRun(plan, task, partRanges(plan, task, 1, blockRows), blockRows, (tasks) => tasks.map((t) => step(t, plan)))
  } catch (e) {
    if (fallbackOf(e)?.kind === 'whole') return null
    throw e
  }
}

/**
 * True when the gateway hands this task's answer on to further tasks rather than to the client
 * (partials to their merge, merged group values to every part of the next phase): it is put in
 * shared memory, so a task run again after fair sharing took its worker back still finds it.
 */
function handedOn(task: RunTask, plan: ParallelPlan | null): boolean {
  if (task.part !== undefined) return task.part.phase === 'partials'
  return task.merge !== undefined && plan !== null && task.merge.step < plan.groupSteps.length
}
