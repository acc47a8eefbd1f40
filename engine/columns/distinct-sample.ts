/**
 * How many distinct 8-byte keys to expect, from a sample: a hash table that grows by doubling
 * from small re-inserts every key once or twice on its way to millions of groups (a 64-bit id
 * unique per row: ClickBench's WatchID, or the merged groups of a split run), so a table that will
 * hold many keys is better made about that large at once.
 *
 * Rows are sampled at random positions, not at a stride: on keys sorted or clustered in runs a
 * strided sample never meets two rows of a run and would take them all for distinct. Among s
 * random rows, about s²/2D pairs share a key when there are D distinct keys of similar
 * frequency, so D ≈ s²/(2 · collisions). Skewed keys collide more and are underestimated, which
 * costs only the doubling the estimate was to save; an overestimate would cost memory, and
 * comes only from few collisions by chance. The sample is small because it is taken on every
 * grouping by such a key, however few its groups.
 */
import { internWords } from './word-ids.js'

/** Rows sampled. */
const SAMPLE = 4096

/**
 * About how many distinct keys the n word-pair keys hold (word 2r low, 2r+1 high), when the
 * sample says many; 0 when it says few (below the sample's size) or n is small.
 */
export function estimatedDistinct(words: Int32Array, n: number): number {
  if (n < 8 * SAMPLE) return 0
  const sample = new Int32Array(2 * SAMPLE)
  let x = 0x9e3779b9 ^ n
  for (let i = 0; i < SAMPLE; i++) {
    // xorshift32: positions spread over the rows whatever their order.
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    const r = (x >>> 0) % n
    sample[2 * i] = words[2 * r]
    sample[2 * i + 1] = words[2 * r + 1]
  }
  const collisions = SAMPLE - internWords(sample, SAMPLE, null).count
  const estimate = collisions === 0 ? n : Math.min(n, Math.round((SAMPLE * SAMPLE) / (2 * collisions)))
  return estimate >= SAMPLE ? estimate : 0
}
