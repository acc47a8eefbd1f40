/**
 * Interning pairs of group ids into dense ids numbered by first appearance: how the per-column
 * ids of a multi-column key are combined. When the pair space is small enough the pair becomes
 * one Int32 key (a·countB + b) instead. (8-byte values, big integers and floats, are interned
 * from their two words in place by word-ids.ts.)
 */
import { internInt32, type Interned } from './int-ids.js'

/** Pairs interned, and a way to find other pairs' ids (-1: absent). */
export interface InternedPairs {
  readonly ids: Int32Array
  readonly count: number
  find(a: Int32Array, b: Int32Array, n: number): Int32Array
}

const GOLDEN = 0x9e3779b1
const MIX = 0x85ebca77

/**
 * Interns pairs of group ids (a < countA, b < countB). A row with a negative id on either side
 * (left out by a mask, or not found) gets -1.
 */
export function internIdPairs(a: Int32Array, countA: number, b: Int32Array, countB: number, n: number): InternedPairs {
  if (countA * countB <= 0x7fffffff) {
    // Both ids are small: a·countB + b is a unique Int32 key, and Int32 interning is faster.
    const keys = new Int32Array(n)
    let missing = 0
    for (let r = 0; r < n; r++) {
      const x = a[r]
      const y = b[r]
      keys[r] = x * countB + y
      missing |= +(x < 0) | +(y < 0)
    }
    const inner: Interned = internInt32(keys, n, missing === 0 ? null : missingMask(a, b, n))
    return { ids: inner.ids, count: inner.count, find: compositeFinder(inner, countB) }
  }
  return internPairs(a, b, n)
}

/** 0 where either id is missing (-1), else 1: only built when some id is missing. */
function missingMask(a: Int32Array, b: Int32Array, n: number): Uint8Array {
  const mask = new Uint8Array(n)
  for (let r = 0; r < n; r++) mask[r] = +(a[r] >= 0) & +(b[r] >= 0)
  return mask
}

/** Interns pairs of ids with a hash table; a row with a negative id on either side gets -1. */
function internPairs(a: Int32Array, b: Int32Array, n: number): InternedPairs {
  let bits = 10
  let cap = 1 << bits
  let keyA: Int32Array = new Int32Array(cap)
  let keyB: Int32Array = new Int32Array(cap)
  let slotId: Int32Array = new Int32Array(cap).fill(-1)
  const ids = new Int32Array(n)
  let count = 0
  for (let r = 0; r < n; r++) {
    const x = a[r]
    const y = b[r]
    if (x < 0 || y < 0) {
      ids[r] = -1
      continue
    }
    const m = cap - 1
    let h = hashPair(x, y) >>> (32 - bits)
    let id = slotId[h]
    while (id >= 0 && (keyA[h] !== x || keyB[h] !== y)) {
      h = (h + 1) & m
      id = slotId[h]
    }
    if (id < 0) {
      id = count++
      keyA[h] = x
      keyB[h] = y
      slotId[h] = id
      if (count * 2 > cap) {
        bits++
        cap = 1 << bits
        ;[keyA, keyB, slotId] = rehashPairs(keyA, keyB, slotId, bits)
      }
    }
    ids[r] = id
  }
  return { ids, count, find: pairFinder(keyA, keyB, slotId, bits) }
}

/**
 * Lookups of composite keys a·countB + b. Closures are built by separate functions so that the
 * interning loops' variables stay out of heap contexts (see int-ids.ts).
 */
function compositeFinder(inner: Interned, countB: number): InternedPairs['find'] {
  return (pa, pb, m) => {
    const k = new Int32Array(m)
    for (let i = 0; i < m; i++) k[i] = pa[i] < 0 || pb[i] < 0 ? -1 : pa[i] * countB + pb[i]
    const out = inner.find(k, m)
    for (let i = 0; i < m; i++) if (k[i] < 0) out[i] = -1
    return out
  }
}

function pairFinder(tA: Int32Array, tB: Int32Array, tId: Int32Array, tBits: number): InternedPairs['find'] {
  return (pa, pb, m) => {
    const out = new Int32Array(m)
    const mk = (1 << tBits) - 1
    for (let i = 0; i < m; i++) {
      const x = pa[i]
      const y = pb[i]
      if (x < 0 || y < 0) {
        out[i] = -1
        continue
      }
      let h = hashPair(x, y) >>> (32 - tBits)
      let id = tId[h]
      while (id >= 0 && (tA[h] !== x || tB[h] !== y)) {
        h = (h + 1) & mk
        id = tId[h]
      }
      out[i] = id
    }
    return out
  }
}

/** A 32-bit hash of a pair; the caller keeps its top bits. */
function hashPair(x: number, y: number): number {
  let h = Math.imul(x, GOLDEN) ^ Math.imul(y ^ 0x7f4a7c15, MIX)
  h ^= h >>> 15
  return Math.imul(h, GOLDEN)
}

function rehashPairs(oldA: Int32Array, oldB: Int32Array, oldId: Int32Array, bits: number): [Int32Array, Int32Array, Int32Array] {
  const cap = 1 << bits
  const m = cap - 1
  const keyA = new Int32Array(cap)
  const keyB = new Int32Array(cap)
  const slotId = new Int32Array(cap).fill(-1)
  for (let s = 0; s < oldId.length; s++) {
    const id = oldId[s]
    if (id < 0) continue
    let h = hashPair(oldA[s], oldB[s]) >>> (32 - bits)
    while (slotId[h] >= 0) h = (h + 1) & m
    keyA[h] = oldA[s]
    keyB[h] = oldB[s]
    slotId[h] = id
  }
  return [keyA, keyB, slotId]
}
