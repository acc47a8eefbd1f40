/**
 * Summary parts by direct slots: one int or date break column whose keys span a small range.
 *
 * A general group-by makes a pass over the rows per step (key range, a group id per row, first
 * rows), each memory-bound. Here a key indexes its group's accumulators directly
 * (columns/key-slots.ts), and nothing is written per row:
 *
 * 1. The counting pass: rows per key, the key range found on the way, and fused into the same
 *    loop the sum (and count of values) of one float source. `cnt` and `sum(x)` take this pass only.
 * 2. Only if other fold parts remain: one pass a run of a few thousand rows at a time, the run's
 *    slots kept in a small array that stays in cache while each part adds the run
 *    (summaries/fold.ts, the loop every grouping shares).
 * 3. First (or last) rows, only when the order of first appearance or first/last values are
 *    wanted: a scan that stops once every group has been seen, usually early.
 *
 * Sums are kept per summing block (`starts`) as every grouping keeps them, so the answer is
 * exactly the general grouping's: the same groups with the same parts, bit for bit.
 */
import { firstRowsOf, KeySlots, keyAt, lastRowsOf, sampledRange, slotLimit, slotsOf, usedSlots, type SlotVector } from '../../columns/key-slots.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { RUN_ROWS, type SourceView } from '../../summaries/doubles.js'
import {
  foldRows,
  newVector,
  settledFold,
  sharedRuns,
  valuesAt,
  type FoldSpec,
  type PartState,
  type PendingFold,
  type RunGroups,
} from '../../summaries/fold.js'
import { SUM, VALID } from '../../summaries/parts.js'
import { countKeys, countKeysSum, countKeysSumValid } from '../../summaries/slot-kernels.js'

/** The groups by slots, in slot order (N/A, then keys ascending) or in order of first appearance. */
export interface SlotGroups {
  readonly count: number
  readonly keys: Column
  /** Per spec, per part. */
  readonly states: PartState[][]
  /** In slot order: whether the first group is N/A's. Null: in order of first appearance. */
  readonly slotOrder: { readonly naFirst: boolean } | null
}

/** Rows sampled to turn away wide key ranges early. */
const SAMPLES = 1024

/** The key column's view when it can index slots (int or date), else null. */
export function slotKey(view: SourceView | null): SourceView | null {
  return view !== null && (view.source.type === 'int' || view.source.type === 'date') ? view : null
}

/**
 * The parts of `specs` grouped by the key's slots over the worksheet's `n` rows, or null when
 * the keys span too wide a range (the caller then groups another way).
 * @param starts where each summing block starts among the rows, plus `n`
 */
export function slotGroups(key: SourceView, n: number, specs: readonly FoldSpec[], starts: Int32Array, order: 'slots' | 'appearance'): SlotGroups | null {
  const keys = (key.source as { data: Int32Array }).data
  const limit = slotLimit(n)
  const [sampledMin, sampledMax] = sampledRange(keys, key.index, n, SAMPLES)
  if (sampledMin <= sampledMax && sampledMax - sampledMin + 1 > limit) return null
  const table = new KeySlots(limit)
  // Sized to the sampled keys from the start: every widening reallocates every vector made so
  // far, and keys met only later (few, near the edges) then widen it once or twice at most.
  if (sampledMin <= sampledMax) table.include(sampledMin, sampledMax)
  const blocks = starts.length - 1
  const fusedAt = specs.findIndex((s) => s.view?.source.type === 'float' && s.view.index === key.index && s.parts.some((p) => p === SUM || p === VALID))
  const fused = fusedAt < 0 ? null : new Moments(table, specs[fusedAt], blocks)
  for (let b = 0; b < blocks; b++) if (!countPass(keys, key.index, starts[b], starts[b + 1], table, fused, b)) return null

  // The table is final: the other folds get plain vectors, the fused ones their counting-pass vectors.
  const pending: PendingFold[] = []
  const runsFor = specs.map(sharedRuns)
  const folds = specs.map((s, i) =>
    s.parts.map((part) => {
      if (part.kind !== 'fold') return null
      if (i === fusedAt && part === SUM) return fused!.sums.map((v) => v.data)
      if (i === fusedAt && part === VALID) return [fused!.valid!.data]
      const f = { part, x: runsFor[i](part.reads), vectors: Array.from({ length: part.summed ? blocks : 1 }, () => newVector(part, table.size)) }
      pending.push(f)
      return f.vectors
    }),
  )
  foldRows(new KeyRuns(key, table.lo), pending, starts)

  const counts = table.counts.data
  const used = usedSlots(counts)
  const groups = order === 'slots' ? used : appearanceOrder(keys, key.index, n, table, used.length)
  const edge = (last: boolean): Int32Array => {
    const rows = table.int32(-1).data
    ;(last ? lastRowsOf : firstRowsOf)(keys, key.index, n, table, groups.length, rows)
    return pickInt(rows, groups)
  }
  const edges: (Int32Array | null)[] = [null, null]
  const states = specs.map((s, i) =>
    s.parts.map((part, k): PartState => {
      if (part.kind === 'rows') return [pickInt(counts, groups)]
      if (part.kind === 'edge') return [valuesAt(s.view!, (edges[part.last ? 1 : 0] ??= edge(part.last)))]
      return settledFold(
        part,
        folds[i][k]!.map((v) => pick(v, groups)),
        s.view,
        groups.length,
      )
    }),
  )
  const keyValues = new Int32Array(groups.length)
  for (let g = 0; g < groups.length; g++) keyValues[g] = table.keyOf(groups[g])
  return {
    count: groups.length,
    keys: { type: key.source.type as 'int' | 'date', data: keyValues },
    states,
    slotOrder: order === 'slots' ? { naFirst: groups.length > 0 && groups[0] === 0 } : null,
  }
}

