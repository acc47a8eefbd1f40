/**
 * A result as the index widget reads it (a query's last result, a table, a listing): its
 * columns, its row count, and any range of its rows. A query's result has three sources,
 * cheapest first: this gateway's memo (the whole result in memory), the Store's chunked copy (any
 * gateway wrote it; a range reads only its chunks), or computing the recipe again (then memoised
 * and copied to the Store for the next reader).
 */
import type { ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import type { Deps } from '../deps.js'
import { sliceColumn } from '../../shared/result-text.js'

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

/** Copies a fresh result to the Store for other gateways; failures only cost a recompute later. */
export function copyToStore(deps: Deps, key: string, result: ResultSet): void {
  deps.resultStore.save(key, result).catch((err: unknown) => deps.log({ level: 'warn', msg: 'result not kept in the store', key, err: String(err) }))
}

/**
 * The result of the recipe with this key: from memory, from the Store, or computed by
 * `compute` (which must leave it in the memo, as the run functions do).
 */
export async function resultOfRecipe(deps: Deps, key: string, compute: () => Promise<ResultSet>): Promise<ReadableResult> {
  const local = deps.results.get(key)
  if (local) return readableOf(local)
  const meta = await deps.resultStore.meta(key)
  if (meta) {
    return {
      cols: meta.cols,
      rowCount: meta.rowCount,
      rows: async (from, to) => (await deps.resultStore.readRange(key, from, to)) ?? sliceResult(await compute(), from, to),
    }
  }
  const result = await compute()
  copyToStore(deps, key, result)
  return readableOf(result)
}
