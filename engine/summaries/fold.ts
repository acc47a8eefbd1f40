/**
 * Accumulating the parts (parts.ts) of some summaries over rows that are already grouped, one
 * run of rows at a time: the one loop under every grouping. The grouping only says which group
 * each row of a run is in (RunGroups): group ids of a general group-by (idsRuns), or direct key
 * slots (interpret/ops/tabu-slots.ts).
 */
import { gather } from '../columns/index.js'
import { type Column, type GroupIndex } from '../columns/types.js'
import { RUN_ROWS, runsOf, type RowRuns, type SourceView } from './doubles.js'
import { pairSumsWithCounts, sumAndCountBlock, sumAndCountOne } from './fused.js'
import { asTypeOf, type FoldPart, type PartValue, type StatePart } from './parts.js'

/** The group of each row, a run at a time. */
export interface RunGroups {
  /** Where `load` puts the groups (fixed, as DoubleRuns.array). */
  readonly array: Int32Array
  /** Makes the groups of rows start … start+len-1 readable in `array`; returns the offset of row `start`. */
  load(start: number, len: number): number
  /** Every row is in group 0 (a tabulation without breaks): the folds take their one-group kernels. */
  readonly one?: true
}

/**
 * One part of one summary over `size` groups: a summed fold has one vector per summing block,
 * any other part one value per group.
 */
export type PartState = PartValue[]

/** The summaries to accumulate: each one's parts and its source (null for a row count). */
export interface FoldSpec {
  readonly parts: readonly StatePart[]
  readonly view: SourceView | null
  /** The weight of a weighted summary (its parts read value × weight), else null. */
  readonly weight: SourceView | null
}

/** The fold parts of `specs` that still need a pass over the rows, with their vectors. */
export interface PendingFold {
  readonly part: FoldPart
  readonly x: RowRuns
  /** One vector per summing block (summed), else one. */
  readonly vectors: (Int32Array | Float64Array)[]
}

/** The vector a fold adds block `b`'s rows into. */
const vectorOf = (f: PendingFold, b: number): Int32Array | Float64Array => f.vectors[f.part.summed ? b : 0]

export function newVector(part: FoldPart, size: number): Int32Array | Float64Array {
  return (part.vector === 'int' ? new Int32Array(size) : new Float64Array(size)).fill(part.fill)
}

/**
 * Adds every row to the pending folds, in row order within each summing block (`starts`: where
 * each block starts among the rows, plus the row count), a run at a time.
 */
export function foldRows(groups: RunGroups, folds: readonly PendingFold[], starts: Int32Array): void {
  if (folds.length === 0) return
  const steps = pairSumsWithCounts(folds)
  const slots = groups.array
  for (let b = 0; b + 1 < starts.length; b++) {
    const end = starts[b + 1]
    for (let start = starts[b]; start < end; start += RUN_ROWS) {
      const len = Math.min(RUN_ROWS, end - start)
      const at = groups.load(start, len)
      const runSlots = at === 0 ? slots : slots.subarray(at, at + len)
      // Parts of one summary that read the same values (avg's count and sum) share one load.
      let loaded: RowRuns | null = null
      let offset = 0
      for (const { fold: f, count } of steps) {
        const acc = vectorOf(f, b)
        if (f.x !== loaded) {
          offset = f.x.load(start, len)
          loaded = f.x
        }
        if (count !== null) {
          const n = vectorOf(count, b) as Int32Array
          if (groups.one) sumAndCountOne(f.x.array, offset, len, acc as Float64Array, n)
          else sumAndCountBlock(runSlots, f.x.array, offset, len, acc as Float64Array, n)
        } else if (groups.one) f.part.addToOne(f.x.array, offset, len, acc)
        else f.part.add(runSlots, f.x.array, offset, len, acc)
      }
    }
  }
}

