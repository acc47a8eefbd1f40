/**
 * A least-recently-used cache with a size budget (bytes, rows — whatever `sizeOf` measures).
 * Loads are deduplicated: concurrent requests for one missing key share one load.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>()
  private readonly loading = new Map<string, Promise<V>>()
  private used = 0
  hits = 0
  misses = 0

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size(): number {
    return this.used
  }

  /** How many entries are held. */
  get count(): number {
    return this.entries.size
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key)
    if (!e) return undefined
    this.entries.delete(key)
    this.entries.set(key, e)
    return e.value
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value)
    this.delete(key)
    // Something larger than the whole budget is served but not kept.
    if (size > this.budget) return
    this.entries.set(key, { value, size })
    this.used += size
    for (const [k, e] of this.entries) {
      if (this.used <= this.budget) break
      this.entries.delete(k)
      this.used -= e.size
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key)
    if (!e) return
    this.entries.delete(key)
    this.used -= e.size
  }

  /** The cached value, or the result of `load` (cached), with concurrent loads shared. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key)
    if (hit !== undefined) {
      this.hits++
      return hit
    }
    const pending = this.loading.get(key)
    if (pending) return pending
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
}
