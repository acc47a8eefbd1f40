/**
 * QueryRunner: how the gateway gets a task computed. PoolRunner hands tasks to a Piscina pool of
 * worker threads; a run can be aborted (client gone, !stop, time limit), which terminates the
 * worker running it (Piscina replaces it), so a runaway query really stops.
 */
import { Piscina } from 'piscina'
import { AppError, fromPayload } from '../shared/errors.js'
import type { EngineTask, ResultSet, TaskOutcome } from '../shared/protocol.js'

export interface RunOptions {
  /** Aborts the run; the reason, if an AppError, is what the caller gets. */
  readonly signal?: AbortSignal
  readonly timeoutMs: number
}

export interface QueryRunner {
  run(task: EngineTask, opts: RunOptions): Promise<ResultSet>
  /** Tasks running or waiting, for health and metrics. */
  readonly pending: number
  close(): Promise<void>
}

const WORKER_FILE = new URL('../engine/worker.js', import.meta.url)

export class PoolRunner implements QueryRunner {
  private readonly pool: Piscina

  constructor(opts: { workers: number; workerMemoryMb?: number }) {
    this.pool = new Piscina({
      filename: WORKER_FILE.href,
      minThreads: opts.workers,
      maxThreads: opts.workers,
      // A query that would take the whole machine's memory kills only its worker (500), which
      // Piscina replaces. Table columns are SharedArrayBuffers outside this heap limit.
      resourceLimits: opts.workerMemoryMb ? { maxOldGenerationSizeMb: opts.workerMemoryMb } : undefined,
      // Workers hold opened tables; keep them for the life of the process.
      idleTimeout: Number.POSITIVE_INFINITY,
    })
  }

  private inFlight = 0

  get pending(): number {
    return this.inFlight
  }

  async run(task: EngineTask, opts: RunOptions): Promise<ResultSet> {
    const timeout = AbortSignal.timeout(opts.timeoutMs)
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
    let outcome: TaskOutcome
    this.inFlight++
    try {
      outcome = (await this.pool.run(task, { signal })) as TaskOutcome
    } catch (err) {
      if (timeout.aborted) {
        throw new AppError('TIMEOUT', `The query ran longer than ${opts.timeoutMs} ms (QUERY_TIMEOUT_MS) and was stopped; narrow it or raise the limit.`, { timeoutMs: opts.timeoutMs })
      }
      if (opts.signal?.aborted) {
        throw opts.signal.reason instanceof AppError ? opts.signal.reason : new AppError('STOPPED', 'The query was stopped before it finished.')
      }
      throw new AppError('INTERNAL', 'The query engine failed while running the query.', {}, { cause: err })
    } finally {
      this.inFlight--
    }
    if (!outcome.ok) throw fromPayload(outcome.error)
    return outcome.result
  }

  async close(): Promise<void> {
    await this.pool.destroy()
  }
}
