/**
 * A result as the index widget reads it (a query's last result, a table, a listing): its
 * columns, its row count, and any range of its rows. Where a query's result comes from (memo,
 * Store copy, or computed again) is Results.readable (results.ts).
 */
import type { ResultSet } from '../../../shared/protocol.js'
import type { ColumnMeta } from '../../../shared/table.js'
import { sliceColumn } from '../../../shared/result-text.js'

export interface ReadableResult {
  readonly cols: readonly ColumnMeta[]
  readonly rowCount: number
  /** Rows [from, to) (clipped) as a ResultSet holding only those rows. */
  rows(from: number, to: number): Promise<ResultSet>
}

/** Rows [from, to) of a result, sharing its typed arrays (no copy). */
export function sliceResult(r: ResultSet, from: number, to: number): ResultSet {
  const f = Math.max(0, Math.min(from, r.rowCount))
  const t = Math.max(f, Math.min(to, r.rowCount))
  if (f === 0 && t === r.rowCount) return r
  return {
    cols: r.cols,
    rowCount: t - f,
    columns: r.columns.map((c) => sliceColumn(c, f, t)),
  }
}

export function readableOf(result: ResultSet): ReadableResult {
  return { cols: result.cols, rowCount: result.rowCount, rows: async (from, to) => sliceResult(result, from, to) }
}
