/**
 * The Piscina task entry. sql.js is loaded once per worker thread at module scope; the handler is
 * a function of plain data. Errors never cross the thread boundary as classes: the worker answers
 * `{ ok: false, error }` with a plain payload, and the gateway rebuilds the AppError.
 */
import initSqlJs from 'sql.js'
import { Piscina } from 'piscina'
import { AppError, toPayload } from '../shared/errors.js'
import type { EngineTask, ResultSet, TaskOutcome } from '../shared/protocol.js'
import { SqlExecutor } from './sql/execute.js'
import { runMacroTask } from './interpret/task.js'
import { withProgress } from './interpret/run.js'

const sqlExecutor = new SqlExecutor(await initSqlJs())

function execute(task: EngineTask): ResultSet {
  switch (task.kind) {
    case 'sql':
      return sqlExecutor.run(task)
    case 'run':
      return withProgress(task.progress, () => runMacroTask(task))
    default: {
      const never: never = task
      throw new AppError('INTERNAL', `Unknown task ${JSON.stringify(never)}`)
    }
  }
}

/** Numeric result columns are moved back to the gateway, not copied. */
function withTransferList(outcome: TaskOutcome): unknown {
  if (!outcome.ok) return outcome
  // Columns read straight from a table live in shared memory, which is shared, not moved.
  const buffers = new Set<ArrayBuffer>()
  for (const c of outcome.result.columns) {
    if (c.kind !== 'text' && c.data.buffer instanceof ArrayBuffer) buffers.add(c.data.buffer)
  }
  // move() marks the wrapper so Piscina posts `outcome` with the buffers in its transfer list.
  return Piscina.move({ [Piscina.transferableSymbol]: [...buffers], [Piscina.valueSymbol]: outcome } as never)
}

export default function runTask(task: EngineTask): unknown {
  try {
    return withTransferList({ ok: true, result: execute(task) })
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('INTERNAL', 'Internal error in the query engine.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) } satisfies TaskOutcome
  }
}
