/**
 * The fixed row blocks that make per-group sums independent of how a table is split. Every
 * floating-point sum of a planned query is added block by block: each block's rows in row order
 * from zero, then the block sums in block order. Blocks are counted in rows of the base table from
 * its first row, and parts start on block boundaries, so a part holds whole blocks and the merge
 * adds the same numbers in the same order as a run with one part: the sums come out bit for bit
 * the same for any number of parts.
 */

/** Rows per block: large enough that per-block partials stay a small fraction of the work. */
export const SUM_BLOCK_ROWS = 1 << 19

let blockRows: number = SUM_BLOCK_ROWS

/** The block size in force (tests lower it to split small tables into many blocks). */
export const currentBlockRows = (): number => blockRows

/** Test hook: another block size for this thread; returns the previous one. */
export function setBlockRowsForTests(rows: number): number {
  const before = blockRows
  blockRows = rows
  return before
}

export interface RowRange {
  readonly start: number
  readonly end: number
  /** Rows of the foreign table of the plan's merge, not of the base table (plan.ts). */
  readonly foreign?: boolean
}

/**
 * Splits `rows` base rows into at most `parts` ranges of about equal size, each starting on a
 * multiple of `align` (a block boundary when the plan sums). Never an empty range, except the one
 * range of an empty table.
 */
export function splitRanges(rows: number, parts: number, align: number): RowRange[] {
  const units = Math.ceil(rows / align)
  const n = Math.max(1, Math.min(parts, units))
  const out: RowRange[] = []
  let start = 0
  for (let p = 1; p <= n; p++) {
    const end = p === n ? rows : Math.min(rows, Math.round((p * rows) / n / align) * align)
    if (end > start || (rows === 0 && out.length === 0)) out.push({ start, end })
    start = Math.max(start, end)
  }
  return out
}

/** Base rows where blocks start inside [start, end), plus `end`: the block edges of a part. */
export function blockEdges(start: number, end: number, size: number): number[] {
  const edges = [start]
  for (let b = (Math.floor(start / size) + 1) * size; b < end; b += size) edges.push(b)
  edges.push(end)
  return edges
}