// --- The counting pass -----------------------------------------------------------------------

/**
 * Per-slot count and per-block sums of the non-N/A values of the float source read in the
 * counting pass. A block's sums are made when the pass reaches the block: each widening of the
 * table reallocates every vector made so far, and made up front (150 blocks at 10M rows) they
 * cost 80 million slots of reallocation on a date key, 270 ms of 350.
 */
class Moments {
  readonly x: Float64Array
  readonly valid: SlotVector<Int32Array> | null
  readonly sums: SlotVector<Float64Array>[] = []
  private readonly blocks: number

  constructor(
    private readonly table: KeySlots,
    spec: FoldSpec,
    blocks: number,
  ) {
    this.x = (spec.view!.source as { data: Float64Array }).data
    this.valid = spec.parts.includes(VALID) ? table.int32() : null
    // A count without a sum still sums (the kernel does both), into a vector nobody reads.
    this.blocks = spec.parts.includes(SUM) ? blocks : 1
  }

  /** Block b's sums (the one vector when only counts are wanted). */
  sumsOf(b: number): SlotVector<Float64Array> {
    const k = Math.min(b, this.blocks - 1)
    while (this.sums.length <= k) this.sums.push(this.table.float64())
    return this.sums[k]
  }
}

/**
 * Counts rows from … to-1 per key (and accumulates `fused` into block b's sums), widening the
 * table at each key outside it.
 * @returns false when the keys span too wide a range
 */
function countPass(keys: Int32Array, rows: Int32Array | null, from: number, to: number, table: KeySlots, fused: Moments | null, b: number): boolean {
  const counts = table.counts
  const sums = fused === null ? null : fused.sumsOf(b)
  let i = from
  while (i < to) {
    // Vectors are read at each call: widening replaces them.
    const { lo, width } = table
    if (fused === null) i = countKeys(keys, rows, i, to, lo, width, counts.data)
    else if (fused.valid === null) i = countKeysSum(keys, fused.x, rows, i, to, lo, width, counts.data, sums!.data)
    else i = countKeysSumValid(keys, fused.x, rows, i, to, lo, width, counts.data, fused.valid.data, sums!.data)
    if (i < to) {
      const k = keyAt(keys, rows, i)
      if (!table.include(k, k)) return false
    }
  }
  return true
}

// --- Reading runs ----------------------------------------------------------------------------

/** The slots of the key column a run at a time (every key has a slot after the counting pass). */
class KeyRuns implements RunGroups {
  readonly array = new Int32Array(RUN_ROWS)
  private readonly keys: Int32Array
  private readonly through: Int32Array

  constructor(
    private readonly view: SourceView,
    private readonly lo: number,
  ) {
    this.keys = (view.source as { data: Int32Array }).data
    this.through = view.index === null ? this.keys : new Int32Array(RUN_ROWS)
  }

  load(start: number, len: number): number {
    let off = start
    if (this.view.index !== null) {
      const index = this.view.index
      for (let j = 0; j < len; j++) {
        const r = index[start + j]
        this.through[j] = r < 0 ? NA_INT : this.keys[r]
      }
      off = 0
    }
    slotsOf(this.through, off, len, this.lo, this.array)
    return 0
  }
}

// --- Results -----------------------------------------------------------------------------------

// Each group's value of a per-slot vector. Plain loops, one per array type: `from` with a
// callback measured ~20 ms for 100,000 groups, and one loop over both types is megamorphic.

const pick = (v: Int32Array | Float64Array, groups: Int32Array): Int32Array | Float64Array =>
  v instanceof Float64Array ? pickFloat(v, groups) : pickInt(v, groups)

function pickInt(v: Int32Array, groups: Int32Array): Int32Array {
  const out = new Int32Array(groups.length)
  for (let i = 0; i < groups.length; i++) out[i] = v[groups[i]]
  return out
}

function pickFloat(v: Float64Array, groups: Int32Array): Float64Array {
  const out = new Float64Array(groups.length)
  for (let i = 0; i < groups.length; i++) out[i] = v[groups[i]]
  return out
}

/** The used slots in order of their first row (the order a group-by numbers groups in). */
function appearanceOrder(keys: Int32Array, rows: Int32Array | null, n: number, table: KeySlots, used: number): Int32Array {
  const base = 1 - table.lo
  const seen = new Uint8Array(table.size)
  const order = new Int32Array(used)
  let found = 0
  for (let i = 0; i < n && found < used; i++) {
    const k = keyAt(keys, rows, i)
    const s = k === NA_INT ? 0 : k + base
    if (seen[s] === 0) {
      seen[s] = 1
      order[found++] = s
    }
  }
  return order
}
