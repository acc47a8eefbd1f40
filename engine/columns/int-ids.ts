/**
 * Interning Int32 keys into dense ids 0…count-1, numbered by first appearance: the core of
 * group-by and of link lookups. Small key ranges use a direct lookup table; others an
 * open-addressing hash table (linear probing, Fibonacci hashing) that doubles as it fills.
 * The hot loops keep the table in local variables so V8 keeps them in registers.
 */
import { NA_INT } from './types.js'

/** Keys turned into ids, and a way to find other keys' ids without adding them. */
export interface Interned {
  /** Per row: the key's id, or -1 for rows left out by the mask. */
  readonly ids: Int32Array
  readonly count: number
  /** Ids of `keys` (n of them) in this table; -1 where a key is not present. */
  find(keys: Int32Array, n: number): Int32Array
}

/** A lookup table this large (entries) is still cheaper than hashing. */
const DENSE_LIMIT = 1 << 24

/** The widest key range interned through a lookup table when `uses` keys will be looked up. */
export const lookupLimit = (uses: number): number => Math.min(DENSE_LIMIT, Math.max(1 << 16, 2 * uses))

/** Multiplicative (Fibonacci) hash: the top `bits` of key × 2^32/φ. */
const GOLDEN = 0x9e3779b1

/**
 * Interns `keys[0…n)`; rows whose mask is 0 get id -1. NA_INT is an ordinary key.
 * @param mask optional 0/1 per row; null keeps every row
 * @param uses how many keys the table will serve, probes included: a lookup table pays for
 *   itself when it is not much larger than that
 */
export function internInt32(keys: Int32Array, n: number, mask: Uint8Array | null, uses = n): Interned {
  const [min, max] = intRange(keys, n)
  return internInRange(keys, n, mask, min, max >= min ? max - min + 1 : 0, uses)
}

/**
 * internInt32 when the range of the keys is known: every key other than NA_INT lies in
 * [min, min + width).
 */
export function internInRange(keys: Int32Array, n: number, mask: Uint8Array | null, min: number, width: number, uses = n): Interned {
  const span = width + 1 // +1 slot for NA_INT at index 0
  if (span <= lookupLimit(uses)) return internDense(keys, n, mask, min, span)
  return internHashed(keys, n, mask)
}

/**
 * Smallest and largest key other than `na` (min > max when there is none). Written with selects
 * rather than ifs, which V8 compiles to conditional moves: about a third faster on random data.
 */
export function intRange(keys: Int32Array, n: number, na = NA_INT): [number, number] {
  let min = 0x7fffffff
  let max = -0x7fffffff
  for (let r = 0; r < n; r++) {
    const k = keys[r]
    const isNa = k === na
    min = !isNa && k < min ? k : min
    max = !isNa && k > max ? k : max
  }
  return [min, max]
}

function internDense(keys: Int32Array, n: number, mask: Uint8Array | null, min: number, span: number): Interned {
  const lut = new Int32Array(span).fill(-1)
  const ids = new Int32Array(n)
  const base = 1 - min // slot of key k is k + base; NA_INT uses slot 0
  const count = mask === null ? denseIds(keys, n, lut, base, ids) : denseIdsMasked(keys, n, mask, lut, base, ids)
  return { ids, count, find: denseFinder(lut, base, span) }
}

// The unmasked loop is the hot one; keeping the mask test out of it roughly halves its cost.
function denseIds(keys: Int32Array, n: number, lut: Int32Array, base: number, ids: Int32Array): number {
  let count = 0
  for (let r = 0; r < n; r++) {
    const k = keys[r]
    const slot = k === NA_INT ? 0 : (k + base) | 0
    let id = lut[slot]
    if (id < 0) lut[slot] = id = count++
    ids[r] = id
  }
  return count
}

function denseIdsMasked(keys: Int32Array, n: number, mask: Uint8Array, lut: Int32Array, base: number, ids: Int32Array): number {
  let count = 0
  for (let r = 0; r < n; r++) {
    if (mask[r] === 0) {
      ids[r] = -1
      continue
    }
    const k = keys[r]
    const slot = k === NA_INT ? 0 : (k + base) | 0
    let id = lut[slot]
    if (id < 0) lut[slot] = id = count++
    ids[r] = id
  }
  return count
}

/**
 * Lookups in a dense table. Built by a separate function so that the hot interning loop's
 * variables are not captured by a closure (captured variables live in a heap context, which
 * V8 reloads on every iteration).
 */
function denseFinder(lut: Int32Array, base: number, span: number): Interned['find'] {
  return (probe, m) => {
    const out = new Int32Array(m)
    for (let i = 0; i < m; i++) {
      const k = probe[i]
      if (k === NA_INT) {
        out[i] = lut[0]
      } else {
        const slot = k + base // a key below min would land on NA's slot 0, hence >= 1
        out[i] = slot >= 1 && slot < span ? lut[slot] : -1
      }
    }
    return out
  }
}

function internHashed(keys: Int32Array, n: number, mask: Uint8Array | null): Interned {
  let bits = 10
  let cap = 1 << bits
  let slotKey: Int32Array = new Int32Array(cap)
  let slotId: Int32Array = new Int32Array(cap).fill(-1)
  const ids = new Int32Array(n)
  let count = 0
  let prevKey = 0
  let prevId = -1 // runs of one key (sorted or clustered data) skip the probe
  for (let r = 0; r < n; r++) {
    if (mask !== null && mask[r] === 0) {
      ids[r] = -1
      continue
    }
    const k = keys[r]
    if (k === prevKey && prevId >= 0) {
      ids[r] = prevId
      continue
    }
    const m = cap - 1
    let h = Math.imul(k, GOLDEN) >>> (32 - bits)
    let id = slotId[h]
    while (id >= 0 && slotKey[h] !== k) {
      h = (h + 1) & m
      id = slotId[h]
    }
    if (id < 0) {
      id = count++
      slotKey[h] = k
      slotId[h] = id
      if (count * 2 > cap) {
        bits++
        cap = 1 << bits
        ;[slotKey, slotId] = rehashInt32(slotKey, slotId, bits)
      }
    }
    ids[r] = prevId = id
    prevKey = k
  }
  return { ids, count, find: hashFinder(slotKey, slotId, bits) }
}

/** Lookups in a hash table (a separate function for the reason given at denseFinder). */
function hashFinder(tableKey: Int32Array, tableId: Int32Array, tableBits: number): Interned['find'] {
  return (probe, m) => {
    const out = new Int32Array(m)
    const mk = (1 << tableBits) - 1
    for (let i = 0; i < m; i++) {
      const k = probe[i]
      let h = Math.imul(k, GOLDEN) >>> (32 - tableBits)
      let id = tableId[h]
      while (id >= 0 && tableKey[h] !== k) {
        h = (h + 1) & mk
        id = tableId[h]
      }
      out[i] = id
    }
    return out
  }
}

function rehashInt32(oldKey: Int32Array, oldId: Int32Array, bits: number): [Int32Array, Int32Array] {
  const cap = 1 << bits
  const m = cap - 1
  const slotKey = new Int32Array(cap)
  const slotId = new Int32Array(cap).fill(-1)
  for (let s = 0; s < oldId.length; s++) {
    const id = oldId[s]
    if (id < 0) continue
    const k = oldKey[s]
    let h = Math.imul(k, GOLDEN) >>> (32 - bits)
    while (slotId[h] >= 0) h = (h + 1) & m
    slotKey[h] = k
    slotId[h] = id
  }
  return [slotKey, slotId]
}
