/**
 * MAX_QUERIES_PER_SESSION: how many queries one session may have running at once, counted over
 * every gateway, so the count lives in the Store: `sessq:{sid}`, one JSON string
 * `{"<token>": <expires at, ms since the epoch>, …}` with one entry (a slot) per running query.
 *
 * Why entries that expire rather than a counter: a counter is only right if every increment is
 * matched by a decrement, and a gateway that dies mid-query never decrements; its count would
 * then refuse the session's queries for as long as the key lived (and an active session keeps
 * refreshing it). Each slot instead carries its own expiry, which the gateway running the query
 * pushes forward every SLOT_TTL_SECONDS / 3; a dead gateway's slots lapse on their own, and the
 * key's TTL removes what is left once nothing runs.
 *
 * Every change is a compare-and-set of the whole value (Store#watch, then a conditional batch),
 * so two gateways taking the last slot at once cannot both succeed: the second one's batch fails,
 * it reads again and is refused. Release and refresh never reject: a slot that could not be
 * removed lapses after SLOT_TTL_SECONDS.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/index.js'

/** Seconds a slot lives without a refresh: how long a crashed gateway's queries still count. */
export const SLOT_TTL_SECONDS = 30

/** Compare-and-set attempts before giving up (only under heavy contention on one session). */
const MAX_ATTEMPTS = 40

/** What a refused session is told to wait, in seconds. */
const RETRY_AFTER_SECONDS = 1

export const slotsKey = (sid: string): string => `sessq:${sid}`

type Slots = Record<string, number>

/** The live slots of a stored value; anything unreadable counts as no slots (it is rewritten on the next change). */
function liveSlots(raw: string | null, now: number): Slots {
  if (raw === null) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return {}
  }
  const out: Slots = {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out
  for (const [token, expires] of Object.entries(value)) if (typeof expires === 'number' && expires > now) out[token] = expires
  return out
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Applies `change` to the session's live slots with a compare-and-set; `change` returns the new
 * slots, or null to leave them as they are. Resolves whether a change was written.
 */
async function updateSlots(store: Store, key: string, ttlSeconds: number, change: (slots: Slots, now: number) => Slots | null): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const seen = await store.watch([key])
    const now = Date.now()
    const next = change(liveSlots(seen.values[0], now), now)
    if (next === null) return false
    const write: WriteOp = Object.keys(next).length === 0 ? { op: 'del', key } : { op: 'set', key, value: JSON.stringify(next), ttl: ttlSeconds }
    if (await store.batch([write], seen)) return true
    // Another gateway changed the slots meanwhile: read them again, after a short random pause so
    // that contenders do not keep colliding.
    await sleep(Math.random() * Math.min(50, 2 ** attempt))
  }
  throw new AppError('TOO_MANY_REQUESTS', 'Too many queries of this session are starting at once; try again.', { retryAfterSeconds: RETRY_AFTER_SECONDS })
}

/** One running query's slot: refreshed while it runs, released (once) when it ends. */
export class SlotLease {
  private timer: NodeJS.Timeout | null = null
  /** Store writes of this lease run one after another, so a late refresh cannot put a released slot back. */
  private queue: Promise<unknown> = Promise.resolve()
  private released = false

  constructor(
    private readonly store: Store,
    private readonly key: string,
    private readonly token: string,
    private readonly ttlSeconds: number,
  ) {
    this.timer = setInterval(() => this.refresh(), (ttlSeconds * 1000) / 3)
    // Housekeeping must never be what keeps a process alive.
    this.timer.unref()
  }

  /** Frees the slot; idempotent, never rejects. */
  release(): Promise<void> {
    if (this.released) return this.queue.then(() => undefined)
    this.released = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    return this.enqueue(() =>
      updateSlots(this.store, this.key, this.ttlSeconds, (slots) => {
        if (!(this.token in slots)) return null
        const { [this.token]: _, ...rest } = slots
        return rest
      }),
    )
  }

  /** Pushes the slot's expiry forward (putting it back if it lapsed while the Store was away: the query does run). */
  private refresh(): void {
    if (this.released) return
    void this.enqueue(() => updateSlots(this.store, this.key, this.ttlSeconds, (slots, now) => ({ ...slots, [this.token]: now + this.ttlSeconds * 1000 })))
  }

  private enqueue(step: () => Promise<unknown>): Promise<void> {
    const next = this.queue.then(step).then(
      () => undefined,
      () => undefined,
    )
    this.queue = next
    return next
  }
}

/**
 * Takes one of the session's `limit` slots for a query about to run, or refuses with 429
 * TOO_MANY_REQUESTS (Retry-After 1 s) when they are all taken. Release the lease however the
 * query ends.
 */
export async function acquireSlot(store: Store, sid: string, limit: number, ttlSeconds = SLOT_TTL_SECONDS): Promise<SlotLease> {
  const key = slotsKey(sid)
  const token = randomBytes(9).toString('base64url')
  let running = 0
  const taken = await updateSlots(store, key, ttlSeconds, (slots, now) => {
    running = Object.keys(slots).length
    return running >= limit ? null : { ...slots, [token]: now + ttlSeconds * 1000 }
  })
  if (!taken) {
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `This session already has ${running} ${running === 1 ? 'query' : 'queries'} running, the limit (MAX_QUERIES_PER_SESSION = ${limit}); wait for one to finish, or stop one with !stop.`,
      { limit, retryAfterSeconds: RETRY_AFTER_SECONDS },
    )
  }
  return new SlotLease(store, key, token, ttlSeconds)
}
