/**
 * Interning 8-byte keys (big integers, and floats by their bit pattern) into dense ids numbered
 * by first appearance, read in place as word pairs: word 2r is row r's low half, 2r+1 its high
 * half (the Int32Array view of a BigInt64Array or Float64Array on a little-endian host).
 *
 * The table keeps a slot's two key words and its id side by side (three Int32 lanes: lo, hi,
 * id + 1), so a probe usually touches one cache line where separate key and id arrays touch
 * three; id + 1 makes a zeroed allocation an empty table. (Measured on 10M rows of 1M keys:
 * three lanes ran 5-15% faster than four, whose table is a third larger; a table of ids beside
 * an array of keys by id, two misses a probe, ran slower than either.) Both words are mixed into one 32-bit
 * hash and both compared, so every 64-bit value is its own key, N/A (−2^63) included.
 */

/** Keys turned into ids, and a way to find other keys' ids without adding them. */
export interface InternedWords {
  /** Per row: the key's id, or -1 for rows left out by the mask. */
  readonly ids: Int32Array
  readonly count: number
  /** Ids of the n word-pair keys in `words`; -1 where a key is not present. */
  find(words: Int32Array, n: number): Int32Array
}

const GOLDEN = 0x9e3779b1
const MIX = 0x85ebca77
/** Int32 lanes per slot. */
const LANES = 3

/**
 * The slot hash of a key: the high word multiplied into the low one (odd multiplier: keys that
 * share either word still differ), then Fibonacci hashing, whose top bits the caller keeps.
 */
const hashWords = (lo: number, hi: number): number => Math.imul(lo ^ Math.imul(hi, MIX), GOLDEN)

/**
 * Interns the n keys of `words`; rows whose mask is 0 get id -1.
 * @param expected about how many distinct keys to expect (sizes the first table; it grows anyway)
 */
export function internWords(words: Int32Array, n: number, mask: Uint8Array | null, expected = 0): InternedWords {
  let bits = 10
  while (1 << (bits - 1) < expected && bits < 28) bits++
  let table: Int32Array = new Int32Array(LANES << bits)
  const ids = new Int32Array(n)
  let count = 0
  let prevLo = 0
  let prevHi = 0
  let prevId = -1 // runs of one key (sorted or clustered data) skip the probe
  for (let r = 0; r < n; r++) {
    if (mask !== null && mask[r] === 0) {
      ids[r] = -1
      continue
    }
    const lo = words[2 * r]
    const hi = words[2 * r + 1]
    if (lo === prevLo && hi === prevHi && prevId >= 0) {
      ids[r] = prevId
      continue
    }
    const m = (1 << bits) - 1
    let s = hashWords(lo, hi) >>> (32 - bits)
    let id = table[s * LANES + 2] - 1
    while (id >= 0 && (table[s * LANES] !== lo || table[s * LANES + 1] !== hi)) {
      s = (s + 1) & m
      id = table[s * LANES + 2] - 1
    }
    if (id < 0) {
      id = count++
      table[s * LANES] = lo
      table[s * LANES + 1] = hi
      table[s * LANES + 2] = id + 1
      // Half full at most: linear probing's chains stay short.
      if (count * 2 > 1 << bits) table = rehash(table, ++bits)
    }
    ids[r] = prevId = id
    prevLo = lo
    prevHi = hi
  }
  return { ids, count, find: finder(table, bits) }
}

/**
 * Lookups in the table. Built by a separate function so that the interning loop's variables are
 * not captured by a closure (captured variables live in a heap context, reloaded every row).
 */
function finder(table: Int32Array, bits: number): InternedWords['find'] {
  return (words, n) => {
    const t = table
    const shift = 32 - bits
    const m = (1 << bits) - 1
    const out = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const lo = words[2 * i]
      const hi = words[2 * i + 1]
      let s = hashWords(lo, hi) >>> shift
      let id = t[s * LANES + 2] - 1
      while (id >= 0 && (t[s * LANES] !== lo || t[s * LANES + 1] !== hi)) {
        s = (s + 1) & m
        id = t[s * LANES + 2] - 1
      }
      out[i] = id
    }
    return out
  }
}

function rehash(old: Int32Array, bits: number): Int32Array {
  const table = new Int32Array(LANES << bits)
  const m = (1 << bits) - 1
  for (let o = 0; o < old.length; o += LANES) {
    if (old[o + 2] === 0) continue
    const lo = old[o]
    const hi = old[o + 1]
    let s = hashWords(lo, hi) >>> (32 - bits)
    while (table[s * LANES + 2] !== 0) s = (s + 1) & m
    table[s * LANES] = lo
    table[s * LANES + 1] = hi
    table[s * LANES + 2] = old[o + 2]
  }
  return table
}
