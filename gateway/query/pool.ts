/**
 * Handing a built task to the worker pool under the request's controls: its signals (`!stop`, the
 * client gone) and its time limit (QUERY_TIMEOUT_MS, or lower with timeout_), joined once into the
 * query's one signal (query-signal.ts); the gateway's queue bound (MAX_QUEUE); and the result's
 * shape and byte limit (MAX_RESULT_BYTES) once the worker answered.
 */
import type { EngineTask, ResultSet } from '../../shared/protocol.js'
import type { PoolServices } from './deps.js'
import { fromWire, withPlan } from '../../engine/index.js'
import { AppError } from '../../shared/errors.js'
import { checkResultShape, limitResultBytes } from './limits.js'
import { runParallel } from './parallel.js'
import { runWindowed } from './windowed.js'
import { QuerySignal } from './query-signal.js'
import type { RunControl } from './run-control.js'

/**
 * Runs the task; with `task.truncate` a result over a limit is cut instead of refused. A macro
 * query over a large table runs split over the workers when it can (parallel.ts).
 */
export async function runOnPool(deps: PoolServices, task: EngineTask, control: RunControl): Promise<ResultSet> {
  const limit = control.timeout ?? { timeoutMs: deps.config.queryTimeoutMs, timeoutLimit: 'QUERY_TIMEOUT_MS' as const }
  const query = new QuerySignal(control.signals ?? [], limit)
  let answer: ResultSet
  try {
    // The query is planned here, once: its parts, its merges or its whole run read the plan from the task.
    const sent = task.kind === 'run' ? withPlan(task) : task
    // A table larger than TABLE_CACHE_MB came as an empty window: only the windowed run reads it (windowed.ts).
    const windowed = sent.kind === 'run' && sent.tables.some((t) => t.firstRow !== undefined)
    if (windowed && control.windows === undefined) throw new AppError('INTERNAL', 'A query over a table larger than TABLE_CACHE_MB has no way to read it.')
    const split =
      sent.kind !== 'run' ? null : windowed ? await runWindowed(deps, sent, query, control, control.windows!) : await runParallel(deps, sent, query, control)
    answer = split ?? (await deps.runner.run(sent, { signal: query.signal, maxQueue: deps.config.maxQueue, user: control.user }))
  } finally {
    query.dispose()
  }
  const result = fromWire(answer)
  // An SQL answer from sql.js names its columns as SQLite does; a compiled one is renamed after this.
  checkResultShape(result, task.kind === 'sql' ? 'label' : 'name')
  return limitResultBytes(result, deps.config.maxResultBytes, task.truncate === true)
}
