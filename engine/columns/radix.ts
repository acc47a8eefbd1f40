/**
 * Stable radix sort of positions by unsigned keys of at most 32 bits (several keys: see
 * radix-keys.ts). One key is sorted most-significant-digit first: a single pass
 * scatters the rows into up to 2048 buckets by their top bits, then each bucket, small enough
 * to stay in cache, is sorted by the remaining bits with least-significant-digit passes.
 * Scattering over a large array is what costs (every write lands on a different cache line
 * and page), so doing it once instead of once per digit is the main saving.
 */

import { sortByKeys } from './radix-keys.js'
import { topCandidates } from './top-candidates.js'

/** One radix key per position: values in [0, 2^bits), bits <= 32. */
export interface RadixKey {
  readonly values: Uint32Array
  readonly bits: number
}

const TOP_BITS = 11
const LOCAL_BITS = 8
const INSERTION_LIMIT = 48

/** Row data being sorted: key values and positions, with scratch arrays of the same size. */
interface Buffers {
  vals: Uint32Array
  perm: Int32Array
  tmpVals: Uint32Array
  tmpPerm: Int32Array
}

/**
 * Positions 0…n-1 ordered by `keys` (most significant first), ties in position order. The
 * keys' arrays are used as scratch space (the caller hands them over).
 * @param limit only the first `limit` positions are wanted (a sort read only by a first-N
 *   selection): the rows that can be among them are found from the top bits of the first key,
 *   and only those are sorted
 */
export function sortPositions(keys: readonly RadixKey[], n: number, limit = n): Int32Array {
  const active = keys.filter((k) => k.bits > 0)
  if (limit < n && active.length > 0 && n > INSERTION_LIMIT) return firstPositions(active, n, Math.max(limit, 0))
  if (active.length > 1 && n >= 2) return sortByKeys(active, n).subarray(0, Math.max(Math.min(limit, n), 0))
  const perm = new Int32Array(n)
  for (let i = 0; i < n; i++) perm[i] = i
  if (active.length === 0 || n < 2) return perm.subarray(0, Math.max(Math.min(limit, n), 0))
  if (n <= INSERTION_LIMIT) return insertionSort(active, perm).subarray(0, Math.max(Math.min(limit, n), 0))
  const buf: Buffers = { vals: active[0].values, perm, tmpVals: new Uint32Array(n), tmpPerm: new Int32Array(n) }
  sortByKey(buf, n, active[0].bits)
  return buf.perm
}

/**
 * The first `limit` positions in order, sorting only the candidates (top-candidates.ts: every
 * position among the first `limit`, found digit by digit). Candidates come in position order, so
 * ties keep it.
 */
function firstPositions(keys: readonly RadixKey[], n: number, limit: number): Int32Array {
  if (limit === 0) return new Int32Array(0)
  const candidates = topCandidates(keys, n, limit)
  // Nothing narrowed them: a full sort, of the keys themselves.
  if (candidates === null) return sortPositions(keys, n).subarray(0, limit)
  const m = candidates.length
  const picked = keys.map((k) => {
    const values = new Uint32Array(m)
    for (let j = 0; j < m; j++) values[j] = k.values[candidates[j]]
    return { values, bits: k.bits }
  })
  const order = sortPositions(picked, m)
  const out = new Int32Array(Math.min(limit, m))
  for (let j = 0; j < out.length; j++) out[j] = candidates[order[j]]
  return out
}

/** Stable sort of buf by vals (bits wide); the result is left in buf.vals / buf.perm. */
function sortByKey(buf: Buffers, n: number, bits: number): void {
  if (bits <= TOP_BITS) {
    lsdRange(buf, 0, n, bits, new Int32Array(1 << bits))
    return
  }
  const low = bits - TOP_BITS
  const size = 1 << TOP_BITS
  const starts = new Int32Array(size + 1)
  const { vals, perm, tmpVals, tmpPerm } = buf
  for (let i = 0; i < n; i++) starts[(vals[i] >>> low) + 1]++
  for (let b = 0; b < size; b++) starts[b + 1] += starts[b]
  const next = starts.slice(0, size)
  for (let i = 0; i < n; i++) {
    const v = vals[i]
    const dst = next[v >>> low]++
    tmpVals[dst] = v
    tmpPerm[dst] = perm[i]
  }
  swap(buf)
  const lowMask = low === 32 ? 0xffffffff : (1 << low) - 1
  const counts = new Int32Array(1 << LOCAL_BITS)
  for (let b = 0; b < size; b++) {
    if (starts[b + 1] - starts[b] > 1) lsdRange(buf, starts[b], starts[b + 1], low, counts, lowMask)
  }
}

/**
 * LSD passes over buf[from, to) by the low `bits` of each value, ending with the sorted range
 * in buf.vals / buf.perm (a range that ends up in the scratch arrays is copied back).
 */
function lsdRange(buf: Buffers, from: number, to: number, bits: number, counts: Int32Array, valueMask = 0xffffffff): void {
  const passes = Math.ceil(bits / LOCAL_BITS)
  const digitBits = Math.ceil(bits / passes)
  const mask = (1 << digitBits) - 1
  let { vals, perm, tmpVals, tmpPerm } = buf
  for (let p = 0; p < passes; p++) {
    const shift = p * digitBits
    counts.fill(0, 0, mask + 1)
    for (let i = from; i < to; i++) counts[((vals[i] & valueMask) >>> shift) & mask]++
    let sum = from
    for (let d = 0; d <= mask; d++) {
      const c = counts[d]
      counts[d] = sum
      sum += c
    }
    for (let i = from; i < to; i++) {
      const v = vals[i]
      const dst = counts[((v & valueMask) >>> shift) & mask]++
      tmpVals[dst] = v
      tmpPerm[dst] = perm[i]
    }
    ;[vals, tmpVals] = [tmpVals, vals]
    ;[perm, tmpPerm] = [tmpPerm, perm]
  }
  if (passes % 2 === 1) {
    buf.vals.set(vals.subarray(from, to), from)
    buf.perm.set(perm.subarray(from, to), from)
  }
}

function swap(buf: Buffers): void {
  const v = buf.vals
  buf.vals = buf.tmpVals
  buf.tmpVals = v
  const p = buf.perm
  buf.perm = buf.tmpPerm
  buf.tmpPerm = p
}

/** For a handful of rows, where clearing radix counters would cost more than sorting. */
function insertionSort(keys: readonly RadixKey[], perm: Int32Array): Int32Array {
  for (let i = 1; i < perm.length; i++) {
    const p = perm[i]
    let j = i - 1
    while (j >= 0 && compare(keys, perm[j], p) > 0) {
      perm[j + 1] = perm[j]
      j--
    }
    perm[j + 1] = p
  }
  return perm
}

function compare(keys: readonly RadixKey[], a: number, b: number): number {
  for (const k of keys) {
    const d = k.values[a] - k.values[b]
    if (d !== 0) return d
  }
  return 0
}
