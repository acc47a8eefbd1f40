/**
 * Which results this gateway wrote to the Store lately, so that a repeated query does not write
 * its whole result again on every request. A result's key is a hash of its recipe (query and
 * table versions), so the copy already there holds the same rows; writing it again only renewed
 * its lifetime.
 *
 * Skipping a write is always safe: a reader that finds no copy (expired, evicted, never written)
 * computes the result again. To keep copies of results still in use alive, a key is written again
 * once half the Store's TTL has passed since this gateway last wrote it.
 */
export class RecentStoreCopies {
  readonly #writtenAt = new Map<string, number>()

  constructor(
    /** Seconds a result copied to the Store lives there after it is written. */
    private readonly ttlSeconds: number,
    /** Keys remembered; the oldest are forgotten first (forgetting only costs a write). */
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the caller should write the result now (and it is then counted as written). */
  claim(key: string): boolean {
    const t = this.now()
    const at = this.#writtenAt.get(key)
    if (at !== undefined && t - at < (this.ttlSeconds * 1000) / 2) return false
    this.#writtenAt.delete(key)
    this.#writtenAt.set(key, t)
    if (this.#writtenAt.size > this.maxKeys) this.#writtenAt.delete(this.#writtenAt.keys().next().value!)
    return true
  }

  /** Forgets a key whose write failed, so the next request tries again. */
  forget(key: string): void {
    this.#writtenAt.delete(key)
  }

  get size(): number {
    return this.#writtenAt.size
  }
}
