/**
 * A worker's run of a whole query (no part): queries whose plan sums per group run through the
 * planner with one part, so that their sums are blocked exactly as in a split run and one worker
 * or several give the same bits. Anything else runs in the interpreter as it always did.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import type { Op } from '../ast.js'
import { runMacroTask } from '../interpret/task.js'
import { isDeclined } from './aggregate.js'
import { currentBlockRows } from './blocks.js'
import { parallelRun } from './driver.js'
import { runOps } from '../interpret/run.js'
import { runPart, tablesOf } from './part.js'
import { toCodedResultSet } from './wire.js'
import { planParallel, summarises } from './plan.js'

/** runMacroTask (interpret/task.ts) answering text as codes. */
function codedRun(task: RunTask): ResultSet {
  return toCodedResultSet(runOps(task.ops as readonly Op[], tablesOf(task)), task.maxRows, task.truncate === true)
}

/** A `run` task: one part of a split query, or a whole query. */
export function runRunTask(task: RunTask): ResultSet {
  const plan = planParallel(task.ops as readonly Op[])
  if (task.part !== undefined) return runPart(task, task.part, plan)
  if (plan === null || !summarises(plan)) return task.textCodes === true ? codedRun(task) : runMacroTask(task)
  const rows = task.tables.find((t) => t.path === plan.table)?.rows
  if (rows === undefined) return runMacroTask(task)
  try {
    const run = parallelRun(plan, task, [{ start: 0, end: rows }], currentBlockRows())
    let phase = run.next()
    while (!phase.done) phase = run.next(phase.value.map((t) => runPart(t, t.part!, plan)))
    return phase.value
  } catch (e) {
    if (isDeclined(e)) return runMacroTask(task)
    throw e
  }
}
