/**
 * Sorting rows: a stable multi-key sort returning row numbers. N/A is the smallest value (first
 * ascending, last descending), text sorts by code (= string order), floats by value with -0
 * equal to 0. Keys become unsigned words, narrow words are packed together into 32-bit radix
 * keys (two int keys with small ranges sort as one key), and a radix sort orders them (radix.ts;
 * several radix keys, radix-keys.ts).
 */
import { sortPositions, type RadixKey } from './radix.js'
import { sortWords, type SortWord } from './sort-words.js'
import { NA_INT, type Column } from './types.js'

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
  if (base === undefined && limit !== undefined && keys.length > 0) {
    const candidates = leadingCandidates(keys[0], rows, limit)
    if (candidates !== null) return sortPermutation(keys, rows, candidates, limit)
  }
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

/** Rows sampled to guess a bound on the first key of a top-N. */
const SAMPLE = 4096

/**
 * For a top-N of few rows among many: the rows whose first key comes no later than a bound
 * guessed from a sample, in row order, so that only they need sort words; null when the guess
 * keeps fewer than `limit` rows (the caller then sorts every row) or the top-N is not small.
 * Any row among the first `limit` has a first key no later than the limit-th smallest, which
 * comes no later than the bound once at least `limit` rows are within it, so none is lost; ties
 * on the bound are all kept, and the full sort of the candidates settles their order.
 */
function leadingCandidates(key: SortKey, n: number, limit: number): Int32Array | null {
  // Big integers sort on two words without this shortcut (a bound would need 64-bit compares).
  if (n < 2 * SAMPLE || limit * 16 > n || key.col.type === 'bigint') return null
  const c = key.col
  const data = c.type === 'text' ? c.codes : c.data
  const step = Math.floor(n / SAMPLE)
  const sample = new Float64Array(SAMPLE)
  for (let i = 0; i < SAMPLE; i++) sample[i] = rank(c, key.desc, i * step)
  sample.sort()
  // Four times the expected share, and a margin, so that the bound rarely falls short.
  const bound = sample[Math.min(SAMPLE - 1, Math.ceil((4 * limit * SAMPLE) / n) + 16)]
  // Going down, N/A comes last: a bound at N/A keeps every row, nothing to gain.
  if (bound === Number.POSITIVE_INFINITY) return null
  // Within the bound, in value terms: going up, at most `bound` (N/A included: NaN fails `>`,
  // and NA_INT and code 0 are the smallest values); going down, at least -bound (N/A never).
  const count = key.desc ? countAtLeast(data, n, -bound) : countAtMost(data, n, bound)
  if (count < limit || count > n / 4) return null
  return key.desc ? rowsAtLeast(data, n, -bound, count) : rowsAtMost(data, n, bound, count)
}

/** A number per row, smaller for rows that sort earlier (N/A first going up, last going down; -0 as 0). */
function rank(c: Exclude<Column, { type: 'bigint' }>, desc: boolean, r: number): number {
  if (c.type === 'float') {
    const v = c.data[r]
    if (v !== v) return desc ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY
    return (desc ? -v : v) + 0
  }
  const v = c.type === 'text' ? c.codes[r] : c.data[r]
  if (!desc) return v // N/A (NA_INT, text code 0) is already the smallest
  return v === (c.type === 'text' ? 0 : NA_INT) ? Number.POSITIVE_INFINITY : -v
}

// Plain loops over one comparison each: with the N/A test and a sign in the loop it ran 4x slower.

function countAtMost(d: Int32Array | Float64Array, n: number, bound: number): number {
  let k = 0
  for (let r = 0; r < n; r++) if (!(d[r] > bound)) k++
  return k
}

function rowsAtMost(d: Int32Array | Float64Array, n: number, bound: number, count: number): Int32Array {
  const out = new Int32Array(count)
  for (let r = 0, k = 0; r < n; r++) if (!(d[r] > bound)) out[k++] = r
  return out
}

function countAtLeast(d: Int32Array | Float64Array, n: number, lo: number): number {
  let k = 0
  for (let r = 0; r < n; r++) if (d[r] >= lo) k++
  return k
}

function rowsAtLeast(d: Int32Array | Float64Array, n: number, lo: number, count: number): Int32Array {
  const out = new Int32Array(count)
  for (let r = 0, k = 0; r < n; r++) if (d[r] >= lo) out[k++] = r
  return out
}
