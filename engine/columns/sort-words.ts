/**
 * Sort keys as unsigned integer "words" whose numeric order is the wanted order: N/A smallest
 * ascending and largest descending, ties left for the next key. Each word knows its bit width
 * (after subtracting its minimum) and writes itself, shifted, into a 32-bit radix key, so
 * narrow keys share one radix key without an intermediate array per key.
 */
import { bigintWords, isNaWords } from './bigint.js'
import { wordSpan, type WordSpan } from './word-span.js'
import { NA_INT, type Column } from './types.js'

/** One sort key reduced to an unsigned integer per position. */
export interface SortWord {
  readonly bits: number
  /** ORs the word, shifted left by `shift` bits, into target[0…n). */
  readonly write: (target: Uint32Array, shift: number) => void
}

/** Bits needed to hold 0…max. */
export const bitWidth = (max: number): number => (max <= 0 ? 0 : Math.floor(Math.log2(max)) + 1)

/**
 * The words of one key (one for int, date and text; two for float, high word first).
 * @param rowOf positions → rows (null: position i is row i)
 */
export function sortWords(col: Column, desc: boolean, n: number, rowOf: Int32Array | null): SortWord[] {
  if (col.type === 'bigint') return bigintSortWords(bigintWords(col.data), desc, n, rowOf)
  if (col.type === 'float') {
    const data = rowOf === null ? col.data : gatherFloat(col.data, rowOf)
    const scaled = decimalScaled(data, n)
    return scaled ? [intWord(scaled, NA_INT, desc, n)] : floatWords(data, desc, n)
  }
  // Text codes order like their strings and code 0 (N/A) is the smallest, like NA_INT for ints.
  const data = col.type === 'text' ? col.codes : col.data
  return [intWord(rowOf === null ? data : gatherInt(data, rowOf), col.type === 'text' ? 0 : NA_INT, desc, n)]
}

// Gathering the sorted rows first keeps the word loops free of an indirection per row.
function gatherInt(data: Int32Array, rowOf: Int32Array): Int32Array {
  const out = new Int32Array(rowOf.length)
  for (let i = 0; i < out.length; i++) out[i] = data[rowOf[i]]
  return out
}

function gatherFloat(data: Float64Array, rowOf: Int32Array): Float64Array {
  const out = new Float64Array(rowOf.length)
  for (let i = 0; i < out.length; i++) out[i] = data[rowOf[i]]
  return out
}

function intWord(data: Int32Array, na: number, desc: boolean, n: number): SortWord {
  let min = 0x7fffffff
  let max = -0x7fffffff
  // Selects rather than ifs (conditional moves, no mispredictions); N/A must win neither.
  for (let i = 0; i < n; i++) {
    const v = data[i]
    const isNa = v === na
    min = !isNa && v < min ? v : min
    max = !isNa && v > max ? v : max
  }
  if (max < min) return { bits: 0, write: () => {} } // every value N/A: nothing to order by
  // Ascending: N/A 0, values 1…top; descending: values 0…top-1 (largest first), N/A top.
  const top = max - min + 1
  return { bits: bitWidth(top), write: desc ? descWriter(data, na, max, top, n) : ascWriter(data, na, min, n) }
}

// Writers are made by separate functions and copy what they need into locals, so their loops
// read registers rather than closure contexts.
function ascWriter(data: Int32Array, na: number, min: number, n: number): SortWord['write'] {
  return (target, shift) => {
    const d = data
    const nav = na
    const off = 1 - min
    for (let i = 0; i < n; i++) {
      const v = d[i]
      target[i] |= (v === nav ? 0 : v + off) << shift
    }
  }
}

function descWriter(data: Int32Array, na: number, max: number, top: number, n: number): SortWord['write'] {
  return (target, shift) => {
    const d = data
    const nav = na
    const hi = max
    const last = top
    for (let i = 0; i < n; i++) {
      const v = d[i]
      target[i] |= (v === nav ? last : hi - v) << shift
    }
  }
}

/** Decimal scales tried for floats, smallest first. */
const SCALES = [1, 10, 100, 1000, 10000]
/** Scaled values must stay clear of NA_INT and fit an Int32. */
const SCALED_LIMIT = 2 ** 31 - 1

/**
 * Most float columns hold decimals of a few places (prices, amounts). When every value is
 * exactly the double nearest to k/s for one scale s of SCALES and an integer k that fits an
 * Int32, the integers k order exactly like the values (k ↦ k/s is increasing and, at these
 * magnitudes, one-to-one), so the column sorts as one narrow integer key instead of two 32-bit
 * words: a single radix key where it would take two or three. Returns the k (NA_INT for NaN),
 * or null when the column is not like that.
 */
