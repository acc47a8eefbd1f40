/**
 * What a worker does with a `run` task: one part of a split query, the merge of the parts'
 * partials, or a whole query. Whole queries whose plan sums per group run through the planner
 * with one part, so that their sums are blocked exactly as in a split run and one worker or
 * several give the same bits. Anything else runs in the interpreter as it always did.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import type { Op } from '../ast.js'
import { runMacroTask } from '../interpret/task.js'
import { isDeclined } from './aggregate.js'
import { currentBlockRows } from './blocks.js'
import { inSharedMemory } from './codec.js'
import { parallelRun } from './driver.js'
import { runOps } from '../interpret/run.js'
import { runMerge } from './merge-task.js'
import { runPart, tablesOf } from './part.js'
import { toCodedResultSet } from './wire.js'
import { planParallel, summarises, type ParallelPlan } from './plan.js'

/** runMacroTask (interpret/task.ts) answering text as codes. */
function codedRun(task: RunTask): ResultSet {
  return toCodedResultSet(runOps(task.ops as readonly Op[], tablesOf(task)), task.maxRows, task.truncate === true)
}

/** One task of a phase of parallelRun (driver.ts), run where it is: a part, or a merge. */
export function runPhaseTask(task: RunTask, plan: ParallelPlan | null = planParallel(task.ops as readonly Op[])): ResultSet {
  if (task.merge !== undefined) return runMerge(task, task.merge, plan)
  if (task.part !== undefined) return runPart(task, task.part, plan)
  throw new Error('runPhaseTask: a task that is neither a part nor a merge')
}

/**
 * True when the gateway hands this task's answer on to further tasks rather than to the client:
 * partials go to their merge, merged group values to every part of the next phase.
 */
function handedOn(task: RunTask, plan: ParallelPlan | null): boolean {
  if (task.part !== undefined) return task.part.phase === 'partials'
  return task.merge !== undefined && plan !== null && task.merge.step < plan.groupSteps.length
}

/** A `run` task: one part or one merge of a split query (sent by the gateway), or a whole query. */
export function runRunTask(task: RunTask): ResultSet {
  const plan = planParallel(task.ops as readonly Op[])
  if (task.part !== undefined || task.merge !== undefined) {
    const answer = runPhaseTask(task, plan)
    return handedOn(task, plan) ? inSharedMemory(answer) : answer
  }
  if (plan === null || !summarises(plan)) return task.textCodes === true ? codedRun(task) : runMacroTask(task)
  const rows = task.tables.find((t) => t.path === plan.table)?.rows
  if (rows === undefined) return runMacroTask(task)
  try {
    const run = parallelRun(plan, task, [{ start: 0, end: rows }], currentBlockRows())
    let phase = run.next()
    while (!phase.done) phase = run.next(phase.value.map((t) => runPhaseTask(t, plan)))
    return phase.value
  } catch (e) {
    if (isDeclined(e)) return runMacroTask(task)
    throw e
  }
}
