/** Formatting the benchmark's tables: aligned text for the terminal, Markdown for docs/benchmarks.md. */
import type { Outcome } from './measure.js'
import type { SummaryRow } from './summary.js'

export interface Row {
  readonly query: string
  /** For a same-shape variant: the all-rows query it asks again, and how (queries.ts SAME_SHAPE). */
  readonly of: string | null
  readonly shape: 'cols' | 'sum' | null
  readonly ours: Outcome | null
  readonly duck1: Outcome | null
  readonly duckN: Outcome | null
  readonly sqljs: Outcome | null
}

export interface SizeReport {
  readonly rows: number
  readonly duckThreads: number
  /** Why sql.js was not run at this size, if it was not. */
  readonly sqljsSkipped: string | null
  readonly duckSkipped: string | null
  readonly results: readonly Row[]
}

/** sql.js must be at least this many times slower than ours. */
export const SQLJS_TARGET = 20
/** Ours must be within this factor of single-threaded DuckDB at TARGET_ROWS. */
export const DUCK_TARGET = 1.5
export const TARGET_ROWS = 10_000_000

export const msOf = (o: Outcome | null): number | null => (o?.kind === 'ok' ? o.ms : null)

export function fmtMs(o: Outcome | null): string {
  if (o === null) return 'n/a'
  if (o.kind === 'error') return 'ERROR'
  if (o.kind === 'mismatch') return 'MISMATCH'
  return o.ms >= 100 ? o.ms.toFixed(0) : o.ms >= 10 ? o.ms.toFixed(1) : o.ms.toFixed(2)
}

function fmtRate(rows: number, o: Outcome | null): string {
  const ms = msOf(o)
  if (ms === null) return '-'
  const r = rows / (ms / 1000)
  return r >= 1e9 ? `${(r / 1e9).toFixed(1)}G` : r >= 1e6 ? `${(r / 1e6).toFixed(0)}M` : `${(r / 1e3).toFixed(0)}k`
}

export const ratio = (a: number | null, b: number | null): number | null => (a === null || b === null || b === 0 ? null : a / b)
export const fmtRatio = (x: number | null): string => (x === null ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))

export interface Verdicts {
  /** null = not measured at this size. */
  readonly sqljs: boolean | null
  readonly duck: boolean | null
}

export function verdicts(size: SizeReport, row: Row): Verdicts {
  const ours = msOf(row.ours)
  const vsSql = ratio(msOf(row.sqljs), ours)
  const vsDuck = ratio(ours, msOf(row.duck1))
  const oursFailed = row.ours !== null && row.ours.kind !== 'ok'
  return {
    sqljs: oursFailed ? false : vsSql === null ? null : vsSql >= SQLJS_TARGET,
    duck: size.rows < TARGET_ROWS ? null : oursFailed ? false : vsDuck === null ? null : vsDuck <= DUCK_TARGET,
  }
}

const yn = (v: boolean | null, what: string): string => (v === null ? '' : `${what} ${v ? 'yes' : 'NO'}`)

function cells(size: SizeReport, row: Row): string[] {
  const ours = msOf(row.ours)
  const v = verdicts(size, row)
  const targets = [yn(v.sqljs, `>=${SQLJS_TARGET}x sql.js:`), yn(v.duck, `<=${DUCK_TARGET}x DuckDB-1t:`)].filter(Boolean).join('; ')
  return [
    row.query,
    fmtMs(row.ours),
    fmtRate(size.rows, row.ours),
    fmtMs(row.duck1),
    fmtMs(row.duckN),
    fmtMs(row.sqljs),
    fmtRatio(ratio(ours, msOf(row.duck1))),
    fmtRatio(ratio(msOf(row.sqljs), ours)),
    targets || '-',
  ]
}

function headings(size: SizeReport): string[] {
  return ['query', 'ours ms', 'rows/s', 'DuckDB 1t ms', `DuckDB ${size.duckThreads}t ms`, 'sql.js ms', 'ours/DuckDB-1t', 'sql.js/ours', 'targets']
}

export function textTable(size: SizeReport): string {
  const rows = [headings(size), ...size.results.map((r) => cells(size, r))]
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  const line = (r: string[]) =>
    r
      .map((s, c) => (c === 0 || c === r.length - 1 ? s.padEnd(widths[c]) : s.padStart(widths[c])))
      .join('  ')
      .trimEnd()
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n')
}

export function markdownTable(size: SizeReport): string {
  const rows = [headings(size), ...size.results.map((r) => cells(size, r))]
  const line = (r: string[]) => `| ${r.join(' | ')} |`
  return [line(rows[0]), `|${rows[0].map((_, c) => (c === 0 || c === rows[0].length - 1 ? '---' : '---:')).join('|')}|`, ...rows.slice(1).map(line)].join('\n')
}

/** The headline rows for `npm run bench`'s summary: each query against its target at its size. */
export function engineSummary(size: SizeReport): SummaryRow[] {
  const out: SummaryRow[] = []
  for (const row of size.results) {
    const ours = msOf(row.ours)
    const v = verdicts(size, row)
    // Which ratio is which: the all-rows answer (ours mostly uncopied, DuckDB copies) or an answer of the same shape.
    const shape = row.of !== null ? ', same shape' : size.results.some((r) => r.of === row.query) ? ', all rows (DuckDB copies every column)' : ''
    if (v.duck !== null) {
      const duck = msOf(row.duck1)
      out.push({
        group: 'engine',
        figure: `${row.query} ${size.rows / 1e6}M rows${shape}`,
        unit: 'ms',
        ours,
        reference: duck,
        referenceLabel: 'DuckDB 1t',
        ratio: ratio(ours, duck),
        target: `<= ${DUCK_TARGET}`,
        ok: v.duck,
      })
    }
    if (v.sqljs !== null) {
      const sql = msOf(row.sqljs)
      out.push({
        group: 'engine',
        figure: `${row.query} ${size.rows / 1e6}M rows`,
        unit: 'ms',
        ours,
        reference: sql,
        referenceLabel: 'sql.js',
        ratio: ratio(sql, ours),
        target: `sql.js/ours >= ${SQLJS_TARGET}`,
        ok: v.sqljs,
      })
    }
  }
  return out
}
