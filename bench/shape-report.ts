/**
 * The two ratios of each all-rows query side by side (bench:engine): ours against single-threaded
 * DuckDB on the all-rows answer, where ours hands over stored columns uncopied (but for sort and
 * link's looked-up columns) and DuckDB copies every column into its result, and on the same-shape variants, where both return only the
 * computed columns, or their sums.
 */
import { fmtMs, fmtRatio, msOf, ratio, type Row, type SizeReport } from './report.js'

const HEAD = [
  'query',
  'all rows: ours ms',
  'DuckDB 1t ms',
  'ratio (all rows)',
  'computed cols: ours ms',
  'DuckDB 1t ms',
  'ratio (same shape)',
  'sums: ours ms',
  'DuckDB 1t ms',
  'ratio (same shape)',
]

function lines(size: SizeReport): string[][] {
  const out: string[][] = []
  for (const all of size.results.filter((r) => r.of === null)) {
    const variants = size.results.filter((r) => r.of === all.query)
    if (variants.length === 0) continue
    const triple = (r: Row | undefined): string[] => (r ? [fmtMs(r.ours), fmtMs(r.duck1), fmtRatio(ratio(msOf(r.ours), msOf(r.duck1)))] : ['-', '-', '-'])
    out.push([all.query, ...triple(all), ...triple(variants.find((v) => v.shape === 'cols')), ...triple(variants.find((v) => v.shape === 'sum'))])
  }
  return out
}

const NOTE =
  'ratio = ours / DuckDB 1 thread (below 1: ours faster). "all rows": the whole answer; ours hands over the stored columns as they are where its rows are the table\'s rows in order (willbe, gsum, the item columns of link) and gathers them only for sort and the looked-up columns of link, while DuckDB copies every column into its result. "computed cols" and "sums": answers of the same shape on both sides (only the computed, looked-up or sorted columns, or their sums), each checked equal to the all-rows answer.'

export function shapeText(size: SizeReport): string {
  const rows = lines(size)
  if (rows.length === 0) return ''
  const all = [HEAD, ...rows]
  const widths = HEAD.map((_, c) => Math.max(...all.map((r) => r[c].length)))
  const line = (r: string[]) =>
    r
      .map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c])))
      .join('  ')
      .trimEnd()
  return ['Same shape against all rows (ms):', line(HEAD), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), NOTE].join('\n')
}

export function shapeMarkdown(size: SizeReport): string {
  const rows = lines(size)
  if (rows.length === 0) return ''
  const line = (r: string[]) => `| ${r.join(' | ')} |`
  return [
    line(HEAD),
    `|---|${HEAD.slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...rows.map(line),
    '',
    NOTE,
  ].join('\n')
}
