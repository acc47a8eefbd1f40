/**
 * The Store's record that a query is running somewhere: `running:{queryKey}`, a hash with one
 * field per running copy of the query. The field name is a random token that only its own
 * registration knows, the value says where, since when and how far it got:
 * `{"gatewayId":…,"startedAt":…,"done":…,"total":…}` (done/total null while unknown).
 *
 * Why a hash and not one string: the same key may be run twice at once (a session's run endpoint
 * overlapping itself, possibly on two gateways). With one string the first copy to finish would
 * delete, or the second would overwrite, the other's record, and a !stop in that gap would answer
 * "nothing running" while a query runs. With a field per copy, each removes only its own field
 * (HDEL, no compare-and-delete needed) and the key disappears with the last one, as hashes do.
 *
 * Why a short TTL that is refreshed rather than one longer than QUERY_TIMEOUT_MS: a gateway that
 * dies mid-query leaves its record behind, and with a TTL above the query time limit (5 minutes
 * by default) !stop would answer "stopped" for minutes about a query nobody runs. The refresh
 * costs one round trip per ttl/3 per running query, which is nothing next to a query that long.
 *
 * Progress (`!status`) rides on the same record so that any gateway can read it: the marker
 * samples the query's progress cell every PROGRESS_INTERVAL_MS and rewrites its field when the
 * progress moved, at most one write in flight (a slow Store skips samples rather than queueing).
 */
import { randomBytes } from 'node:crypto'
import type { Store } from '../../../shared/store/index.js'
import type { ProgressCell } from './progress.js'
import { retryCleanup } from './retry-cleanup.js'
import { storedObject } from './stored-json.js'

/** Seconds a record survives without a refresh: how long a crashed gateway's record lingers. */
export const DEFAULT_RUNNING_TTL = 30

/** How often a running query's progress is sampled (and, if it moved, written to the Store). */
export const PROGRESS_INTERVAL_MS = 250

/** The Store key for a query key. */
export const runningKey = (queryKey: string): string => `running:${queryKey}`

/** What a running copy records about itself. */
export interface RunningInfo {
  readonly gatewayId: string
  readonly startedAt: number
  /** Top-level operations finished (fractional inside one); null when unknown. */
  readonly done: number | null
  readonly total: number | null
  /** For an SQL query, the engine running it once chosen (api/sql); null otherwise. */
  readonly engine: 'columnar' | 'sqlite' | null
}

/** One running copy's record: written by register(), refreshed meanwhile, removed by unregister(). */
export class RunningMarker {
  private readonly key: string
  private readonly token = randomBytes(12).toString('base64url')
  private readonly startedAt = Date.now()
  private timer: NodeJS.Timeout | null = null
  /** Store writes of this marker run one after another, so a late refresh cannot re-add the field after unregister. */
  private queue: Promise<void> = Promise.resolve()
  private writing = false
  private lastValue = ''
  private lastWrite = 0
  /** When the record expires unless written again: the last successful write plus the TTL. */
  private expiresAt = 0

  constructor(
    private readonly store: Store,
    queryKey: string,
    private readonly gatewayId: string,
    private readonly ttl: number,
    private readonly progress: ProgressCell | null = null,
  ) {
    this.key = runningKey(queryKey)
  }

  /** Writes the record and starts refreshing it; rejects (Store down) without leaving a timer. */
  async register(): Promise<void> {
    await this.enqueue(() => this.write(this.encode()))
    const refreshMs = (this.ttl * 1000) / 3
    // Without progress to follow, only the TTL refresh matters.
    this.timer = setInterval(() => this.tick(refreshMs), this.progress ? Math.min(PROGRESS_INTERVAL_MS, refreshMs) : refreshMs)
    // Housekeeping must never be what keeps a process alive.
    this.timer.unref()
  }

  /**
   * Removes this copy's field only; never rejects. When the Store is away the removal is tried
   * again until it succeeds or the record has expired (retry-cleanup.ts says why).
   */
  async unregister(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    if (await this.remove()) return
    retryCleanup(() => this.remove(), this.expiresAt)
  }

  private remove(): Promise<boolean> {
    return this.enqueue(() => this.store.hdel(this.key, this.token).then(() => undefined)).then(
      () => true,
      () => false,
    )
  }

  /** Writes when the progress moved or the TTL needs refreshing, unless a write is still under way. */
  private tick(refreshMs: number): void {
    if (this.writing) return
    const value = this.encode()
    if (value === this.lastValue && Date.now() - this.lastWrite < refreshMs) return
    this.writing = true
    // A failed write is retried at a later tick; should the record expire meanwhile, !stop
    // answers "not running", which is the best the service can know with the Store away.
    this.enqueue(() => this.write(value))
      .catch(() => undefined)
      .finally(() => (this.writing = false))
  }

  private encode(): string {
    const progress = this.progress?.read() ?? null
    const info: RunningInfo = {
      gatewayId: this.gatewayId,
      startedAt: this.startedAt,
      done: progress?.done ?? null,
      total: progress?.total ?? null,
      engine: this.progress?.engine ?? null,
    }
    return JSON.stringify(info)
  }

  /** HSET and EXPIRE together, so the record never exists without a TTL (a crash in between would keep it forever). */
  private async write(value: string): Promise<void> {
    this.lastValue = value
    this.lastWrite = Date.now()
    await this.store.batch([
      { op: 'hset', key: this.key, fields: { [this.token]: value } },
      { op: 'expire', key: this.key, ttl: this.ttl },
    ])
    this.expiresAt = Date.now() + this.ttl * 1000
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step)
    this.queue = next.catch(() => undefined)
    return next
  }
}

/** The running copies of a query, by token; empty when none is recorded. */
export async function readRunning(store: Store, queryKey: string): Promise<Record<string, string>> {
  return store.hgetall(runningKey(queryKey))
}

/**
 * A record's value, or null when it is not one (anyone with Store access can write there, and an
 * older gateway writes no progress: missing done/total read as unknown).
 */
export function decodeRunningInfo(text: string): RunningInfo | null {
  const value = storedObject(text)
  if (value === null) return null
  const { gatewayId, startedAt, done, total, engine } = value
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return null
  const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null)
  return {
    gatewayId: typeof gatewayId === 'string' ? gatewayId : '',
    startedAt,
    done: count(done),
    total: count(total),
    engine: engine === 'columnar' || engine === 'sqlite' ? engine : null,
  }
}
