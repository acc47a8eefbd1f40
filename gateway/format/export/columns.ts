/**
 * How a result column is typed in the exchange formats (CSV, Arrow, Parquet): one decision,
 * shared by the three writers, so that a column is a date (or a big integer) in all of them or in
 * none.
 *
 * - an integer column is a date when its logical type is `date` or its display format says so
 *   (`type:date` or `type:date4y`, both for yyyymmdd integers): a date result of a macro query
 *   computed from a date column carries only the format;
 * - a big-integer column is a 64-bit integer;
 * - float64 columns are doubles, int columns 32-bit integers, text columns UTF-8.
 */
import type { ResultColumn } from '../../../shared/protocol.js'
import type { ColumnMeta } from '../../../shared/table.js'
import { isYmd } from '../../../shared/ymd.js'
export { daysToYmd, ymdToDays } from '../../../shared/ymd.js'
import { displaySpec } from '../display/index.js'

export type ExportKind = 'int32' | 'int64' | 'float64' | 'utf8' | 'date'

const DATE_DISPLAY = new Set(['date', 'date4y'])

export function exportKind(meta: ColumnMeta, column: ResultColumn): ExportKind {
  switch (column.kind) {
    case 'int':
      return meta.logical === 'date' || DATE_DISPLAY.has(displaySpec(meta.format).type) ? 'date' : 'int32'
    case 'float':
      return 'float64'
    case 'bigint':
      return 'int64'
    case 'text':
    case 'coded':
      return 'utf8'
  }
}

/** A yyyymmdd date as ISO text (YYYY-MM-DD), or '' when it is no calendar date. */
export function ymdToIso(ymd: number): string {
  if (!isYmd(ymd)) return ''
  const y = Math.floor(ymd / 10000)
  const m = Math.floor(ymd / 100) % 100
  const d = ymd % 100
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`
}
