/**
 * Partials by direct slots: one int or date key column whose values span a small range, the way
 * the one-pass tabulation (interpret/ops/tabu-fast.ts) does it. A key indexes its group's
 * accumulators directly, so there is no group id per row to build: one pass counts and sums (per
 * block), one short scan finds the groups' first rows (it stops once every group has been seen).
 * The answer is exactly what the general path (aggregate.ts) gives: the same groups, in order of
 * first appearance, with the same values; or null when the key does not fit.
 */
import { toFloat } from '../columns/index.js'
import { NA_INT, type Column } from '../columns/types.js'
import type { NamedColumn } from './codec.js'
import type { AggSpec } from './plan.js'

/** Widest key range given slots (as tabu-fast.ts): beyond it, per-slot arrays outgrow their use. */
const slotLimit = (rows: number): number => Math.max(1 << 16, rows >> 3)

/** Slot of each key: 0 for N/A, then key − min + 1. */
export interface Slots {
  readonly keys: Int32Array
  readonly min: number
  readonly width: number
}

export function slotsOf(key: Column, rows: number): Slots | null {
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
  return width <= slotLimit(rows) ? { keys, min, width } : null
}

/** Rows per slot. */
function countRows(keys: Int32Array, off: number, rows: number, counts: Int32Array): void {
  for (let r = 0; r < rows; r++) {
    const k = keys[r]
    counts[k === NA_INT ? 0 : k + off]++
  }
}

// One monomorphic loop per case, as in summaries/slot-kernels.ts: no per-row test of which case.

/** Rows start…end-1: rows per slot, and the sum of the non-N/A values per slot at sums[at + slot]. */
function countSum(keys: Int32Array, x: Float64Array, off: number, start: number, end: number, counts: Int32Array, sums: Float64Array, at: number): void {
  for (let r = start; r < end; r++) {
    const k = keys[r]
    const slot = k === NA_INT ? 0 : k + off
    counts[slot]++
    const v = x[r]
    if (v === v) sums[at + slot] += v
  }
}

/** As countSum, also counting the non-N/A values per slot. */
function countSumValid(
  keys: Int32Array,
  x: Float64Array,
  off: number,
  start: number,
  end: number,
  counts: Int32Array,
  sums: Float64Array,
  at: number,
  valid: Int32Array,
): void {
  for (let r = start; r < end; r++) {
    const k = keys[r]
    const slot = k === NA_INT ? 0 : k + off
    counts[slot]++
    const v = x[r]
    if (v === v) {
      sums[at + slot] += v
      valid[slot]++
    }
  }
}

/**
 * The used slots in order of their first row (the order groupBy numbers groups in): a scan that
 * stops once `used` slots have been seen, usually early.
 */
function appearanceOrder(keys: Int32Array, off: number, width: number, rows: number, used: number): Int32Array {
  const seen = new Uint8Array(width)
  const order = new Int32Array(used)
  let found = 0
  for (let r = 0; r < rows && found < used; r++) {
    const k = keys[r]
    const slot = k === NA_INT ? 0 : k + off
    if (seen[slot] === 0) {
      seen[slot] = 1
      order[found++] = slot
    }
  }
  return order
}

function numeric(c: Column): Float64Array | null {
  return c.type === 'text' ? null : toFloat(c).data
}

/**
 * The partials of `aggs` grouped by one key column by slots, or null (another key shape, a wide
 * range, a selection mask, a summary this path leaves to the general one).
 */
export function slotPartials(
  key: Column,
  rows: number,
  sources: readonly (Column | null)[],
  aggs: readonly AggSpec[],
  starts: Int32Array,
): { rows: number; cols: NamedColumn[] } | null {
  if (!aggs.every((a) => a.fun === 'cnt' || a.fun === 'sum' || a.fun === 'avg')) return null
  const s = slotsOf(key, rows)
  if (s === null) return null
  const { keys, width } = s
  const off = 1 - s.min
  const blocks = starts.length - 1
  const counts = new Int32Array(width)
  const per = aggs.map((a, j) => {
    if (a.fun === 'cnt') return null
    const x = numeric(sources[j]!)
    if (x === null) return undefined
    return { x, sums: new Float64Array(blocks * width), valid: a.fun === 'avg' ? new Int32Array(width) : null }
  })
  if (per.includes(undefined)) return null
  let counted = false
  for (const p of per) {
    if (!p) continue
    // Rows are counted in the first pass only.
    const c = counted ? new Int32Array(width) : counts
    counted = true
    for (let b = 0; b < blocks; b++) {
      if (p.valid === null) countSum(keys, p.x, off, starts[b], starts[b + 1], c, p.sums, b * width)
      else countSumValid(keys, p.x, off, starts[b], starts[b + 1], c, p.sums, b * width, p.valid)
    }
  }
  if (!counted) countRows(keys, off, rows, counts)
  let used = 0
  for (let i = 0; i < width; i++) if (counts[i] > 0) used++
  const slots = appearanceOrder(keys, off, width, rows, used)
  const pickInt = (v: Int32Array): Int32Array => {
    const out = new Int32Array(used)
    for (let i = 0; i < used; i++) out[i] = v[slots[i]]
    return out
  }
  const keyValues = new Int32Array(used)
  for (let i = 0; i < used; i++) keyValues[i] = slots[i] === 0 ? NA_INT : slots[i] - off
  const cols: NamedColumn[] = [{ name: 'key:0', column: { type: key.type as 'int' | 'date', data: keyValues } }]
  aggs.forEach((a, j) => {
    const name = (part: string) => `agg:${j}:${part}`
    if (a.fun === 'cnt') {
      cols.push({ name: name('n'), column: { type: 'int', data: pickInt(counts) } })
      return
    }
    const p = per[j]!
    const out = new Float64Array(blocks * used)
    for (let b = 0; b < blocks; b++) {
      const from = b * width
      const to = b * used
      for (let i = 0; i < used; i++) out[to + i] = p.sums[from + slots[i]]
    }
    for (let b = 0; b < blocks; b++) cols.push({ name: name(`s:${b}`), column: { type: 'float', data: out.subarray(b * used, (b + 1) * used) } })
    if (p.valid !== null) cols.push({ name: name('n'), column: { type: 'int', data: pickInt(p.valid) } })
  })
  return { rows: used, cols }
}
