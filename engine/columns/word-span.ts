/**
 * Big integers that lie close together as Int32 keys. Real ids usually do (sequence numbers,
 * timestamps in one range): when the values other than N/A are within 2^32 − 2 of each other,
 * v − min is exact in 32 bits and orders like v, so the column can be grouped, linked and sorted
 * as one word, by the kernels written for ints, instead of as a pair of words.
 */
import { NA_INT } from './types.js'

/** The high word of N/A (−2^63; its low word is 0). */
const NA_HI = -2147483648
const TWO_32 = 4294967296
/** The widest span (largest value − smallest) whose offsets stay clear of NA_INT as Int32 keys. */
const MAX_SPAN = TWO_32 - 2
/** Key of offset d: d − 2^31 + 1, so offsets 0 … 2^32 − 2 fill every Int32 but NA_INT. */
const BIAS = NA_INT + 1

/** The smallest value (N/A aside) as words, and the span up to the largest. */
export interface WordSpan {
  /** Low word of the smallest value, unsigned. */
  readonly minLo: number
  /** High word of the smallest value. */
  readonly minHi: number
  /** Largest value − smallest; -1 when every value is N/A. */
  readonly span: number
}

/**
 * The range of the n values in `words` (word 2r low, 2r+1 high) if it is at most MAX_SPAN wide,
 * else null. One pass comparing word pairs; it stops as soon as the high words of two values are
 * more than one apart, so a column of spread values (hashes) costs a few rows.
 */
export function wordSpan(words: Int32Array, n: number): WordSpan | null {
  let minHi = 0x7fffffff
  let minLo = TWO_32
  let maxHi = NA_HI
  let maxLo = -1
  for (let r = 0; r < n; r++) {
    const hi = words[2 * r + 1]
    const lo = words[2 * r] >>> 0
    if (hi === NA_HI && lo === 0) continue
    if (hi < minHi || (hi === minHi && lo < minLo)) {
      minHi = hi
      minLo = lo
    }
    if (hi > maxHi || (hi === maxHi && lo > maxLo)) {
      maxHi = hi
      maxLo = lo
    }
    if (maxHi - minHi > 1) return null
  }
  if (maxLo < 0) return { minLo: 0, minHi: 0, span: -1 }
  const span = (maxHi - minHi) * TWO_32 + maxLo - minLo
  return span <= MAX_SPAN ? { minLo, minHi, span } : null
}

/**
 * Key per value of a column within `s`: its offset from the smallest value, biased into the Int32
 * range (the smallest value is NA_INT + 1), and NA_INT for N/A. Every value is within the span,
 * so only the low words are needed: v − min < 2^32 is the difference of the low words mod 2^32.
 */
export function offsetKeys(words: Int32Array, n: number, s: WordSpan): Int32Array {
  const keys = new Int32Array(n)
  const base = BIAS - s.minLo
  for (let r = 0; r < n; r++) {
    const lo = words[2 * r]
    keys[r] = words[2 * r + 1] === NA_HI && lo === 0 ? NA_INT : (lo + base) | 0
  }
  return keys
}

/**
 * offsetKeys for values that may lie outside the span (another column probing this one): those
 * get NA_INT too, and `outside` counts them, for the caller to tell them from N/A if it must.
 */
export function probeOffsetKeys(words: Int32Array, n: number, s: WordSpan): { keys: Int32Array; outside: number } {
  const keys = new Int32Array(n)
  const { minLo, minHi, span } = s
  let outside = 0
  for (let r = 0; r < n; r++) {
    const lo = words[2 * r]
    const hi = words[2 * r + 1]
    if (hi === NA_HI && lo === 0) {
      keys[r] = NA_INT
      continue
    }
    // Exact while the high words are near; far apart, the rounded value is still far outside.
    const d = (hi - minHi) * TWO_32 + ((lo >>> 0) - minLo)
    const inside = d >= 0 && d <= span
    keys[r] = inside ? (d + BIAS) | 0 : NA_INT
    outside += +!inside
  }
  return { keys, outside }
}