function decimalScaled(data: Float64Array, n: number): Int32Array | null {
  const out = new Int32Array(n)
  let s = 0
  for (let i = 0; i < n; i++) {
    const v = data[i]
    if (v !== v) {
      out[i] = NA_INT
      continue
    }
    const k = scaledValue(v, SCALES[s])
    if (k !== null) {
      out[i] = k
      continue
    }
    // v needs a finer scale: take the next one that fits it and start over (at most 4 times).
    do s++
    while (s < SCALES.length && scaledValue(v, SCALES[s]) === null)
    if (s === SCALES.length) return null
    i = -1
  }
  return out
}

/** round(v·scale) when v is exactly the double nearest to it divided by scale, else null. */
function scaledValue(v: number, scale: number): number | null {
  const k = Math.round(v * scale)
  return k / scale === v && k <= SCALED_LIMIT && k >= -SCALED_LIMIT ? k : null
}

/**
 * IEEE doubles as two order-preserving 32-bit words: positive numbers get the sign bit set,
 * negative numbers are inverted, and NaN (N/A) becomes 0:0, below -Infinity.
 */
function floatWords(data: Float64Array, desc: boolean, n: number): SortWord[] {
  const tmp = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const v = data[i]
    tmp[i] = v === 0 ? 0 : v // -0 sorts with 0
  }
  const raw = new Uint32Array(tmp.buffer) // little-endian: low word first
  const hi = new Uint32Array(n)
  const lo = new Uint32Array(n)
  const flip = desc ? 0xffffffff : 0
  for (let i = 0; i < n; i++) {
    let h = raw[2 * i + 1]
    let l = raw[2 * i]
    const v = tmp[i]
    if (v !== v) {
      h = 0
      l = 0
    } else if (h >= 0x80000000) {
      h = ~h >>> 0
      l = ~l >>> 0
    } else {
      h = (h | 0x80000000) >>> 0
    }
    hi[i] = (h ^ flip) >>> 0
    lo[i] = (l ^ flip) >>> 0
  }
  return [arrayWord(hi, n), arrayWord(lo, n)]
}

/**
 * Signed 64-bit integers as order-preserving 32-bit words. Values within 2^32 − 2 of each other
 * (word-span.ts) make one word, their offset from the smallest, so the column sorts like an int
 * column. Others make two: the high word with its sign bit flipped, the low word as unsigned.
 * N/A (−2^63) becomes the smallest word ascending (0, or 0:0) and the largest descending.
 */
function bigintSortWords(all: Int32Array, desc: boolean, n: number, rowOf: Int32Array | null): SortWord[] {
  const words = rowOf === null ? all : gatherWords(all, rowOf)
  const span = wordSpan(words, n)
  if (span !== null) return [arrayWord(offsetWord(words, n, span, desc), n)]
  const hi = new Uint32Array(n)
  const lo = new Uint32Array(n)
  const flip = desc ? 0xffffffff : 0
  for (let i = 0; i < n; i++) {
    hi[i] = (words[2 * i + 1] ^ 0x80000000 ^ flip) >>> 0
    lo[i] = (words[2 * i] ^ flip) >>> 0
  }
  return [arrayWord(hi, n), arrayWord(lo, n)]
}

function gatherWords(words: Int32Array, rowOf: Int32Array): Int32Array {
  const out = new Int32Array(2 * rowOf.length)
  for (let i = 0; i < rowOf.length; i++) {
    out[2 * i] = words[2 * rowOf[i]]
    out[2 * i + 1] = words[2 * rowOf[i] + 1]
  }
  return out
}

/**
 * Offsets d = v − min (exact in 32 bits within the span): d + 1 ascending with N/A at 0; span − d
 * descending with N/A at span + 1. Both stay within 32 bits, as the span is at most 2^32 − 2.
 */
function offsetWord(words: Int32Array, n: number, s: WordSpan, desc: boolean): Uint32Array {
  const out = new Uint32Array(n)
  const minLo = s.minLo
  const na = desc ? s.span + 1 : 0
  const top = desc ? s.span : 0
  const sign = desc ? -1 : 1
  const one = desc ? 0 : 1
  for (let i = 0; i < n; i++) {
    const lo = words[2 * i]
    const d = (lo - minLo) >>> 0
    out[i] = isNaWords(lo, words[2 * i + 1]) ? na : top + sign * d + one
  }
  return out
}

/** A materialised word, its minimum subtracted so it needs as few bits as its spread. */
function arrayWord(values: Uint32Array, n: number): SortWord {
  let min = 0xffffffff
  let max = 0
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (v < min) min = v
    if (v > max) max = v
  }
  if (n === 0 || min === max) return { bits: 0, write: () => {} }
  if (min > 0) for (let i = 0; i < n; i++) values[i] -= min
  return {
    bits: bitWidth(max - min),
    write: (target, shift) => {
      const src = values
      for (let i = 0; i < n; i++) target[i] |= src[i] << shift
    },
  }
}
