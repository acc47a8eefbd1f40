/**
 * An index vector regrouped by source tile (a cache-sized run of rows), for cache-friendly
 * gathers (see gather.ts). Entries are ordered by `row >> TILE_BITS`, stably, so each tile's rows
 * are read while the tile is in cache and each tile's output slots are written in increasing
 * order; entries for missing rows (-1) come last. (Staging the values by output tile as well, so
 * that the writes stay in cache too, measured slower: the extra pass costs more than the misses it
 * saves.)
 */

export interface IndexPartition {
  /** Output position of each entry. */
  readonly slots: Int32Array
  /** Source row of each entry (valid before `missingFrom`). */
  readonly rows: Int32Array
  /** Entries from here on are missing rows (-1): their slots get N/A. */
  readonly missingFrom: number
}

/** Rows per tile: 16,384 Int32 values (64 KB) or Float64 values (128 KB) stay in L2. */
const TILE_BITS = 14
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
  const part = looksAscending(index) ? null : build(index, sourceRows)
  cache.set(index, part)
  return part
}

/** Entries compared to decide whether an index is in row order. */
const ORDER_SAMPLES = 4096

/**
 * Whether evenly spaced entries of the index are in increasing order. A selection's rows always
 * are; a sort's permutation or a link's lookups almost never. The guess only chooses between two
 * correct gathers, so a mostly ordered index taken for ordered costs a little speed, never a wrong
 * row, and the index need not be read whole (that pass cost ~20 ms at 10M rows).
 */
function looksAscending(index: Int32Array): boolean {
  const step = Math.max(1, Math.floor(index.length / ORDER_SAMPLES))
  for (let i = step; i < index.length; i += step) if (index[i] < index[i - step]) return false
  return true
}

function build(index: Int32Array, sourceRows: number): IndexPartition {
  const n = index.length
  const tiles = (sourceRows >>> TILE_BITS) + 1
  // Tile t is counted at [t + 1], missing rows at [tiles + 1]; prefix sums then give starts.
  const starts = new Int32Array(tiles + 2)
  for (let i = 0; i < n; i++) {
    const r = index[i]
    starts[r < 0 ? tiles + 1 : (r >>> TILE_BITS) + 1]++
  }
  for (let t = 1; t <= tiles + 1; t++) starts[t] += starts[t - 1]
  const missingFrom = starts[tiles]
  const slots = new Int32Array(n)
  const rows = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const r = index[i]
    const at = starts[r < 0 ? tiles : r >>> TILE_BITS]++
    slots[at] = i
    rows[at] = r
  }
  return { slots, rows, missingFrom }
}
