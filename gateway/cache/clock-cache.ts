/**
 * A size-bounded cache that keeps what is used, for memos hit on every request (parsed records,
 * compiled queries). It approximates least-recently-used eviction with the CLOCK rule: a hit only
 * marks its entry as used, where an exact LRU (gateway/tables/fair-lru.ts) deletes and re-inserts the key in
 * its Map on every hit, which costs more than the look-up itself. When over budget, entries are
 * looked at oldest first: a used one loses its mark and goes to the back, an unused one goes.
 */
interface Slot<V> {
  readonly value: V
  readonly size: number
  used: boolean
}

export class ClockCache<V> {
  readonly #slots = new Map<string, Slot<V>>()
  #used = 0

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V, key: string) => number,
  ) {}

  /** How many entries are held. */
  get count(): number {
    return this.#slots.size
  }

  /** What the entries held are charged, in the unit of sizeOf. */
  get size(): number {
    return this.#used
  }

  get(key: string): V | undefined {
    const slot = this.#slots.get(key)
    if (slot === undefined) return undefined
    slot.used = true
    return slot.value
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value, key)
    this.delete(key)
    // Something larger than the whole budget is served but not kept.
    if (size > this.budget) return
    this.#slots.set(key, { value, size, used: false })
    this.#used += size
    this.#evict()
  }

  delete(key: string): void {
    const slot = this.#slots.get(key)
    if (slot === undefined) return
    this.#slots.delete(key)
    this.#used -= slot.size
  }

  #evict(): void {
    while (this.#used > this.budget) {
      const [key, slot] = this.#slots.entries().next().value as [string, Slot<V>]
      this.#slots.delete(key)
      if (slot.used) {
        // A second chance: to the back, unmarked.
        slot.used = false
        this.#slots.set(key, slot)
      } else {
        this.#used -= slot.size
      }
    }
  }
}