/** The rows in order of a group index: ids as they are, or with rows left out (-1) sent to group `count`, which nobody reads. */
export function idsRuns(groups: GroupIndex, masked: boolean): RunGroups {
  // Unmasked ids of a single group are all 0: the one-group kernels need not read them.
  if (!masked && groups.count === 1) return { array: new Int32Array(RUN_ROWS), load: () => 0, one: true }
  const ids = groups.ids
  if (!masked) return { array: ids, load: (start) => start }
  const array = new Int32Array(RUN_ROWS)
  const spare = groups.count
  return {
    array,
    load(start, len) {
      for (let j = 0; j < len; j++) {
        const g = ids[start + j]
        array[j] = g < 0 ? spare : g
      }
      return 0
    },
  }
}

/** Each group's first (or last) row; -1 for none. Stops once every group has been seen. */
export function edgeRowsOfIds(groups: GroupIndex, last: boolean): Int32Array {
  const rows = new Int32Array(groups.count).fill(-1)
  const ids = groups.ids
  let found = 0
  const n = ids.length
  for (let k = 0; k < n && found < groups.count; k++) {
    const i = last ? n - 1 - k : k
    const g = ids[i]
    if (g >= 0 && rows[g] < 0) {
      rows[g] = i
      found++
    }
  }
  return rows
}

/** A view's values at worksheet rows (-1: N/A), in its own type. */
export function valuesAt(view: SourceView, rows: Int32Array): Column {
  if (view.index === null) return gather(view.source, rows)
  const through = new Int32Array(rows.length)
  for (let i = 0; i < rows.length; i++) through[i] = rows[i] < 0 ? -1 : view.index[rows[i]]
  return gather(view.source, through)
}

/** A fold's vectors (the groups `size` and beyond cut off), extremes in the source's type. */
export function settledFold(part: FoldPart, vectors: readonly (Int32Array | Float64Array)[], view: SourceView | null, size: number): PartState {
  const cut = vectors.map((v) => (v.length === size ? v : v.slice(0, size)))
  return part.sourceTyped ? [asTypeOf(view!.source, cut[0] as Float64Array)] : cut
}

/**
 * Every part of `specs` over the groups of a group index, in the index's group numbering.
 * @param masked whether some rows have no group (id -1)
 * @param rowCounts rows per group when already known
 */
export function foldGroups(groups: GroupIndex, specs: readonly FoldSpec[], starts: Int32Array, masked: boolean, rowCounts?: Int32Array): PartState[][] {
  const size = groups.count + (masked ? 1 : 0)
  const pending: PendingFold[] = []
  const folds = specs.map((s) => {
    const runs = sharedRuns(s)
    return s.parts.map((part) => {
      if (part.kind !== 'fold') return null
      const f = {
        part,
        x: runs(part.reads),
        vectors: Array.from({ length: part.summed ? starts.length - 1 : 1 }, () => newVector(part, size)),
      }
      pending.push(f)
      return f
    })
  })
  foldRows(idsRuns(groups, masked), pending, starts)
  let rows = rowCounts ?? null
  const edges: (Int32Array | null)[] = [null, null]
  return specs.map((s, i) =>
    s.parts.map((part, k): PartState => {
      if (part.kind === 'rows') return [(rows ??= countRows(groups))]
      if (part.kind === 'edge') return [valuesAt(s.view!, (edges[part.last ? 1 : 0] ??= edgeRowsOfIds(groups, part.last)))]
      return settledFold(part, folds[i][k]!.vectors, s.view, groups.count)
    }),
  )
}

function countRows(groups: GroupIndex): Int32Array {
  const n = new Int32Array(groups.count)
  const ids = groups.ids
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g >= 0) n[g]++
  }
  return n
}

/** One RowRuns per kind of read of a summary's values, shared by its parts (foldRows loads each once a run). */
export function sharedRuns(s: FoldSpec): (reads: FoldPart['reads']) => RowRuns {
  const made = new Map<FoldPart['reads'], RowRuns>()
  return (reads) => {
    let r = made.get(reads)
    if (r === undefined) {
      r = runsOf(reads, s.view!, s.weight)
      made.set(reads, r)
    }
    return r
  }
}

/** A part's blocks added in block order from zero: the part's one vector. */
export function settled(state: PartState): PartValue {
  if (state.length === 1) return state[0]
  const blocks = state as Float64Array[]
  const s = new Float64Array(blocks[0].length)
  for (const b of blocks) for (let g = 0; g < s.length; g++) s[g] += b[g]
  return s
}
