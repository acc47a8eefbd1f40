/**
 * StopRegistry: makes `!stop` reach the gateway process that runs a query. Each gateway records
 * the queries it runs in the Store (running-marker.ts) and listens on one pub/sub channel
 * (message.ts); requestStop on any gateway checks the record and publishes, and the gateway that
 * tracks the query aborts it, which makes PoolRunner terminate the worker thread running it.
 *
 * Query keys are chosen by the caller and name what a user can stop, e.g. `inst:42` for an
 * instance or `sess:<sid>:run` for a session's run query. Every copy of a key is stopped: several
 * requests of one instance may overlap, and "stop the running query of this instance" means all.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../../shared/errors.js'
import type { Store } from '../../../shared/store/index.js'
import { decodeStopMessage, encodeStopMessage, STOP_CHANNEL } from './message.js'
import { ProgressCell } from './progress.js'
import { DEFAULT_RUNNING_TTL, readRunning, RunningMarker, runningKey } from './running-marker.js'
import type { QueryStatus, StopAnswer } from '../../../shared/api-answers.js'
import { statusOf } from './status.js'
import { TrackedQuery } from './tracked-query.js'

/** Options of StopRegistry#track. */
export interface TrackOptions {
  /** Seconds the Store record lives without a refresh (whole, > 0); see running-marker.ts. */
  readonly ttl?: number
}

/** Options of StopRegistry#requestStop. */
export interface StopOptions {
  /**
   * `force_=1`: also removes the running records that were seen, so a record left by a gateway
   * that died mid-query stops answering "running" at once instead of after its TTL. The running
   * query itself is terminated the same way either way: killing the worker is already the
   * strongest stop there is.
   */
  readonly force?: boolean
}

/**
 * One per gateway process: tracks the queries this gateway runs and stops them when any gateway
 * asks. Create it with the process's connected Store, call start() once, close() on shutdown.
 */
export class StopRegistry {
  /** This gateway's name in running records. */
  readonly gatewayId: string
  /** The queries this gateway runs, by query key. */
  private readonly local = new Map<string, Set<TrackedQuery>>()
  private started: Promise<void> | null = null
  private unsubscribe: (() => Promise<void>) | null = null
  private closed = false
  private delivered = 0

  constructor(
    private readonly store: Store,
    opts: { gatewayId?: string } = {},
  ) {
    this.gatewayId = opts.gatewayId ?? `gw-${randomBytes(6).toString('hex')}`
  }

  /** Subscribes to the stop channel; idempotent, and track() calls it too. The Store must be connected. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The StopRegistry is closed.'))
    this.started ??= this.store
      .subscribe(STOP_CHANNEL, (text) => this.onMessage(text))
      .then(
        (unsubscribe) => {
          this.unsubscribe = unsubscribe
        },
        (err: unknown) => {
          this.started = null // let a later call try again
          throw err
        },
      )
    return this.started
  }

  /**
   * Unsubscribes; idempotent. Queries still running go on (a shutdown drains them) but can no
   * longer be stopped from other gateways.
   */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.started?.catch(() => undefined)
    await this.unsubscribe?.()
    this.unsubscribe = null
  }

  /**
   * Runs `run(signal, progress)` as the query `queryKey` of this gateway and records it in the
   * Store, with what the work reports into `progress` (see #status). When a stop for the key arrives, the returned promise rejects at once with AppError('STOPPED'), and
   * `signal` is aborted with that error right after (see tracked-query.ts for why in that order).
   * The record is removed however the query ends: before the promise settles when the query ends
   * by itself, just after when it was stopped (so the stop answers without a Store round trip).
   * Rejects without calling `run` when the record cannot be written (the Store is down): a query
   * that could not be stopped must not start.
   */
  async track<T>(queryKey: string, run: (signal: AbortSignal, progress: ProgressCell) => Promise<T>, opts: TrackOptions = {}): Promise<T> {
    const ttl = opts.ttl ?? DEFAULT_RUNNING_TTL
    if (!Number.isInteger(ttl) || ttl <= 0) throw new RangeError(`A running TTL must be a whole number of seconds above 0 (got ${ttl}).`)
    await this.start()
    const query = new TrackedQuery()
    const progress = new ProgressCell()
    const marker = new RunningMarker(this.store, queryKey, this.gatewayId, ttl, progress)
    // Listen locally before the record is visible, so no stop can find the record but miss the query.
    this.add(queryKey, query)
    try {
      await marker.register()
      return await query.run((signal) => run(signal, progress))
    } finally {
      this.remove(queryKey, query)
      query.abortIfStopped()
      if (query.isStopped) void marker.unregister()
      else await marker.unregister()
    }
  }

  /**
   * Stops every running copy of `queryKey`, on whichever gateway runs it. `stopped` says whether
   * a running query was recorded; the stop itself arrives asynchronously, within one pub/sub hop.
   */
  async requestStop(queryKey: string, opts: StopOptions = {}): Promise<StopAnswer> {
    const running = Object.keys(await readRunning(this.store, queryKey))
    if (running.length === 0) return { stopped: false }
    const force = opts.force === true
    await this.store.publish(STOP_CHANNEL, encodeStopMessage({ queryKey, force, from: this.gatewayId }))
    // Only the fields seen above: a copy that started since keeps its record.
    if (force) await this.store.hdel(runningKey(queryKey), ...running)
    return { stopped: true }
  }

  /**
   * `!status`: whether some gateway runs `queryKey`, for how long and how far it got (the most
   * advanced copy when several run). Progress is as fresh as the last sample written, within
   * PROGRESS_INTERVAL_MS plus a Store round trip.
   */
  async status(queryKey: string): Promise<QueryStatus> {
    return statusOf(await readRunning(this.store, queryKey), Date.now())
  }

  /** Queries of this gateway that a `!stop` reached (metrics). */
  get stopsDelivered(): number {
    return this.delivered
  }

  /** Whether some gateway records `queryKey` as running. */
  async isRunning(queryKey: string): Promise<boolean> {
    return Object.keys(await readRunning(this.store, queryKey)).length > 0
  }

  private onMessage(text: string): void {
    const message = decodeStopMessage(text)
    if (!message) return
    const queries = this.local.get(message.queryKey)
    if (!queries) return
    for (const query of [...queries]) {
      this.delivered++
      query.stop(new AppError('STOPPED', 'The query was stopped (!stop).', { queryKey: message.queryKey }))
    }
  }

  private add(queryKey: string, query: TrackedQuery): void {
    let queries = this.local.get(queryKey)
    if (!queries) this.local.set(queryKey, (queries = new Set()))
    queries.add(query)
  }

  private remove(queryKey: string, query: TrackedQuery): void {
    const queries = this.local.get(queryKey)
    if (!queries?.delete(query)) return
    if (queries.size === 0) this.local.delete(queryKey)
  }
}
