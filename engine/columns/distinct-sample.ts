/**
 * Whether 8-byte keys look mostly distinct, from a sample: a hash table that grows by doubling
 * from small re-inserts every key once or twice on its way to millions of groups (a 64-bit id
 * unique per row: ClickBench's WatchID, or the merged groups of a split run), so a table that
 * will hold about as many keys as rows is better made that large at once. Keys that repeat keep
 * the small table: sizing it for the rows would waste memory and cache.
 */
import { internWords } from './word-ids.js'

/** Rows sampled, evenly spread. */
const SAMPLE = 1024

/**
 * True when at least 90% of a sample of the n word-pair keys (word 2r low, 2r+1 high) differ: the
 * keys then have nearly as many distinct values as rows.
 */
export function mostlyDistinct(words: Int32Array, n: number): boolean {
  if (n < 4 * SAMPLE) return false
  const step = Math.floor(n / SAMPLE)
  const sample = new Int32Array(2 * SAMPLE)
  for (let i = 0; i < SAMPLE; i++) {
    sample[2 * i] = words[2 * i * step]
    sample[2 * i + 1] = words[2 * i * step + 1]
  }
  return internWords(sample, SAMPLE, null).count >= 0.9 * SAMPLE
}
