/** Counting a script's outcomes, for `npm run slt` and the test's messages. */
import type { QueryResult, ScriptReport } from './runner.js'

export interface Counts {
  queries: number
  passed: number
  wrong: number
  /** Refusals under a documented limit (test/slt/limits.ts). */
  refusedKnown: number
  /** Refusals under none: these fail. */
  refusedOther: number
  error: number
  skipped: number
  columnar: number
  sqlite: number
}

export const emptyCounts = (): Counts => ({ queries: 0, passed: 0, wrong: 0, refusedKnown: 0, refusedOther: 0, error: 0, skipped: 0, columnar: 0, sqlite: 0 })

export function countsOf(queries: readonly QueryResult[]): Counts {
  const c = emptyCounts()
  for (const q of queries) {
    c.queries++
    if (q.outcome === 'refused') {
      if (q.limit !== undefined) c.refusedKnown++
      else c.refusedOther++
    } else c[q.outcome]++
    if (q.engine === 'columnar') c.columnar++
    if (q.engine === 'sqlite') c.sqlite++
  }
  return c
}

export function addCounts(into: Counts, c: Counts): void {
  for (const k of Object.keys(into) as (keyof Counts)[]) into[k] += c[k]
}

/** The queries that fail a run: wrong answers, 5xx, and refusals outside the documented limits. */
export const failuresOf = (report: ScriptReport): QueryResult[] =>
  report.queries.filter((q) => q.outcome === 'wrong' || q.outcome === 'error' || (q.outcome === 'refused' && q.limit === undefined))

export function describeFailure(file: string, q: QueryResult): string {
  const sql = q.sql.replace(/\s+/g, ' ')
  return `${file}:${q.line} ${q.outcome}${q.engine ? ` (${q.engine})` : ''}: ${q.detail ?? ''}\n    ${sql.length > 300 ? `${sql.slice(0, 300)}…` : sql}`
}
