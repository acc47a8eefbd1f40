/**
 * How the CLI prints what it gets: an aligned table (for people at a terminal), JSON (for
 * programs: a list of row objects for results), JSON lines (one row object a line, for streams
 * of rows) or CSV (RFC 4180). The default is a table when stdout is a terminal and JSON
 * otherwise, so a pipe into `jq` needs no flag. Parquet and Arrow (results only) are the
 * service's own `:parquet` and `:arrow` answers, written as they come (query.ts), not here.
 */
import type { RowsResult } from '../client/index.js'
import { UsageError } from './args.js'

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** The format an output file's name implies (`-o out.csv`), or null. */
export function formatOfFile(file: string): OutputFormat | null {
  const ext = /\.([a-z]+)$/i.exec(file)?.[1].toLowerCase()
  if (ext === 'csv' || ext === 'json' || ext === 'jsonl') return ext
  if (ext === 'ndjson') return 'jsonl'
  if (ext === 'txt') return 'table'
  return null
}

/**
 * Formats that are files, not text to print: sql and run write the service's own (query.ts),
 * upload and download read them from --format themselves. For printing anything else, such a
 * --format leaves the default.
 */
const FILE_FORMATS = ['parquet', 'arrow']
export type BinaryFormat = 'parquet' | 'arrow'

/** The binary format sql or run is asked to write (--format, else -o FILE's extension), or null. */
export function binaryOutput(option: string | boolean | undefined, file: string | undefined): BinaryFormat | null {
  if (typeof option === 'string' && FILE_FORMATS.includes(option)) return option as BinaryFormat
  if (option === undefined && file !== undefined) {
    if (/\.parquet$/i.test(file)) return 'parquet'
    if (/\.(arrow|arrows|ipc)$/i.test(file)) return 'arrow'
  }
  return null
}

/** `--format`, else the output file's extension, else the profile's format, else by where output goes. */
export function outputFormat(option: string | boolean | undefined, isTty: boolean, file?: string, profileFormat?: string): OutputFormat {
  const given = typeof option === 'string' && FILE_FORMATS.includes(option) ? undefined : option
  const chosen = given ?? (file !== undefined ? (formatOfFile(file) ?? undefined) : undefined) ?? profileFormat
  if (chosen === undefined) return isTty && file === undefined ? 'table' : 'json'
  if ((OUTPUT_FORMATS as readonly unknown[]).includes(chosen)) return chosen as OutputFormat
  throw new UsageError(`--format takes ${OUTPUT_FORMATS.join(', ')} (got ${JSON.stringify(chosen)}).`)
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvField).join(',')}\n`

const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/**
 * A number as the service's display formats write one (`values_=formatted`): 12, -3.50,
 * 1,234,567, $1,234.50, -$3.20, 12.5%, 1e-7.
 */
const SHOWN_NUMBER = /^-?\$?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?(e[+-]?\d+)?%?$/i

/** Numbers (or their formatted text) right-aligned; a column of N/A alone is not numeric. */
function isNumericCell(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && SHOWN_NUMBER.test(v))
}

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === ''

/** An aligned text table; numbers (raw, or as the service formats them) right-aligned. */
export function textTable(cols: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const numeric = cols.map((_, c) => rows.some((r) => !isEmpty(r[c])) && rows.every((r) => isEmpty(r[c]) || isNumericCell(r[c])))
  const texts = rows.map((r) => cols.map((_, c) => cell(r[c]).replace(/[\r\n\t]/g, ' ')))
  const widths = cols.map((name, c) => Math.max(name.length, ...texts.map((t) => t[c].length)))
  const line = (values: readonly string[], header = false): string =>
    values
      .map((v, c) => (numeric[c] && !header ? v.padStart(widths[c]) : v.padEnd(widths[c])))
      .join('  ')
      .trimEnd()
  const out = [line(cols, true), widths.map((w) => '-'.repeat(w)).join('  ')]
  for (const t of texts) out.push(line(t))
  return `${out.join('\n')}\n`
}

/** A result set in the chosen format. */
export function formatRows(result: RowsResult, format: OutputFormat): string {
  if (format === 'csv') return csvLine(result.cols) + result.rows.map(csvLine).join('')
  if (format === 'json' || format === 'jsonl') {
    const keyed = result.rows.map((r) => Object.fromEntries(result.cols.map((c, i) => [c, r[i]])))
    return format === 'json' ? `${JSON.stringify(keyed)}\n` : keyed.map((row) => `${JSON.stringify(row)}\n`).join('')
  }
  return textTable(result.cols, result.rows)
}

/** Column-major `{col: [values]}` (as dbm lists come back), or null when `v` is not one. */
export function asColumnMajor(v: unknown): RowsResult | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const entries = Object.entries(v as Record<string, unknown>)
  if (entries.length === 0 || !entries.every(([, a]) => Array.isArray(a))) return null
  const n = (entries[0][1] as unknown[]).length
  if (!entries.every(([, a]) => (a as unknown[]).length === n)) return null
  return { cols: entries.map(([k]) => k), rows: Array.from({ length: n }, (_, r) => entries.map(([, a]) => (a as unknown[])[r])) }
}

/**
 * Any other value (a dbm answer, a status): JSON as it is; as a table, a column-major value as
 * rows, an object as name/value lines, anything else as JSON.
 */
export function formatValue(v: unknown, format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(v)}\n`
  const table = asColumnMajor(v)
  if (format === 'jsonl') return table ? formatRows(table, format) : `${JSON.stringify(v)}\n`
  if (table) return formatRows(table, format)
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const rows = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, x])
    return format === 'csv' ? csvLine(['name', 'value']) + rows.map(csvLine).join('') : textTable(['name', 'value'], rows)
  }
  return format === 'csv' ? csvLine([v]) : `${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}\n`
}
