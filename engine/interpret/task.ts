/** The worker side of `api/run`: interpret a checked operation list over the tables handed in. */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import type { Op } from '../ast.js'
import { toResultSet } from './result.js'
import { runOps } from './run.js'

export function runMacroTask(task: RunTask): ResultSet {
  const tables = new Map(task.tables.map((t) => [t.path, t]))
  return toResultSet(runOps(task.ops as readonly Op[], tables), task.maxRows, task.truncate === true)
}
