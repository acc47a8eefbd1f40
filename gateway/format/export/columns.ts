/**
 * How a result column is typed in the exchange formats (CSV, Arrow, Parquet): one decision,
 * shared by the three writers, so that a column is a date (or a big integer) in all of them or in
 * none.
 *
 * - an integer column is a date when its logical type is `date` or its display format says so
 *   (`type:date` or `type:date4y`, both for yyyymmdd integers): a date result of a macro query
 *   computed from a date column carries only the format;
 * - a float64 column whose letter is `j` holds whole numbers exact to ±2^53: a 64-bit integer;
 * - other float64 columns are doubles, int columns 32-bit integers, text columns UTF-8.
 */
import type { ResultColumn } from '../../../shared/protocol.js'
import type { ColumnMeta } from '../../../shared/table.js'
import { isYmd } from '../../../shared/ymd.js'
import { displaySpec } from '../display/index.js'

export type ExportKind = 'int32' | 'int64' | 'float64' | 'utf8' | 'date'

const DATE_DISPLAY = new Set(['date', 'date4y'])

export function exportKind(meta: ColumnMeta, column: ResultColumn): ExportKind {
  switch (column.kind) {
    case 'int':
      return meta.logical === 'date' || DATE_DISPLAY.has(displaySpec(meta.format).type) ? 'date' : 'int32'
    case 'float':
      return meta.type === 'j' || meta.logical === 'bigint' ? 'int64' : 'float64'
    case 'text':
    case 'coded':
      return 'utf8'
  }
}

const DAY_MS = 86_400_000

/**
 * Days since 1970-01-01 of a yyyymmdd date, or null when the integer is no calendar date (such a
 * value in a date column is written as N/A: the formats have no way to hold it as a date).
 */
export function ymdToDays(ymd: number): number | null {
  if (!isYmd(ymd)) return null
  const y = Math.floor(ymd / 10000)
  const date = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(y, (Math.floor(ymd / 100) % 100) - 1, ymd % 100)
  return Math.round(date.getTime() / DAY_MS)
}

/** The yyyymmdd of a day count since 1970-01-01, or null outside years 1–9999. */
export function daysToYmd(days: number): number | null {
  if (!Number.isFinite(days)) return null
  const date = new Date(Math.round(days) * DAY_MS)
  const y = date.getUTCFullYear()
  if (!(y >= 1 && y <= 9999)) return null
  return y * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate()
}

/** A yyyymmdd date as ISO text (YYYY-MM-DD), or '' when it is no calendar date. */
export function ymdToIso(ymd: number): string {
  if (!isYmd(ymd)) return ''
  const y = Math.floor(ymd / 10000)
  const m = Math.floor(ymd / 100) % 100
  const d = ymd % 100
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`
}
