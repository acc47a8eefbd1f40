/**
 * QueryRunner: how the gateway gets a task computed. PoolRunner hands tasks to a Piscina pool of
 * worker threads; a run can be aborted (client gone, !stop, time limit), which terminates the
 * worker running it (Piscina replaces it), so a runaway query really stops.
 *
 * PoolRunner also bounds the wait for a worker (MAX_QUEUE): when every worker is busy and the
 * queue is full, a run is refused at once with 429 and a Retry-After estimate, rather than
 * queued without bound where it would only run into its time limit.
 *
 * Which waiting task gets the next free worker is not first come, first served: FairShare serves
 * users in turn and takes a worker back from a user holding more than their share while another
 * user's task waits (fair-share.ts).
 */
import { Piscina } from 'piscina'
import { AppError, fromPayload } from '../../shared/errors.js'
import type { EngineTask, ResultSet } from '../../shared/protocol.js'
import type { TaskOutcome, WorkerSetup } from '../../engine/index.js'
import { FallbackError, resultAfterReceiving, taskForPosting } from '../../engine/index.js'
import { RetiringWorkers } from './retiring-workers.js'
import { FairShare } from './fair-share.js'

export interface RunOptions {
  /**
   * The query's one signal (query/query-signal.ts): stops the task, and its reason is what the
   * caller gets. The time limit arrives this way too, as a TIMEOUT reason: the runner makes no
   * timer of its own.
   */
  readonly signal?: AbortSignal
  /**
   * How many tasks may wait for a worker (MAX_QUEUE). When that many already wait, the run is
   * refused at once with TOO_MANY_REQUESTS; 0 means a run starts only when a worker is free.
   * Without it the queue is unbounded.
   */
  readonly maxQueue?: number
  /** Whose task it is, for fair sharing of the workers (fair-share.ts); absent = the service's own. */
  readonly user?: string
}

export interface QueryRunner {
  run(task: EngineTask, opts: RunOptions): Promise<ResultSet>
  /** Tasks running or waiting, for health and metrics. */
  readonly pending: number
  /** Of those, the ones waiting for a worker (metrics); absent means none wait. */
  readonly waiting?: number
  /** Workers ended and replaced while serving (metrics). */
  readonly workerRestarts?: number
  /** Tasks whose worker was taken back for another user's task, and which ran again (metrics). */
  readonly preemptions?: number
  /** Queries stopped by their time limit (metrics): once per query, however many tasks it ran. */
  readonly timeouts?: number
  /** False once closed or without workers (/readyz); absent means up. */
  readonly isUp?: boolean
  close(): Promise<void>
}

const WORKER_FILE = new URL('../../engine/worker-door.cjs', import.meta.url)

/** Retry-After bounds, in seconds: never "now", and never so far off that a client gives up. */
const MIN_RETRY_SECONDS = 1
const MAX_RETRY_SECONDS = 60
/** Weight of the newest task in the running average of task durations. */
const DURATION_WEIGHT = 0.2

export class PoolRunner implements QueryRunner {
  private readonly pool: Piscina
  private readonly workers: number
  /** Tasks handed to the pool and not settled yet: running ones plus waiting ones. */
  private inFlight = 0
  /** Running average of how long a task took, for the Retry-After estimate; a guess until tasks finished. */
  private averageMs = 1000
  private closed = false
  private restarts = 0
  private timedOut = 0
  /** The signals whose time limit was counted already: the parts of a split run share one. */
  private readonly timedOutSignals = new WeakSet<AbortSignal>()
  private readonly fair: FairShare

  /** Workers that asked to leave (SQL_MEMORY_MB, engine/retire.ts): no task goes to them. */
  private readonly retiring = new RetiringWorkers()
  private readonly terminating = new Set<number>()

  constructor(opts: { workers: number; workerMemoryMb?: number; sqlMemoryMb?: number }) {
    this.workers = opts.workers
    const setup: Partial<WorkerSetup> = { retiring: this.retiring.table, ...(opts.sqlMemoryMb ? { sqlMemoryMb: opts.sqlMemoryMb } : {}) }
    this.fair = new FairShare(opts.workers)
    this.pool = new Piscina({
      workerData: setup,
      loadBalancer: this.retiring.balancer(),
      filename: WORKER_FILE.href,
      // One thread more than WORKERS, kept started and idle: a task never runs on more than WORKERS
      // at once (FairShare hands Piscina at most that many), but when a worker is ended (a task
      // taken back for another user, a stop, a time limit) the next task starts at once on the
      // spare instead of waiting the ~0.5-1 s a new thread takes to load the engine and sql.js.
      minThreads: opts.workers + 1,
      maxThreads: opts.workers + 1,
      // A query that would take the whole machine's memory kills only its worker (500), which
      // Piscina replaces. Table columns are SharedArrayBuffers outside this heap limit.
      resourceLimits: opts.workerMemoryMb ? { maxOldGenerationSizeMb: opts.workerMemoryMb } : undefined,
      // Workers hold opened tables; keep them for the life of the process.
      idleTimeout: Number.POSITIVE_INFINITY,
    })
    // Piscina ends a worker for an aborted task or a crash and starts another; on close it ends
    // them all, which is no restart.
    this.pool.on('workerDestroy', () => {
      if (!this.closed) this.restarts++
    })
  }

