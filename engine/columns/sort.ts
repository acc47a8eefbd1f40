/**
 * Sorting rows: a stable multi-key sort returning row numbers. N/A is the smallest value (first
 * ascending, last descending), text sorts by code (= string order), floats by value with -0
 * equal to 0. Keys become unsigned words, narrow words are packed together into 32-bit radix
 * keys (two int keys with small ranges sort as one key), and an LSD radix sort orders them.
 */
import { sortPositions, type RadixKey } from './radix.js'
import { sortWords, type SortWord } from './sort-words.js'
import type { Column } from './types.js'

/** A sort key: the column and its direction. */
export interface SortKey {
  readonly col: Column
  readonly desc: boolean
}

/**
 * Row numbers in sorted order; ties keep their incoming order.
 * @param base the rows to sort, in their incoming order (default: 0…rows-1); the result is a
 *   permutation of `base`
 * @param limit only the first `limit` of them are wanted (a top-N): the answer is that prefix
 */
export function sortPermutation(keys: readonly SortKey[], rows: number, base?: Int32Array, limit?: number): Int32Array {
  const rowOf = base ?? null
  const n = rowOf === null ? rows : rowOf.length
  const words: SortWord[] = []
  for (const k of keys) words.push(...sortWords(k.col, k.desc, n, rowOf))
  const positions = sortPositions(packWords(words, n), n, limit ?? n)
  if (rowOf === null) return positions
  for (let i = 0; i < positions.length; i++) positions[i] = rowOf[positions[i]]
  return positions
}

/**
 * Packs words (most significant first) into as few 32-bit radix keys as possible, filling from
 * the least significant end: [a:10 bits, b:17 bits] becomes one key a·2^17 + b.
 */
function packWords(words: readonly SortWord[], n: number): RadixKey[] {
  const live = words.filter((w) => w.bits > 0)
  const packed: RadixKey[] = []
  let i = live.length - 1
  while (i >= 0) {
    const values = new Uint32Array(n)
    let bits = 0
    while (i >= 0 && bits + live[i].bits <= 32) {
      live[i].write(values, bits)
      bits += live[i--].bits
    }
    packed.unshift({ values, bits })
  }
  return packed
}
