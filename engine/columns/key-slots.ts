/**
 * Direct-indexed slots for grouping by one integer key: slot 0 holds N/A and key k holds slot
 * k - lo + 1, so per-group accumulators are plain arrays indexed by slot and no per-row group-id
 * array is ever written.
 *
 * The key range is not scanned beforehand (that would be a pass over the rows of its own): the
 * table starts empty and the counting pass widens it whenever a row's key falls outside. It
 * widens at least twofold each time, so keys that keep rising (a sorted column) cost log(range)
 * copies rather than one per new key. Past the limit it refuses, and the caller groups another way.
 */
import { NA_INT, type Column } from './types.js'

export type SlotArray = Int32Array | Float64Array

/** A per-slot array owned by a KeySlots table, which replaces `data` when it widens. */
export class SlotVector<T extends SlotArray> {
  constructor(
    public data: T,
    /** The value of a slot nothing has touched. */
    readonly fill: number,
  ) {}
}

/**
 * The widest key range given direct slots over `rows` rows: beyond it the per-slot arrays
 * outgrow their use, and a general group-by serves better.
 */
export const slotLimit = (rows: number): number => Math.max(1 << 16, rows >> 3)

/** Keys the table may give slots to: every Int32 but NA_INT. */
const MIN_KEY = NA_INT + 1
const MAX_KEY = 0x7fffffff

export class KeySlots {
  /** The key held by slot 1. */
  lo = 0
  /** Keys lo … lo + width - 1 have slots. */
  width = 0
  private readonly vectors: SlotVector<SlotArray>[] = []
  /** Rows per slot: what tells a used slot from spare room. */
  readonly counts: SlotVector<Int32Array>

  /** @param limit the most keys (excluding N/A) the table may span */
  constructor(readonly limit: number) {
    this.counts = this.int32()
  }

  /** Slots per vector: N/A plus the key range. */
  get size(): number {
    return this.width + 1
  }

  int32(fill = 0): SlotVector<Int32Array> {
    return this.track(new SlotVector(new Int32Array(this.size).fill(fill), fill))
  }

  float64(fill = 0): SlotVector<Float64Array> {
    return this.track(new SlotVector(new Float64Array(this.size).fill(fill), fill))
  }

  /** The key of a slot (NA_INT for slot 0). */
  keyOf(slot: number): number {
    return slot === 0 ? NA_INT : this.lo + slot - 1
  }

  /**
   * Makes sure keys min … max have slots, widening the table (and every vector) if needed.
   * @returns false when the keys seen so far and these would span more than `limit`; the table
   *   is then unchanged
   */
  include(min: number, max: number): boolean {
    if (this.width > 0 && min >= this.lo && max <= this.lo + this.width - 1) return true
    // Measured on the keys that have rows, not on the table, whose spare room would compound.
    const [usedMin, usedMax] = this.usedRange()
    const any = usedMin <= usedMax
    const newMin = any ? Math.min(min, usedMin) : min
    const newMax = any ? Math.max(max, usedMax) : max
    const need = newMax - newMin + 1
    if (need > this.limit) return false
    const width = Math.min(this.limit, Math.max(need, 2 * this.width))
    // The spare room goes on the side that grew: keys falling below the range leave it below.
    const grewDown = any && min < usedMin
    const lo = Math.max(MIN_KEY, Math.min(grewDown ? newMax - width + 1 : newMin, MAX_KEY - width + 1))
    this.widen(lo, width, usedMin, usedMax)
    return true
  }

  /** Smallest and largest key with rows (min > max when there is none). */
  private usedRange(): [number, number] {
    const c = this.counts.data
    let first = 1
    while (first < c.length && c[first] === 0) first++
    let last = c.length - 1
    while (last >= first && c[last] === 0) last--
    return [this.keyOf(first), last >= first ? this.keyOf(last) : this.keyOf(first) - 1]
  }

  private track<T extends SlotArray>(v: SlotVector<T>): SlotVector<T> {
    this.vectors.push(v as SlotVector<SlotArray>)
    return v
  }

