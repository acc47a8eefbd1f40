/**
 * A SELECT without FROM (`SELECT 1 + 2, abs(-3)`): SQLite computes its select list over one row
 * of no columns (an aggregate sees that one row: `count(*)` is 1). The compiled plan reads it from
 * a table of one row that no catalog path can name (its path holds a space), which the caller
 * that runs the plan adds to its tables when the plan reads it (CompiledSql.oneRow).
 */
import type { TableInput } from '../../../shared/protocol.js'
import type { ColumnSpec } from '../../../shared/table.js'

export const ONE_ROW_PATH = 'one row'

/** Its one column, which no name of the query reaches (the plan gives the item no names). */
export const ONE_ROW_COLUMNS: readonly ColumnSpec[] = [{ name: 'one_row', type: 'int' }]

/** The table of one row, as a task carries a table. */
export function oneRowTable(): TableInput {
  const buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)
  new Int32Array(buffer)[0] = 1
  return { path: ONE_ROW_PATH, version: ONE_ROW_PATH, rows: 1, title: '', columns: [{ spec: ONE_ROW_COLUMNS[0], buffer }] }
}
