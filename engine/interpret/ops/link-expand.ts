/**
 * `<link type="expand">` ("Link and expand" in 1010data's guide): a row is matched to EVERY
 * foreign row with equal keys, in the foreign worksheet's order, and repeated once per match; a
 * row with no match is kept once, its foreign columns N/A, as with the plain link.
 */
import { groupBy } from '../../columns/index.js'
import type { Column } from '../../columns/types.js'
import { checkError } from '../../check/errors.js'
import type { Loc } from '../../ast.js'

/**
 * Rows a link expansion may produce. Its result is materialised as row indices (4 bytes per row
 * and per index), and a key repeated on both sides multiplies: refuse before allocating.
 */
export const MAX_EXPANDED_ROWS = 50_000_000

/**
 * The expanded rows: for each output row, the worksheet row it repeats and the foreign row it is
 * matched to (-1: none).
 * @param first each worksheet row's first matching foreign row (-1: none), from the plain lookup
 * @param foreignKeys the foreign key columns, equal keys grouped as the lookup matched them
 */
export function expandMatches(first: Int32Array, foreignKeys: readonly Column[], foreignRows: number, loc: Loc): { rows: Int32Array; index: Int32Array } {
  const { ids, count } = groupBy(foreignKeys, foreignRows)
  // next[r]: the foreign row after r with the same key (-1: the last one); size[g]: rows in group g.
  const next = new Int32Array(foreignRows).fill(-1)
  const last = new Int32Array(count).fill(-1)
  const size = new Float64Array(count)
  for (let r = foreignRows - 1; r >= 0; r--) {
    next[r] = last[ids[r]]
    last[ids[r]] = r
    size[ids[r]]++
  }
  let total = 0
  for (let i = 0; i < first.length; i++) total += first[i] < 0 ? 1 : size[ids[first[i]]]
  if (total > MAX_EXPANDED_ROWS) {
    throw checkError(
      loc,
      `<link type="expand"> would make ${total} rows, more than ${MAX_EXPANDED_ROWS}: keys repeat too often on both sides; select or tabulate the foreign table inside the <link> first.`,
      { rows: total, maxRows: MAX_EXPANDED_ROWS },
    )
  }
  const rows = new Int32Array(total)
  const index = new Int32Array(total)
  let k = 0
  for (let i = 0; i < first.length; i++) {
    if (first[i] < 0) {
      rows[k] = i
      index[k++] = -1
      continue
    }
    for (let r = first[i]; r >= 0; r = next[r]) {
      rows[k] = i
      index[k++] = r
    }
  }
  return { rows, index }
}
