/**
 * The Store's record that a query is running somewhere: `running:{queryKey}`, a hash with one
 * field per running copy of the query. The field name is a random token that only its own
 * registration knows, the value says where and since when: `{"gatewayId":…,"startedAt":…}`.
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
 */
import { randomBytes } from 'node:crypto'
import type { Store } from '../../shared/store/index.js'

/** Seconds a record survives without a refresh: how long a crashed gateway's record lingers. */
export const DEFAULT_RUNNING_TTL = 30

/** The Store key for a query key. */
export const runningKey = (queryKey: string): string => `running:${queryKey}`

/** What a running copy records about itself. */
export interface RunningInfo {
  readonly gatewayId: string
  readonly startedAt: number
}

/** One running copy's record: written by register(), refreshed meanwhile, removed by unregister(). */
export class RunningMarker {
  private readonly key: string
  private readonly token = randomBytes(12).toString('base64url')
  private readonly value: string
  private timer: NodeJS.Timeout | null = null
  /** Store writes of this marker run one after another, so a late refresh cannot re-add the field after unregister. */
  private queue: Promise<void> = Promise.resolve()

  constructor(private readonly store: Store, queryKey: string, gatewayId: string, private readonly ttl: number) {
    this.key = runningKey(queryKey)
    this.value = JSON.stringify({ gatewayId, startedAt: Date.now() } satisfies RunningInfo)
  }

  /** Writes the record and starts refreshing it; rejects (Store down) without leaving a timer. */
  async register(): Promise<void> {
    await this.enqueue(() => this.write())
    this.timer = setInterval(() => {
      // A failed refresh is retried at the next tick; should the record expire meanwhile, !stop
      // answers "not running", which is the best the service can know with the Store away.
      this.enqueue(() => this.write()).catch(() => undefined)
    }, (this.ttl * 1000) / 3)
    // Housekeeping must never be what keeps a process alive.
    this.timer.unref()
  }

  /** Removes this copy's field only; never rejects, since the TTL removes the record anyway. */
  async unregister(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.enqueue(() => this.store.hdel(this.key, this.token).then(() => undefined)).catch(() => undefined)
  }

  /** HSET and EXPIRE together, so the record never exists without a TTL (a crash in between would keep it forever). */
  private async write(): Promise<void> {
    await this.store.batch([
      { op: 'hset', key: this.key, fields: { [this.token]: this.value } },
      { op: 'expire', key: this.key, ttl: this.ttl },
    ])
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
