/**
 * Cell values: how one stored cell becomes a JSON value and how it is shown to a person. The
 * physical column kind decides the JSON value; the column metadata (logical type, format string)
 * only affects display.
 */
import type { ResultColumn } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import { isTextColumn, perCode, textReader } from '../../shared/result-text.js'
import { displayDate, displayFloat, formatDecimals } from '../ui/client/display-rules.js'

// The display rules are shared with the workbench; format/index.ts offers parseFormat from here.
export { parseFormat } from '../ui/client/display-rules.js'

/** Reads one cell of a column as a string; built once per column so the row loop stays flat. */
export type CellReader = (row: number) => string

/** The JSON value of a cell: numbers, strings, or null for an N/A (or non-finite) number. */
export function cellValue(column: ResultColumn, row: number): number | string | null {
  switch (column.kind) {
    case 'int': {
      const v = column.data[row]
      return v === NA_INT ? null : v
    }
    case 'float': {
      // JSON has no NaN or Infinity; both would otherwise become null in JSON.stringify anyway.
      const v = column.data[row]
      return Number.isFinite(v) ? v : null
    }
    case 'text':
      return column.data[row]
    case 'coded':
      return column.dict[column.codes[row]]
  }
}

/**
 * A reader giving each cell's JSON text, exactly as JSON.stringify would write cellValue().
 * String(n) equals JSON.stringify(n) for every finite number (including -0 → "0" and 1e21 →
 * "1e+21"), which avoids a JSON.stringify call per number.
 */
export function jsonCellReader(column: ResultColumn): CellReader {
  switch (column.kind) {
    case 'int': {
      const data = column.data
      return (row) => {
        const v = data[row]
        return v === NA_INT ? 'null' : String(v)
      }
    }
    case 'float': {
      const data = column.data
      return (row) => {
        const v = data[row]
        return Number.isFinite(v) ? String(v) : 'null'
      }
    }
    case 'text': {
      const data = column.data
      return (row) => JSON.stringify(data[row])
    }
    case 'coded': {
      // Each distinct string is written as JSON once, however many rows hold it.
      const codes = column.codes
      const json = perCode(column.dict, (s) => JSON.stringify(s))
      return (row) => json(codes[row])
    }
  }
}

/** True when a column holds numbers (ints, dates, floats), which text and HTML right-align. */
export function isNumeric(column: ResultColumn): boolean {
  return !isTextColumn(column)
}

/**
 * A reader giving each cell's display text for text and HTML output: N/A as '', dates as
 * YYYY-MM-DD, floats per the column's `dec`. The text is not escaped for any output format.
 */
export function displayCellReader(meta: ColumnMeta, column: ResultColumn): CellReader {
  switch (column.kind) {
    case 'int': {
      const data = column.data
      const show = meta.logical === 'date' ? displayDate : String
      return (row) => {
        const v = data[row]
        return v === NA_INT ? '' : show(v)
      }
    }
    case 'float': {
      const data = column.data
      const dec = formatDecimals(meta.format)
      return (row) => {
        const v = data[row]
        return Number.isFinite(v) ? displayFloat(v, dec) : ''
      }
    }
    case 'text':
    case 'coded':
      return textReader(column)
  }
}
