/** Reading one cell of a ResultSet as variable text, for the recompute form of `<do>`. */
import type { ResultSet } from '../../shared/protocol.js'
import { NA_BIGINT, NA_INT } from '../../shared/table.js'

/**
 * The text of cell (row, col), both 1-based as the macro language counts. N/A and a cell outside
 * the result are '' (empty), so a query that finds nothing clears the variable rather than failing.
 * Integers and dates (yyyymmdd) are written as integers, floats in their shortest form.
 */
export function cellText(result: ResultSet, row: number, col: number): string {
  if (row < 1 || col < 1 || row > result.rowCount || col > result.columns.length) return ''
  const column = result.columns[col - 1]
  const i = row - 1
  switch (column.kind) {
    case 'int': {
      const v = column.data[i]
      return v === NA_INT || v === undefined ? '' : String(v)
    }
    case 'float': {
      const v = column.data[i]
      return v === undefined || Number.isNaN(v) ? '' : Object.is(v, -0) ? '0' : String(v)
    }
    case 'bigint': {
      const v = column.data[i]
      return v === undefined || v === NA_BIGINT ? '' : v.toString()
    }
    case 'text':
      return column.data[i] ?? ''
    case 'coded':
      return column.dict[column.codes[i]] ?? ''
  }
}
