/**
 * A Map that holds at most `max` entries, dropping the oldest insertion when full. For memos of
 * pure derivations (a parse, a hash) on the request path: a hit is one Map lookup, with none of
 * an LRU's reordering, and an entry dropped too early only costs its derivation again.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>()

  constructor(readonly max: number) {
    if (!(Number.isInteger(max) && max >= 1)) throw new Error('BoundedMap needs a whole number of entries, 1 or more')
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)
  }

  set(key: K, value: V): void {
    if (!this.#entries.has(key) && this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as K)
    this.#entries.set(key, value)
  }

  delete(key: K): void {
    this.#entries.delete(key)
  }

  get size(): number {
    return this.#entries.size
  }
}