  /**
   * Reallocates every vector for keys lo … lo + width - 1, keeping slot 0 and the slots of keys
   * usedMin … usedMax: no other slot has been written.
   */
  private widen(lo: number, width: number, usedMin: number, usedMax: number): void {
    const from = 1 + usedMin - this.lo
    const to = 2 + usedMax - this.lo
    for (const v of this.vectors) {
      const old = v.data
      const next = (old instanceof Float64Array ? new Float64Array(width + 1) : new Int32Array(width + 1)).fill(v.fill)
      next[0] = old[0]
      if (usedMin <= usedMax) next.set(old.subarray(from, to), 1 + usedMin - lo)
      v.data = next
    }
    this.lo = lo
    this.width = width
  }
}

/** The key of worksheet row i: `keys[i]`, or through the row index (-1: N/A). */
export function keyAt(keys: Int32Array, rows: Int32Array | null, i: number): number {
  if (rows === null) return keys[i]
  const r = rows[i]
  return r < 0 ? NA_INT : keys[r]
}

/**
 * Smallest and largest key (N/A aside) among `samples` rows spread evenly over the n worksheet
 * rows: a lower bound of the range, enough to turn away most keys too wide for slots before
 * counting rows that would then be counted again (min > max when no sampled key).
 */
export function sampledRange(keys: Int32Array, rows: Int32Array | null, n: number, samples: number): [number, number] {
  let min = 0x7fffffff
  let max = -0x7fffffff
  const step = Math.max(1, Math.floor(n / samples))
  for (let i = 0; i < n; i += step) {
    const k = keyAt(keys, rows, i)
    if (k === NA_INT) continue
    if (k < min) min = k
    if (k > max) max = k
  }
  return [min, max]
}

/**
 * slots[j] = the slot of keys[off + j] for a block of keys that all have slots (the counting
 * pass has seen them all).
 */
export function slotsOf(keys: Int32Array, off: number, len: number, lo: number, slots: Int32Array): void {
  const base = 1 - lo
  for (let j = 0; j < len; j++) {
    const k = keys[off + j]
    slots[j] = k === NA_INT ? 0 : k + base
  }
}

/**
 * first[slot] = the first worksheet row in each slot, scanning until all `groups` used slots
 * have been seen: usually a small prefix of the rows.
 */
export function firstRowsOf(keys: Int32Array, rows: Int32Array | null, n: number, table: KeySlots, groups: number, first: Int32Array): void {
  const base = 1 - table.lo
  let found = 0
  for (let i = 0; i < n && found < groups; i++) {
    const k = keyAt(keys, rows, i)
    const s = k === NA_INT ? 0 : k + base
    if (first[s] < 0) {
      first[s] = i
      found++
    }
  }
}

/** last[slot] = the last worksheet row in each slot, scanning backwards (as firstRowsOf). */
export function lastRowsOf(keys: Int32Array, rows: Int32Array | null, n: number, table: KeySlots, groups: number, last: Int32Array): void {
  const base = 1 - table.lo
  let found = 0
  for (let i = n - 1; i >= 0 && found < groups; i--) {
    const k = keyAt(keys, rows, i)
    const s = k === NA_INT ? 0 : k + base
    if (last[s] < 0) {
      last[s] = i
      found++
    }
  }
}

/** The slots with at least one row, in slot order (N/A first, then keys ascending). */
export function usedSlots(counts: Int32Array): Int32Array {
  let n = 0
  for (let s = 0; s < counts.length; s++) if (counts[s] > 0) n++
  const out = new Int32Array(n)
  n = 0
  for (let s = 0; s < counts.length; s++) if (counts[s] > 0) out[n++] = s
  return out
}

/** Slots of a whole key column at once: slot 0 for N/A, then key − min + 1. */
export interface Slots {
  readonly keys: Int32Array
  readonly min: number
  readonly width: number
}

/**
 * The slots of an int or date key column, its range found in one scan, or null for another type
 * or a range wider than `limit` keys. For a reader that looks keys up rather than counting them.
 */
export function slotsOfColumn(key: Column, rows: number, limit: number): Slots | null {
  if (key.type !== 'int' && key.type !== 'date') return null
  const keys = key.data
  let min = 0x7fffffff
  let max = -0x7fffffff
  for (let r = 0; r < rows; r++) {
    const k = keys[r]
    if (k === NA_INT) continue
    if (k < min) min = k
    if (k > max) max = k
  }
  const width = max >= min ? max - min + 2 : 1
  return width <= limit ? { keys, min, width } : null
}
