/**
 * An index vector regrouped by source block, for cache-friendly gathers (see gather.ts).
 * Entries are ordered by `row >> BLOCK_BITS`, stably, so each block's rows are read while the
 * block is in cache and each block's output slots are written in increasing order; entries for
 * missing rows (-1) come last. (Staging the values by output block as well, so that the writes
 * stay in cache too, measured slower: the extra pass costs more than the misses it saves.)
 */

export interface IndexPartition {
  /** Output position of each entry. */
  readonly slots: Int32Array
  /** Source row of each entry (valid before `missingFrom`). */
  readonly rows: Int32Array
  /** Entries from here on are missing rows (-1): their slots get N/A. */
  readonly missingFrom: number
}

/** Rows per block: 16,384 Int32 values (64 KB) or Float64 values (128 KB) stay in L2. */
const BLOCK_BITS = 14
/** Below this many source rows the whole column stays in cache: a plain gather is as fast. */
const MIN_SOURCE_ROWS = 1 << 18
/** Below this many entries the partition costs more than it saves. */
const MIN_INDEX_ROWS = 1 << 16

/** Per index: its partition, or null when a plain gather is the better choice (it is in order). */
const cache = new WeakMap<Int32Array, IndexPartition | null>()

/**
 * The partition of `index` for gathering from a column of `sourceRows` rows, or null when a
 * plain gather is better: small source or index, or an index that is already in row order
 * (a selection), whose plain gather reads sequentially. Index vectors are never changed once
 * made, so the partition is kept with the index for the next column gathered through it.
 */
export function partitionIndex(index: Int32Array, sourceRows: number): IndexPartition | null {
  if (sourceRows < MIN_SOURCE_ROWS || index.length < MIN_INDEX_ROWS) return null
  const known = cache.get(index)
  if (known !== undefined) return known
  const part = build(index, sourceRows)
  cache.set(index, part)
  return part
}

function build(index: Int32Array, sourceRows: number): IndexPartition | null {
  const n = index.length
  const blocks = (sourceRows >>> BLOCK_BITS) + 1
  // Block b is counted at [b + 1], missing rows at [blocks + 1]; prefix sums then give starts.
  const starts = new Int32Array(blocks + 2)
  let ascending = true
  let previous = -1
  for (let i = 0; i < n; i++) {
    const r = index[i]
    if (r < 0) starts[blocks + 1]++
    else {
      starts[(r >>> BLOCK_BITS) + 1]++
      if (r < previous) ascending = false
      previous = r
    }
  }
  if (ascending) return null
  for (let b = 1; b <= blocks + 1; b++) starts[b] += starts[b - 1]
  const missingFrom = starts[blocks]
  const slots = new Int32Array(n)
  const rows = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const r = index[i]
    const at = starts[r < 0 ? blocks : r >>> BLOCK_BITS]++
    slots[at] = i
    rows[at] = r
  }
  return { slots, rows, missingFrom }
}
