/**
 * Every query result (api/run, api/sql, instances, savetable) comes back from the pool through
 * runOnPool, whatever gave it its columns: willbe chains, tabu tcols and cbreaks cross-tabs,
 * colord, links, SQL select lists. This is where their count and their names are bounded
 * (shared/name-limits.ts), so a result is refused the same way however it was made, and a
 * result that could be shown can also be saved.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { checkColumnCount, checkFieldLength, quoteName } from '../../shared/name-limits.js'

export function checkResultShape(result: ResultSet): void {
  checkColumnCount(
    result.cols.length,
    'the result',
    'TOO_MANY_COLUMNS',
    'select fewer columns (colord, fewer willbe or tcol, fewer cbreaks values, or a narrower select list)',
  )
  result.cols.forEach((col, i) => {
    checkFieldLength('name', col.name, `the name of result column ${i + 1} (${quoteName(col.name)})`, 'INVALID_PARAMETER', { column: i + 1 })
    checkFieldLength('label', col.label, `the label of result column ${quoteName(col.name)}`, 'INVALID_PARAMETER', { column: col.name })
  })
}
