/**
 * The counting pass of the direct-slot grouping (columns/key-slots.ts, interpret/ops/tabu-slots.ts),
 * which finds the key range as it goes. Rows arrive in row order, so every group adds its values
 * in the same order as the fold kernels of parts.ts, and the results are bit-identical.
 */
import { NA_INT } from '../columns/types.js'

// --- The counting pass -------------------------------------------------------------------------
//
// counts[slot]++ for worksheet rows from … to-1 (read through `rows` when given; -1 there is a
// row with no source row: N/A key and value), fused with at most one sum over a float column so
// that the commonest tabulation (cnt and sum) reads its rows once. Slots are as in KeySlots: N/A
// is 0, key k is k - lo + 1 for lo ≤ k < lo + width. Each loop stops at the first row whose key
// has no slot and returns it (`to` when none), for the caller to widen the table and go on.
//
// How the loops are written, each choice measured on 10M rows:
// - Rows go four at a time while all four keys have slots: a third faster than one at a time
//   (V8 does not unroll loops). A quartet with an N/A or out-of-range key, and the last few rows,
//   go one at a time, then the quartets resume.
// - N/A (the smallest Int32) fails the range test and is sorted out on that rarely taken branch.
// - The slot is computed only for keys in range, so the arithmetic never leaves small integers
//   (an overflow seen once would make V8 recompile the loop with doubles).
// - One loop per shape: V8 compiles a loop once, and a test inside it for an optional array
//   would run on every row. Reading through a row index is left simple: it is not the hot case.

/** Rows per slot. */
export function countKeys(keys: Int32Array, rows: Int32Array | null, from: number, to: number, lo: number, width: number, counts: Int32Array): number {
  if (rows !== null) return countKeysThrough(keys, rows, from, to, lo, width, counts)
  const last = lo + width - 1
  const base = 1 - lo
  let i = from
  while (i < to) {
    for (; i + 3 < to; i += 4) {
      const k0 = keys[i]
      const k1 = keys[i + 1]
      const k2 = keys[i + 2]
      const k3 = keys[i + 3]
      if (!(k0 >= lo && k0 <= last && k1 >= lo && k1 <= last && k2 >= lo && k2 <= last && k3 >= lo && k3 <= last)) break
      counts[k0 + base]++
      counts[k1 + base]++
      counts[k2 + base]++
      counts[k3 + base]++
    }
    for (const end = Math.min(i + 4, to); i < end; i++) {
      const k = keys[i]
      let g = 0
      if (k >= lo && k <= last) g = k + base
      else if (k !== NA_INT) return i
      counts[g]++
    }
  }
  return to
}

function countKeysThrough(keys: Int32Array, rows: Int32Array, from: number, to: number, lo: number, width: number, counts: Int32Array): number {
  const last = lo + width - 1
  const base = 1 - lo
  for (let i = from; i < to; i++) {
    const r = rows[i]
    const k = r < 0 ? NA_INT : keys[r]
    let g = 0
    if (k >= lo && k <= last) g = k + base
    else if (k !== NA_INT) return i
    counts[g]++
  }
  return to
}

/** Rows per slot, and the sum of x's non-N/A values (x read through the same rows). */
export function countKeysSum(
  keys: Int32Array,
  x: Float64Array,
  rows: Int32Array | null,
  from: number,
  to: number,
  lo: number,
  width: number,
  counts: Int32Array,
  s: Float64Array,
): number {
  if (rows !== null) return countKeysSumThrough(keys, x, rows, from, to, lo, width, counts, s)
  const last = lo + width - 1
  const base = 1 - lo
  let i = from
  while (i < to) {
    for (; i + 3 < to; i += 4) {
      const k0 = keys[i]
      const k1 = keys[i + 1]
      const k2 = keys[i + 2]
      const k3 = keys[i + 3]
      if (!(k0 >= lo && k0 <= last && k1 >= lo && k1 <= last && k2 >= lo && k2 <= last && k3 >= lo && k3 <= last)) break
      const g0 = k0 + base
      const g1 = k1 + base
      const g2 = k2 + base
      const g3 = k3 + base
      const v0 = x[i]
      const v1 = x[i + 1]
      const v2 = x[i + 2]
      const v3 = x[i + 3]
      counts[g0]++
      if (v0 === v0) s[g0] += v0
      counts[g1]++
      if (v1 === v1) s[g1] += v1
      counts[g2]++
      if (v2 === v2) s[g2] += v2
      counts[g3]++
      if (v3 === v3) s[g3] += v3
    }
    for (const end = Math.min(i + 4, to); i < end; i++) {
      const k = keys[i]
      let g = 0
      if (k >= lo && k <= last) g = k + base
      else if (k !== NA_INT) return i
      counts[g]++
      const v = x[i]
      if (v === v) s[g] += v
    }
  }
  return to
}

