/**
 * MAX_QUERIES_PER_SESSION and MAX_QUERIES_PER_USER: how many queries one session, and one user
 * over all their sessions, may have running at once, counted over every gateway, so the counts
 * live in the Store: `sessq:{uid}:{sid}` and `userq:{uid}`, each one JSON string
 * `{"<token>": <expires at, ms since the epoch>, …}` with one entry (a slot) per running query.
 * A query takes one slot in each, under the same token, in one compare-and-set. (The session's key
 * names the uid too so that on a Redis Cluster both keys share the user's hash tag and one slot,
 * as a compare-and-set over two keys needs: shared/store/redis-cluster-keys.ts.)
 *
 * Why a user count beside the session's: a user can start a new session (`kill=yes`) while the
 * old one's queries still run, and so run any number of queries; the user's count follows them.
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
import { AppError } from '../../../shared/errors.js'
import type { Store, WriteOp } from '../../../shared/store/index.js'
import { retryCleanup } from './retry-cleanup.js'
import { storedObject } from './stored-json.js'

/** Seconds a slot lives without a refresh: how long a crashed gateway's queries still count. */
export const SLOT_TTL_SECONDS = 30

/** Compare-and-set attempts before giving up (only under heavy contention on one session). */
const MAX_ATTEMPTS = 40

/** What a refused session is told to wait, in seconds. */
const RETRY_AFTER_SECONDS = 1

/** Who runs the query: the session, and the user it belongs to. */
export interface SessionOwner {
  readonly sid: string
  readonly uid: string
}

export const slotsKey = (session: SessionOwner): string => `sessq:${session.uid}:${session.sid}`
export const userSlotsKey = (uid: string): string => `userq:${uid}`

/** One count a query takes a slot in: its Store key, its limit and how a refusal names it. */
export interface SlotCounter {
  readonly key: string
  readonly limit: number
  /** Says who is at the limit, e.g. `This session already has 4 queries running`. */
  readonly refusal: (running: number) => string
}

const queries = (n: number) => `${n} ${n === 1 ? 'query' : 'queries'}`

/** The session's count (MAX_QUERIES_PER_SESSION). */
export const sessionCounter = (session: SessionOwner, limit: number): SlotCounter => ({
  key: slotsKey(session),
  limit,
  refusal: (running) =>
    `This session already has ${queries(running)} running, the limit (MAX_QUERIES_PER_SESSION = ${limit}); wait for one to finish, or stop one with !stop.`,
})

/** The user's count over all their sessions and gateways (MAX_QUERIES_PER_USER). */
export const userCounter = (uid: string, limit: number): SlotCounter => ({
  key: userSlotsKey(uid),
  limit,
  refusal: (running) =>
    `User "${uid}" already has ${queries(running)} running over all their sessions, the limit (MAX_QUERIES_PER_USER = ${limit}); wait for one to finish, or stop one with !stop.`,
})

type Slots = Record<string, number>

/** The live slots of a stored value; anything unreadable counts as no slots (it is rewritten on the next change). */
function liveSlots(raw: string | null, now: number): Slots {
  const value = raw === null ? null : storedObject(raw)
  const out: Slots = {}
  if (value === null) return out
  for (const [token, expires] of Object.entries(value)) if (typeof expires === 'number' && expires > now) out[token] = expires
  return out
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Applies `change` to the live slots of every key with one compare-and-set; `change` returns the
 * new slots (one map per key), or null to leave them as they are. Resolves whether a change was
 * written.
 */
async function updateSlots(
  store: Store,
  keys: readonly string[],
  ttlSeconds: number,
  change: (slots: Slots[], now: number) => Slots[] | null,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const seen = await store.watch(keys)
    const now = Date.now()
    const next = change(
      keys.map((_, i) => liveSlots(seen.values[i], now)),
      now,
    )
    if (next === null) return false
    const writes: WriteOp[] = keys.map((key, i) =>
      Object.keys(next[i]).length === 0 ? { op: 'del', key } : { op: 'set', key, value: JSON.stringify(next[i]), ttl: ttlSeconds },
    )
    if (await store.batch(writes, seen)) return true
    // Another gateway changed the slots meanwhile: read them again, after a short random pause so
    // that contenders do not keep colliding.
    await sleep(Math.random() * Math.min(50, 2 ** attempt))
  }
  throw new AppError('TOO_MANY_REQUESTS', 'Too many queries of this session or user are starting at once; try again.', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  })
}

