/**
 * The suite's report: per question tabula with 1 worker against DuckDB with 1 thread and tabula
 * with 2 workers against DuckDB with 2, each ratio tabula/DuckDB (under 1: tabula is faster);
 * then the geometric means of the ratios and how many are over 1.5 and over 2.0.
 */
import type { SuiteQuestion } from './questions/index.js'
import type { Timing } from './timing.js'

export interface Pairing {
  readonly tabula: Timing
  readonly duck: Timing
}

export type QuestionResult =
  | { readonly question: SuiteQuestion; readonly kind: 'timed'; readonly one: Pairing; readonly two: Pairing }
  | { readonly question: SuiteQuestion; readonly kind: 'answers differ' | 'error'; readonly lines: readonly string[] }

export const ratioOf = (p: Pairing): number | null => (p.tabula.kind === 'ok' && p.duck.kind === 'ok' && p.duck.ms > 0 ? p.tabula.ms / p.duck.ms : null)

const fmtMs = (t: Timing): string => (t.kind !== 'ok' ? 'ERROR' : t.ms >= 100 ? t.ms.toFixed(0) : t.ms >= 10 ? t.ms.toFixed(1) : t.ms.toFixed(2))
const fmtRatio = (x: number | null): string => (x === null ? '-' : x.toFixed(2))

const HEAD = ['question', 'tabula 1w ms', 'DuckDB 1t ms', '1w/1t', 'tabula 2w ms', 'DuckDB 2t ms', '2w/2t']

function cells(r: QuestionResult): string[] {
  const name = `${r.question.name}${r.question.issueShape ? ' *' : ''}`
  if (r.kind !== 'timed') return [name, r.kind.toUpperCase(), '', '', '', '', '']
  return [name, fmtMs(r.one.tabula), fmtMs(r.one.duck), fmtRatio(ratioOf(r.one)), fmtMs(r.two.tabula), fmtMs(r.two.duck), fmtRatio(ratioOf(r.two))]
}

export interface Summary {
  readonly geomean: number | null
  readonly over15: number
  readonly over20: number
  readonly count: number
}

/** Geometric mean of the ratios that exist, and how many exceed 1.5 and 2.0. */
export function summarise(ratios: readonly (number | null)[]): Summary {
  const xs = ratios.filter((x): x is number => x !== null && x > 0)
  const geomean = xs.length === 0 ? null : Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length)
  return { geomean, over15: xs.filter((x) => x > 1.5).length, over20: xs.filter((x) => x > 2).length, count: xs.length }
}

function summaryLines(results: readonly QuestionResult[]): string[] {
  const timed = results.filter((r) => r.kind === 'timed')
  const line = (label: string, s: Summary) =>
    `${label}: geometric mean ${s.geomean === null ? '-' : s.geomean.toFixed(2)} over ${s.count} questions; over 1.5: ${s.over15}; over 2.0: ${s.over20}`
  const untimed = results.filter((r) => r.kind !== 'timed')
  return [
    line('1 worker / DuckDB 1 thread', summarise(timed.map((r) => ratioOf(r.one)))),
    line('2 workers / DuckDB 2 threads', summarise(timed.map((r) => ratioOf(r.two)))),
    ...(untimed.length > 0 ? [`not timed: ${untimed.map((r) => `${r.question.name} (${r.kind})`).join(', ')}`] : []),
    '* = one of the seven shapes of issue 19',
  ]
}

export function textReport(results: readonly QuestionResult[]): string {
  const rows = [HEAD, ...results.map(cells)]
  const widths = HEAD.map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  const line = (r: readonly string[]) =>
    r
      .map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c])))
      .join('  ')
      .trimEnd()
  return [line(HEAD), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), '', ...summaryLines(results)].join('\n')
}

export function markdownReport(results: readonly QuestionResult[]): string {
  const line = (r: readonly string[]) => `| ${r.join(' | ')} |`
  return [
    line(HEAD),
    `|---|${HEAD.slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...results.map((r) => line(cells(r))),
    '',
    ...summaryLines(results),
  ].join('\n')
}
