/**
 * Cell values: how one stored cell becomes a JSON value and how it is shown to a person. The
 * physical column kind decides the JSON value; the column metadata (logical type, format string)
 * only affects display.
 */
import type { ResultColumn } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import { isTextColumn, perCode, textReader } from '../../shared/result-text.js'

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

/**
 * Parse a `key:value;key:value` format string (`type:num;width:12;dec:2`). Keys are trimmed and
 * lower-cased, values trimmed; empty or colon-less parts are skipped and a later key wins. The
 * format comes from user metadata, so it must never throw.
 */
export function parseFormat(format: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>()
  for (const part of format.split(';')) {
    const colon = part.indexOf(':')
    if (colon < 0) continue
    const key = part.slice(0, colon).trim().toLowerCase()
    if (key !== '') out.set(key, part.slice(colon + 1).trim())
  }
  return out
}

/** toFixed's useful range; a float has ~17 significant digits, so more decimals are noise. */
const MAX_DECIMALS = 20

/** The `dec:N` of a format string, clamped to 0…20, or null when absent or not a whole number. */
export function formatDecimals(format: string): number | null {
  const dec = parseFormat(format).get('dec')
  if (dec === undefined || !/^\d+$/.test(dec)) return null
  return Math.min(Number(dec), MAX_DECIMALS)
}

/** Decimals shown for a float whose format has no `dec`. */
const DEFAULT_DECIMALS = 6

/** "-0.00" reads as a bug to people; show zero without a sign. */
function unsignZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

/** Drop trailing zeros of a fraction (and a bare trailing point), keeping any exponent. */
function trimFraction(text: string): string {
  const e = text.search(/e/i)
  const mantissa = e < 0 ? text : text.slice(0, e)
  const exponent = e < 0 ? '' : text.slice(e)
  if (!mantissa.includes('.')) return text
  return mantissa.replace(/\.?0+$/, '') + exponent
}

/**
 * Display text of a finite float: `dec` fixed decimals when the format gives them; otherwise up
 * to six decimals with trailing zeros trimmed, and for magnitudes below 1 six significant digits
 * so that tiny values do not collapse to 0.
 */
export function displayFloat(value: number, dec: number | null): string {
  if (dec !== null) return unsignZero(value.toFixed(dec))
  const text = Math.abs(value) >= 1 || value === 0
    ? value.toFixed(DEFAULT_DECIMALS)
    : value.toPrecision(DEFAULT_DECIMALS)
  return unsignZero(trimFraction(text))
}

/**
 * Display text of a yyyymmdd integer as YYYY-MM-DD. Values that cannot be a date are shown as the
 * plain integer rather than as a misleading date.
 */
export function displayDate(value: number): string {
  const day = value % 100
  const month = Math.floor(value / 100) % 100
  const year = Math.floor(value / 10000)
  if (value <= 0 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return String(value)
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
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
