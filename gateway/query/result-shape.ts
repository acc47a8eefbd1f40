/**
 * Every query result (api/run, api/sql, instances, savetable) comes back from the pool through
 * runOnPool, whatever gave it its columns: willbe chains, tabu tcols and cbreaks cross-tabs,
 * colord, links, SQL select lists. This is where their count and their names are bounded
 * (shared/name-limits.ts), so a result is refused the same way however it was made, and a
 * result that could be shown can also be saved.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { checkColumnCount, checkFieldLength, quoteName } from '../../shared/name-limits.js'

/**
 * `nameField` bounds the column names: `name` (128) for what the macro language names (willbe,
 * tcol…), which a table may hold; `label` (1024) for SQL, which names an unaliased column by its
 * expression's text, as SQLite does without a limit (sqllogictest has names of 130-300
 * characters). Saving such a result still needs names of a table (validateTable).
 */
export function checkResultShape(result: ResultSet, nameField: 'name' | 'label' = 'name'): void {
  checkColumnCount(
    result.cols.length,
    'the result',
    'TOO_MANY_COLUMNS',
    'select fewer columns (colord, fewer willbe or tcol, fewer cbreaks values, or a narrower select list)',
  )
  result.cols.forEach((col, i) => {
    checkFieldLength(nameField, col.name, `the name of result column ${i + 1} (${quoteName(col.name)})`, 'INVALID_PARAMETER', { column: i + 1 })
    checkFieldLength('label', col.label, `the label of result column ${quoteName(col.name)}`, 'INVALID_PARAMETER', { column: col.name })
  })
}
