/**
 * A least-recently-used cache with a byte budget shared fairly between users (the table cache,
 * TABLE_CACHE_MB). Under plain LRU one user reading big tables pushed every other user's tables
 * out, and each of their next queries read its table from disk again. Without `whose` every
 * entry is one user's, and it is a plain LRU (the result memo).
 *
 * The rule. Each entry is charged to the user who used it last. A user is active while they have
 * used the cache within the last ACTIVE_MS (10 minutes); each active user's share is the budget
 * divided by the number of active users holding entries, and an inactive user's share is nothing.
 * When room is needed, the least recently used entry of a user holding more than their share goes
 * first. So:
 *  - a user alone uses the whole budget, as before;
 *  - a user within their share loses nothing to others: whoever is over their share (usually the
 *    one loading) gives up their own oldest entries, and a table larger than its loader's share is
 *    served but not kept while others fill theirs;
 *  - entries of users gone quiet for 10 minutes go first, oldest first, as in plain LRU.
 * Someone is always over their share when the cache is over budget (the active shares add up to
 * the budget), so room can always be made.
 *
 * Loads are deduplicated as in lru.ts: concurrent requests for one missing key share one load.
 */

/** How long after their last use a user's entries are protected by a share. */
export const ACTIVE_MS = 10 * 60_000

interface Slot<V> {
  readonly value: V
  readonly size: number
  owner: string
}

export interface FairLruOptions {
  /** Who is using the cache now ('' when no user is known: one more user). */
  readonly whose?: () => string
  readonly activeMs?: number
  readonly now?: () => number
}

export class FairLruCache<V> {
  /** In order of use, least recent first. */
  private readonly entries = new Map<string, Slot<V>>()
  private readonly loading = new Map<string, Promise<V>>()
  /** Bytes charged to each user who holds entries. */
  private readonly held = new Map<string, number>()
  /** When each user last used the cache. */
  private readonly lastUse = new Map<string, number>()
  private used = 0
  private readonly whose: () => string
  private readonly activeMs: number
  private readonly now: () => number
  hits = 0
  misses = 0

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
    opts: FairLruOptions = {},
  ) {
    this.whose = opts.whose ?? (() => '')
    this.activeMs = opts.activeMs ?? ACTIVE_MS
    this.now = opts.now ?? Date.now
  }

  get size(): number {
    return this.used
  }

  get count(): number {
    return this.entries.size
  }

  /** Bytes charged to `user`. */
  bytesOf(user: string): number {
    return this.held.get(user) ?? 0
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key)
    if (!e) return undefined
    this.entries.delete(key)
    this.entries.set(key, e)
    this.charge(e, this.user())
    return e.value
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value)
    this.delete(key)
    // Something larger than the whole budget is served but not kept.
    if (size > this.budget) return
    const slot: Slot<V> = { value, size, owner: this.user() }
    this.entries.set(key, slot)
    this.used += size
    this.held.set(slot.owner, this.bytesOf(slot.owner) + size)
    while (this.used > this.budget) this.delete(this.victim())
  }

  delete(key: string): void {
    const e = this.entries.get(key)
    if (!e) return
    this.entries.delete(key)
    this.used -= e.size
    this.release(e.owner, e.size)
  }

  /** The cached value, or the result of `load` (cached), with concurrent loads shared. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key)
    if (hit !== undefined) {
      this.hits++
      return hit
    }
    const pending = this.loading.get(key)
    // Sharing a load is a use too: the entry is charged to whoever used it last.
    if (pending) return pending.then((v) => (this.get(key), v))
    this.misses++
    const p = load().then(
      (v) => {
        this.loading.delete(key)
        this.set(key, v)
        return v
      },
      (err: unknown) => {
        this.loading.delete(key)
        throw err
      },
    )
    this.loading.set(key, p)
    return p
  }

  /** The current user, stamped as active now. */
  private user(): string {
    const user = this.whose()
    this.lastUse.set(user, this.now())
    return user
  }

  private charge(e: Slot<V>, user: string): void {
    if (e.owner === user) return
    this.release(e.owner, e.size)
    this.held.set(user, this.bytesOf(user) + e.size)
    e.owner = user
  }

  private release(user: string, size: number): void {
    const left = this.bytesOf(user) - size
    if (left > 0) {
      this.held.set(user, left)
      return
    }
    this.held.delete(user)
    this.lastUse.delete(user)
  }

  /** The entry to drop next: the least recently used of a user over their share (see the top). */
  private victim(): string {
    const now = this.now()
    const active = new Set([...this.held.keys()].filter((u) => now - (this.lastUse.get(u) ?? 0) < this.activeMs))
    const share = this.budget / Math.max(1, active.size)
    const over = (u: string): boolean => this.bytesOf(u) > (active.has(u) ? share : 0)
    for (const [key, e] of this.entries) if (over(e.owner)) return key
    // Unreachable while the cache is over budget; plain LRU all the same.
    return this.entries.keys().next().value!
  }
}