/** One running query's slot: refreshed while it runs, released (once) when it ends. */
export class SlotLease {
  private timer: NodeJS.Timeout | null = null
  /** Store writes of this lease run one after another, so a late refresh cannot put a released slot back. */
  private queue: Promise<boolean> = Promise.resolve(true)
  private released = false
  /** When the slot lapses unless refreshed: it was just taken when the lease is made. */
  private heldUntil: number

  constructor(
    private readonly store: Store,
    private readonly keys: readonly string[],
    private readonly token: string,
    private readonly ttlSeconds: number,
  ) {
    this.heldUntil = Date.now() + ttlSeconds * 1000
    this.timer = setInterval(() => this.refresh(), (ttlSeconds * 1000) / 3)
    // Housekeeping must never be what keeps a process alive.
    this.timer.unref()
  }

  /**
   * Frees the slot; idempotent, never rejects. When the Store is away the release is tried again
   * until it succeeds or the slot has lapsed (retry-cleanup.ts says why).
   */
  async release(): Promise<void> {
    if (this.released) {
      await this.queue
      return
    }
    this.released = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    const free = () =>
      this.enqueue(() =>
        updateSlots(this.store, this.keys, this.ttlSeconds, (slots) => {
          if (slots.every((s) => !(this.token in s))) return null
          return slots.map(({ [this.token]: _, ...rest }) => rest)
        }),
      )
    if (!(await free())) retryCleanup(free, this.heldUntil)
  }

  /** Pushes the slot's expiry forward (putting it back if it lapsed while the Store was away: the query does run). */
  private refresh(): void {
    if (this.released) return
    const until = Date.now() + this.ttlSeconds * 1000
    void this.enqueue(async () => {
      await updateSlots(this.store, this.keys, this.ttlSeconds, (slots, now) => slots.map((s) => ({ ...s, [this.token]: now + this.ttlSeconds * 1000 })))
      this.heldUntil = until
    })
  }

  /** Runs a write after the ones before it; answers whether it succeeded. */
  private enqueue(step: () => Promise<unknown>): Promise<boolean> {
    const next = this.queue.then(step).then(
      () => true,
      () => false,
    )
    this.queue = next
    return next
  }
}

/**
 * Takes one slot in each of `counters` for a query about to run, or refuses with 429
 * TOO_MANY_REQUESTS (Retry-After 1 s), naming the first count that is full, when any is. Release
 * the lease however the query ends.
 */
export async function acquireSlots(store: Store, counters: readonly SlotCounter[], ttlSeconds = SLOT_TTL_SECONDS): Promise<SlotLease> {
  const keys = counters.map((c) => c.key)
  const token = randomBytes(9).toString('base64url')
  // The count found full on the last read, for the refusal.
  const full: { counter?: SlotCounter; running: number } = { running: 0 }
  const taken = await updateSlots(store, keys, ttlSeconds, (slots, now) => {
    for (const [i, counter] of counters.entries()) {
      const running = Object.keys(slots[i]).length
      if (running >= counter.limit) {
        full.counter = counter
        full.running = running
        return null
      }
    }
    return slots.map((s) => ({ ...s, [token]: now + ttlSeconds * 1000 }))
  })
  if (!taken) {
    // Not taken means a count was found full, which set `full`.
    const counter = full.counter as SlotCounter
    throw new AppError('TOO_MANY_REQUESTS', counter.refusal(full.running), { limit: counter.limit, retryAfterSeconds: RETRY_AFTER_SECONDS })
  }
  return new SlotLease(store, keys, token, ttlSeconds)
}

/** Takes one of the session's `limit` slots (see acquireSlots). */
export function acquireSlot(store: Store, session: SessionOwner, limit: number, ttlSeconds = SLOT_TTL_SECONDS): Promise<SlotLease> {
  return acquireSlots(store, [sessionCounter(session, limit)], ttlSeconds)
}

/**
 * Takes a slot of the session (MAX_QUERIES_PER_SESSION) and of its user (MAX_QUERIES_PER_USER)
 * for a query a request is about to run: what every route that runs a query takes.
 */
export function acquireQuerySlot(store: Store, session: SessionOwner, limits: { readonly perSession: number; readonly perUser: number }): Promise<SlotLease> {
  return acquireSlots(store, [sessionCounter(session, limits.perSession), userCounter(session.uid, limits.perUser)])
}
