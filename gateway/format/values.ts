/**
 * Cell values: how one stored cell becomes a JSON value and how it is shown to a person. The
 * physical column kind decides the JSON value; the column metadata (logical type, format string,
 * cut width) only affects display.
 */
import type { ResultColumn } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { NA_BIGINT, NA_INT } from '../../shared/table.js'
import { isTextColumn, perCode, textReader } from '../../shared/result-text.js'
import { displayFormatter, showsTextAsIs, type DisplayColumn } from './display/index.js'
import { cellOf, type Cell, type LongCell } from './long-cells.js'

/** Reads one cell of a column as a string; built once per column so the row loop stays flat. */
export type CellReader = (row: number) => string

/**
 * The value of a cell: numbers, strings, or null for an N/A (or non-finite) number; a big integer
 * as a number while a float64 holds it exactly (±(2^53 − 1)), else as a bigint.
 */
export function cellValue(column: ResultColumn, row: number): number | bigint | string | null {
  switch (column.kind) {
    case 'int': {
      const v = column.data[row]
      return v === NA_INT ? null : v
    }
    case 'bigint': {
      const v = column.data[row]
      if (v === NA_BIGINT) return null
      const n = Number(v)
      return Number.isSafeInteger(n) ? n : v
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

/** A slice of a long string as JSON writes it between its quotes (slices never cut a surrogate pair). */
const jsonSlice = (slice: string): string => JSON.stringify(slice).slice(1, -1)

const longJson = (text: string): LongCell => ({ text, open: '"', close: '"', encode: jsonSlice })

/** A string as JSON: whole when short, in slices when long (long-cells.ts). */
const jsonString = cellOf((s) => JSON.stringify(s), longJson)

/**
 * A reader giving each cell's JSON text, exactly as JSON.stringify would write cellValue() (a long
 * string as slices that join to that text). String(n) equals JSON.stringify(n) for every finite
 * number (including -0 → "0" and 1e21 → "1e+21"), which avoids a JSON.stringify call per number.
 */
export function jsonCellReader(column: ResultColumn): (row: number) => Cell {
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
    case 'bigint': {
      // Every digit, as a JSON number (docs/endpoints.md): JSON has no limit on digits.
      const data = column.data
      return (row) => {
        const v = data[row]
        return v === NA_BIGINT ? 'null' : v.toString()
      }
    }
    case 'text': {
      const data = column.data
      return (row) => jsonString(data[row])
    }
    case 'coded': {
      // Each distinct string is written as JSON once, however many rows hold it.
      const codes = column.codes
      const json = perCode(column.dict, jsonString)
      return (row) => json(codes[row])
    }
  }
}

/** True when a column holds numbers (ints, dates, floats), which text and HTML right-align. */
export function isNumeric(column: ResultColumn): boolean {
  return !isTextColumn(column)
}

/** What the display rules need to know of a result column (display/index.ts DisplayColumn). */
export function displayColumnOf(meta: ColumnMeta, column: ResultColumn): DisplayColumn {
  return { kind: meta.logical === 'date' ? 'date' : column.kind, format: meta.format, cutAt: meta.cutAt }
}

/**
 * A reader giving each cell's display text for text and HTML output (and formatted JSON): the
 * column's format applied by display/index.ts, N/A as ''. The text is not escaped for any output
 * format.
 */
export function displayCellReader(meta: ColumnMeta, column: ResultColumn): CellReader {
  const display = displayColumnOf(meta, column)
  switch (column.kind) {
    case 'int': {
      const data = column.data
      const show = displayFormatter(display)
      return (row) => {
        const v = data[row]
        return v === NA_INT ? '' : show(v)
      }
    }
    case 'float': {
      const data = column.data
      const show = displayFormatter(display)
      return (row) => show(data[row])
    }
    case 'bigint': {
      const data = column.data
      const show = displayFormatter(display)
      return (row) => {
        const v = data[row]
        return v === NA_BIGINT ? '' : show(v)
      }
    }
    case 'text':
      if (showsTextAsIs(display)) return textReader(column)
      return textDisplayReader(column.data, displayFormatter(display))
    case 'coded': {
      if (showsTextAsIs(display)) return textReader(column)
      // Each distinct string is formatted once, however many rows hold it.
      const codes = column.codes
      const show = perCode(column.dict, displayFormatter(display))
      return (row) => show(codes[row])
    }
  }
}

function textDisplayReader(data: readonly string[], show: (value: unknown) => string): CellReader {
  return (row) => show(data[row])
}
