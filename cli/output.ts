/**
 * How the CLI prints what it gets: an aligned table (for people at a terminal), JSON (for
 * programs: a list of row objects for results) or CSV. The default is a table when stdout is a
 * terminal and JSON otherwise, so a pipe into `jq` needs no flag.
 */
import type { RowsResult } from '../client/index.js'
import { UsageError } from './args.js'

export type OutputFormat = 'table' | 'json' | 'csv'

export function outputFormat(option: string | boolean | undefined, isTty: boolean): OutputFormat {
  if (option === undefined) return isTty ? 'table' : 'json'
  if (option === 'table' || option === 'json' || option === 'csv') return option
  throw new UsageError(`--format takes table, json or csv (got ${JSON.stringify(option)}).`)
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvField).join(',')}\n`

const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** An aligned text table; numbers right-aligned. */
export function textTable(cols: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const numeric = cols.map((_, c) => rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === 'number'))
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
  if (format === 'json') {
    const keyed = result.rows.map((r) => Object.fromEntries(result.cols.map((c, i) => [c, r[i]])))
    return `${JSON.stringify(keyed)}\n`
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
  if (table) return formatRows(table, format)
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const rows = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, x])
    return format === 'csv' ? csvLine(['name', 'value']) + rows.map(csvLine).join('') : textTable(['name', 'value'], rows)
  }
  return format === 'csv' ? csvLine([v]) : `${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}\n`
}
