/**
 * The suite's one door into the gateway: a worker pool built as gateway/compose.ts builds it,
 * and a task run through runOnPool, which plans it and splits it over the workers exactly as an
 * `api/run` request's task is (gateway/query/parallel.ts). Only this file imports gateway/, so
 * moving the gateway's query files means fixing the imports here and nowhere else in the suite.
 */
import type { EngineTask, ResultSet } from '../../shared/protocol.js'
import { loadConfig } from '../../shared/config.js'
import type { PoolServices } from '../../gateway/query/deps.js'
import { PoolRunner } from '../../gateway/pool/runner.js'
import { runOnPool } from '../../gateway/query/pool.js'

export interface EnginePool {
  readonly workers: number
  /** The gateway's result-row limit, for the task's maxRows. */
  readonly maxRows: number
  /** Base tables of at least this many rows run split over the workers (PARALLEL_MIN_ROWS). */
  readonly splitMinRows: number
  run(task: EngineTask): Promise<ResultSet>
  close(): Promise<void>
}

/**
 * A pool of `workers` workers with the service's defaults (PARALLEL_MIN_ROWS, parts = workers),
 * but no time limit and no result-size limits: the suite's answers may be whole 10M-row tables.
 */
export function openPool(workers: number): EnginePool {
  const config = loadConfig({
    WORKERS: String(workers),
    QUERY_TIMEOUT_MS: '3600000',
    MAX_RESULT_ROWS: '500000000',
    MAX_RESULT_BYTES: String(Number.MAX_SAFE_INTEGER),
  })
  const runner = new PoolRunner({ workers: config.workers, workerMemoryMb: config.workerMemoryMb, sqlMemoryMb: config.sqlMemoryMb })
  const deps: PoolServices = { config, runner }
  return {
    workers,
    maxRows: config.maxResultRows,
    splitMinRows: config.parallelMinRows,
    run: (task) => runOnPool(deps, task, {}),
    close: () => runner.close(),
  }
}
