/**
 * A small seeded pseudo-random generator (mulberry32) for demo data. Math.random cannot be
 * seeded, and demo tables must come out byte-identical for the same seed. mulberry32's period of
 * 2^32 is ample for demo data; it is not for anything that needs real randomness.
 */

/** A seeded random stream with the helpers the demo generators need. */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** A uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  /** Approximately standard normal (sum of four uniforms, rescaled): cheap and bounded by ±3.5. */
  normal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * Math.sqrt(3)
  }

  /** An index drawn with the given non-negative weights (compiled once by `weights`). */
  weighted(table: WeightTable): number {
    const u = this.next() * table.total
    const cum = table.cumulative
    // Binary search for the first cumulative weight above u.
    let lo = 0
    let hi = cum.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (u < cum[mid]) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}

/** Cumulative weights for Rng.weighted. */
export interface WeightTable {
  readonly cumulative: Float64Array
  readonly total: number
}

/** Compile weights (e.g. [40, 20, 10]) into a table for Rng.weighted. */
export function weights(w: readonly number[]): WeightTable {
  const cumulative = new Float64Array(w.length)
  let total = 0
  w.forEach((x, i) => {
    total += x
    cumulative[i] = total
  })
  return { cumulative, total }
}

/** Derive an independent seed for a named sub-stream, so one table does not shift another. */
export function subSeed(seed: number, stream: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  return h >>> 0
}

/** The bare stream of an Rng: each call gives the next uniform float in [0, 1). */
export function randomStream(seed: number): () => number {
  const rng = new Rng(seed)
  return () => rng.next()
}