  get workerRestarts(): number {
    return this.restarts
  }

  get timeouts(): number {
    return this.timedOut
  }

  get preemptions(): number {
    return this.fair.preemptions
  }

  get isUp(): boolean {
    return !this.closed && this.pool.threads.length > 0
  }

  get pending(): number {
    return this.inFlight
  }

  /** Tasks waiting for a worker: everything in flight beyond one per worker. */
  get waiting(): number {
    return Math.max(0, this.inFlight - this.workers)
  }

  async run(task: EngineTask, opts: RunOptions = {}): Promise<ResultSet> {
    if (opts.maxQueue !== undefined) this.admit(opts.maxQueue)
    // A task without a signal (tests, benchmarks) gets one of its own: listeners on a shared one would pile up.
    const signal = opts.signal ?? new AbortController().signal
    let outcome: TaskOutcome
    const started = performance.now()
    this.inFlight++
    try {
      // Piscina is handed a task only when FairShare gives it a worker, so Piscina's own queue
      // (first come, first served) stays empty and the order is FairShare's.
      const posted = taskForPosting(task)
      outcome = (await this.fair.run(opts.user ?? '', signal, (attempt) => this.pool.run(posted, { signal: attempt }))) as TaskOutcome
    } catch (err) {
      if (signal.aborted) throw this.stopped(signal)
      throw new AppError('INTERNAL', 'The query engine failed while running the query.', {}, { cause: err })
    } finally {
      this.inFlight--
      this.endRetiringWorkers()
    }
    this.averageMs += DURATION_WEIGHT * (performance.now() - started - this.averageMs)
    // A fallback goes on up as the engine's one error class for it, to where the query follows it (query/fallbacks.ts).
    if (!outcome.ok) throw 'fallback' in outcome ? new FallbackError(outcome.fallback) : fromPayload(outcome.error)
    // Large text arrives as shared memory, decoded here a slice at a time (wire-dictionaries.ts).
    return await resultAfterReceiving(outcome.result)
  }

  /** Why a task was stopped: its signal's reason (counting a time limit once per signal), else STOPPED. */
  private stopped(signal: AbortSignal): AppError {
    const reason: unknown = signal.reason
    if (!(reason instanceof AppError)) return new AppError('STOPPED', 'The query was stopped before it finished.')
    if (reason.code === 'TIMEOUT' && !this.timedOutSignals.has(signal)) {
      this.timedOutSignals.add(signal)
      this.timedOut++
    }
    return reason
  }

  /**
   * Terminates the workers that marked themselves as retiring (engine/retire.ts) once their task
   * was answered; Piscina starts fresh ones. The balancer gives them no new task meanwhile.
   */
  private endRetiringWorkers(): void {
    for (const id of this.retiring.marked()) {
      const thread = this.pool.threads.find((t) => t.threadId === id)
      // Its slot is freed only once Piscina dropped the thread: until then the balancer must skip it.
      if (thread === undefined) this.retiring.forget(id)
      else if (!this.terminating.has(id)) {
        this.terminating.add(id)
        void thread.terminate().finally(() => this.terminating.delete(id))
      }
    }
  }

  /**
   * Refuses a task that would have to wait while `maxQueue` tasks already wait. Counted here
   * rather than read from Piscina, so the check and the start of the task happen in one turn of
   * the event loop and two requests can never both take the last place.
   */
  private admit(maxQueue: number): void {
    if (this.inFlight < this.workers + maxQueue) return
    const retryAfterSeconds = this.retryAfterSeconds()
    const waiting = this.waiting
    const queue =
      maxQueue === 0
        ? 'no query may wait (MAX_QUEUE = 0)'
        : `${waiting} ${waiting === 1 ? 'query waits' : 'queries wait'} already, the limit (MAX_QUEUE = ${maxQueue})`
    throw new AppError('TOO_MANY_REQUESTS', `All ${this.workers} query workers of this gateway are busy and ${queue}; try again in ${retryAfterSeconds} s.`, {
      limit: maxQueue,
      retryAfterSeconds,
    })
  }

  /** When a place is likely free: the waiting tasks (and this one) shared among the workers, at the average task time. */
  private retryAfterSeconds(): number {
    const seconds = Math.ceil(((this.waiting + 1) / this.workers) * (this.averageMs / 1000))
    return Math.min(MAX_RETRY_SECONDS, Math.max(MIN_RETRY_SECONDS, seconds))
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool.destroy()
  }
}
