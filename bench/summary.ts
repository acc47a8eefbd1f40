/**
 * One line of `npm run bench`'s closing summary: a figure of ours beside a reference measured in
 * the same run, their ratio, and the target it must meet. Every benchmark module reports its
 * headline figures in this shape so the summary prints them as one table.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'

export interface SummaryRow {
  /** Which benchmark: 'engine', 'http', 'parallel', 'startup', ... */
  readonly group: string
  /** What was measured, e.g. 'api/sql small, 64 conns, req/s'. */
  readonly figure: string
  readonly ours: number | null
  /** The same measurement on the reference (bare Koa, one worker, DuckDB, disk read speed ...). */
  readonly reference: number | null
  readonly referenceLabel: string
  /** ours relative to the reference, oriented as the target reads (e.g. ours/reference for throughput). */
  readonly ratio: number | null
  /** The target in words, e.g. '>= 0.5', or '' when the row is informative only. */
  readonly target: string
  /** Whether the target held; null when there is no target or no figure. */
  readonly ok: boolean | null
  readonly unit: string
}

function fmt(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '-'
  const a = Math.abs(n)
  return a >= 1000 ? n.toFixed(0) : a >= 10 ? n.toFixed(1) : n.toFixed(2)
}

const HEAD = ['group', 'figure', 'ours', 'reference', 'ratio', 'target', 'verdict'] as const

function cells(r: SummaryRow): string[] {
  const verdict = r.ok === null ? '' : r.ok ? 'ok' : 'MISS'
  return [
    r.group,
    `${r.figure} (${r.unit})`,
    fmt(r.ours),
    `${fmt(r.reference)} ${r.referenceLabel}`.trim(),
    r.ratio === null ? '-' : r.ratio.toFixed(2),
    r.target,
    verdict,
  ]
}

/** The rows as an aligned text table. */
export function summaryText(rows: readonly SummaryRow[]): string {
  const table = [HEAD.slice() as string[], ...rows.map(cells)]
  const widths = HEAD.map((_, i) => Math.max(...table.map((r) => r[i].length)))
  return table
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** The rows as a Markdown table, for docs/benchmarks.md. */
export function summaryMarkdown(rows: readonly SummaryRow[]): string {
  const lines = [`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`]
  for (const r of rows) lines.push(`| ${cells(r).join(' | ')} |`)
  return lines.join('\n')
}

/**
 * `npm run bench` runs each benchmark as its own process (so one's data and garbage never slow
 * the next) with BENCH_SUMMARY_FILE set; each appends its headline rows there, one JSON line a row.
 */
export const SUMMARY_FILE_VARIABLE = 'BENCH_SUMMARY_FILE'

export function reportSummary(rows: readonly SummaryRow[]): void {
  const file = process.env[SUMMARY_FILE_VARIABLE]
  if (!file) return
  appendFileSync(file, rows.map((r) => JSON.stringify(r) + '\n').join(''))
}

export function readSummary(file: string): SummaryRow[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SummaryRow)
}