function countKeysSumThrough(
  keys: Int32Array,
  x: Float64Array,
  rows: Int32Array,
  from: number,
  to: number,
  lo: number,
  width: number,
  counts: Int32Array,
  s: Float64Array,
): number {
  const last = lo + width - 1
  const base = 1 - lo
  for (let i = from; i < to; i++) {
    const r = rows[i]
    const k = r < 0 ? NA_INT : keys[r]
    let g = 0
    if (k >= lo && k <= last) g = k + base
    else if (k !== NA_INT) return i
    counts[g]++
    const v = r < 0 ? Number.NaN : x[r]
    if (v === v) s[g] += v
  }
  return to
}

/** As countKeysSum, also counting the non-N/A values into n (for avg and cntnna). */
export function countKeysSumValid(
  keys: Int32Array,
  x: Float64Array,
  rows: Int32Array | null,
  from: number,
  to: number,
  lo: number,
  width: number,
  counts: Int32Array,
  n: Int32Array,
  s: Float64Array,
): number {
  if (rows !== null) return countKeysSumValidThrough(keys, x, rows, from, to, lo, width, counts, n, s)
  const last = lo + width - 1
  const base = 1 - lo
  let i = from
  while (i < to) {
    for (; i + 3 < to; i += 4) {
      const k0 = keys[i]
      const k1 = keys[i + 1]
      const k2 = keys[i + 2]
      const k3 = keys[i + 3]
      if (!(k0 >= lo && k0 <= last && k1 >= lo && k1 <= last && k2 >= lo && k2 <= last && k3 >= lo && k3 <= last)) break
      const g0 = k0 + base
      const g1 = k1 + base
      const g2 = k2 + base
      const g3 = k3 + base
      const v0 = x[i]
      const v1 = x[i + 1]
      const v2 = x[i + 2]
      const v3 = x[i + 3]
      counts[g0]++
      if (v0 === v0) addValid(n, s, g0, v0)
      counts[g1]++
      if (v1 === v1) addValid(n, s, g1, v1)
      counts[g2]++
      if (v2 === v2) addValid(n, s, g2, v2)
      counts[g3]++
      if (v3 === v3) addValid(n, s, g3, v3)
    }
    for (const end = Math.min(i + 4, to); i < end; i++) {
      const k = keys[i]
      let g = 0
      if (k >= lo && k <= last) g = k + base
      else if (k !== NA_INT) return i
      counts[g]++
      const v = x[i]
      if (v === v) addValid(n, s, g, v)
    }
  }
  return to
}

function countKeysSumValidThrough(
  keys: Int32Array,
  x: Float64Array,
  rows: Int32Array,
  from: number,
  to: number,
  lo: number,
  width: number,
  counts: Int32Array,
  n: Int32Array,
  s: Float64Array,
): number {
  const last = lo + width - 1
  const base = 1 - lo
  for (let i = from; i < to; i++) {
    const r = rows[i]
    const k = r < 0 ? NA_INT : keys[r]
    let g = 0
    if (k >= lo && k <= last) g = k + base
    else if (k !== NA_INT) return i
    counts[g]++
    const v = r < 0 ? Number.NaN : x[r]
    if (v === v) addValid(n, s, g, v)
  }
  return to
}

/** One non-N/A value into slot g (small enough for V8 to inline). */
function addValid(n: Int32Array, s: Float64Array, g: number, v: number): void {
  n[g]++
  s[g] += v
}
