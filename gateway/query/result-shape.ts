/**
 * Every query result (api/run, api/sql, instances, savetable) comes back from the pool through
 * runOnPool, whatever gave it its columns: willbe chains, tabu tcols and cbreaks cross-tabs,
 * colord, links, SQL select lists. This is where their count and their names are bounded
 * (shared/name-limits.ts), so a result is refused the same way however it was made, and a
 * result that could be shown can also be saved.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { checkColumnCount, checkFieldLength, checkSqlResultNames, quoteName } from '../../shared/name-limits.js'

/**
 * `nameField` says whose names the result has. `name`: the macro language's (willbe, tcol…),
 * which a table may hold, each at most FIELD_LIMITS.name (128), labels at most FIELD_LIMITS.label.
 * `label`: an answer of sql.js, named by SQLite, which names an unaliased column by its
 * expression's text with no limit (sqllogictest has names of 130-300 characters; issue 38): no
 * one name is bounded, only all of them together (MAX_SQL_NAME_CHARS, which says why). A compiled
 * SQL answer is checked as `name` with the engine's own names and then given SQLite's, which the
 * compiler bounds the same way (engine/sql/compile/index.ts). Saving such a result still needs
 * names a table may have (validateTable): that limit protects the catalog, listings and `!cols`.
 */
export function checkResultShape(result: ResultSet, nameField: 'name' | 'label' = 'name'): void {
  checkColumnCount(
    result.cols.length,
    'the result',
    'TOO_MANY_COLUMNS',
    'select fewer columns (colord, fewer willbe or tcol, fewer cbreaks values, or a narrower select list)',
  )
  if (nameField === 'label') {
    checkSqlResultNames(result.cols.map((col) => col.label))
    return
  }
  result.cols.forEach((col, i) => {
    checkFieldLength('name', col.name, `the name of result column ${i + 1} (${quoteName(col.name)})`, 'INVALID_PARAMETER', { column: i + 1 })
    checkFieldLength('label', col.label, `the label of result column ${quoteName(col.name)}`, 'INVALID_PARAMETER', { column: col.name })
  })
}
