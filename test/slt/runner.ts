/**
 * Runs one sqllogictest script against a gateway: statements build the database
 * (test/slt/database.ts), each query goes to api/sql with its names rewritten, and its answer is
 * compared the sqllogictest way (test/slt/answers.ts). Every query gets one outcome:
 *
 *   passed   the expected answer
 *   wrong    another answer (or another number of columns)
 *   refused  a 4xx, with the message and the documented limit it falls under, if any
 *   error    a 5xx
 *   skipped  not expressible here (the reason: a table changed by UPDATE, …)
 */
import { answerValues, hashValues, mismatch } from './answers.js'
import { SltDatabase } from './database.js'
import type { Gateway } from './gateway.js'
import { knownLimitOf } from './limits.js'
import { parseScript, type QueryRecord } from './records.js'
import { readStatement } from './statements.js'

export type Outcome = 'passed' | 'wrong' | 'refused' | 'error' | 'skipped'

export interface QueryResult {
  readonly line: number
  readonly sql: string
  readonly outcome: Outcome
  /** What was wrong, the refusal's or error's message, or why it was skipped. */
  readonly detail?: string
  /** For a refusal: the documented limit it falls under. */
  readonly limit?: string
  readonly engine?: string
}

export interface ScriptReport {
  readonly name: string
  readonly queries: readonly QueryResult[]
  /** Statements applied, and those skipped by reason. */
  readonly statementsApplied: number
  readonly statementsSkipped: ReadonlyMap<string, number>
  readonly seconds: number
}

export interface RunOptions {
  /** Run only the first `maxQueries` queries (the statements before them all run). */
  readonly maxQueries?: number
  /** The dotted folder to upload this script's tables into (it must exist). */
  readonly folder: string
}

export async function runScript(gateway: Gateway, name: string, text: string, opts: RunOptions): Promise<ScriptReport> {
  const started = performance.now()
  const db = new SltDatabase(gateway, opts.folder)
  const queries: QueryResult[] = []
  const skippedStatements = new Map<string, number>()
  const labels = new Map<string, string>()
  let applied = 0
  const skipStatement = (reason: string): void => {
    skippedStatements.set(reason, (skippedStatements.get(reason) ?? 0) + 1)
  }
  for (const record of parseScript(text, name)) {
    if (opts.maxQueries !== undefined && queries.length >= opts.maxQueries) break
    if (record.kind === 'halt') break
    if (record.kind === 'hash-threshold') continue
    if (record.kind === 'statement') {
      if (record.expectError) {
        skipStatement('statement error (an expected error is not checked)')
        continue
      }
      let outcome
      try {
        outcome = await db.apply(readStatement(record.sql))
      } catch (err) {
        outcome = { kind: 'skipped' as const, reason: `cannot read the statement: ${(err as Error).message}` }
      }
      if (outcome.kind === 'applied') applied++
      else skipStatement(outcome.reason)
      continue
    }
    queries.push(await runQuery(db, gateway, record, labels))
  }
  return { name, queries, statementsApplied: applied, statementsSkipped: skippedStatements, seconds: (performance.now() - started) / 1000 }
}

async function runQuery(db: SltDatabase, gateway: Gateway, q: QueryRecord, labels: Map<string, string>): Promise<QueryResult> {
  const base = { line: q.line, sql: q.sql }
  let prepared
  try {
    prepared = await db.prepareQuery(q.sql)
  } catch (err) {
    return { ...base, outcome: 'skipped', detail: (err as Error).message }
  }
  if (prepared.kind === 'skipped') return { ...base, outcome: 'skipped', detail: prepared.reason }
  if (prepared.kind === 'refused') return { ...base, outcome: 'refused', detail: prepared.message, limit: knownLimitOf(prepared.message)?.kind }
  const answer = await gateway.sql(prepared.sql)
  const engine = answer.engine
  if (answer.status >= 500) return { ...base, outcome: 'error', detail: `${answer.status}: ${answer.message}`, engine }
  if (answer.status !== 200) {
    const detail = `${answer.status}: ${answer.message}`
    return { ...base, outcome: 'refused', detail, limit: knownLimitOf(detail)?.kind, engine }
  }
  const columns = answer.rows[0]?.length ?? q.types.length
  if (columns !== q.types.length) return { ...base, outcome: 'wrong', detail: `${columns} columns, ${q.types.length} expected`, engine }
  const values = answerValues(answer.rows, q.types, q.sort)
  const wrong = mismatch(values, columns, q.expected)
  if (wrong !== undefined) return { ...base, outcome: 'wrong', detail: wrong, engine }
  if (q.label !== undefined) {
    const md5 = hashValues(values)
    const earlier = labels.get(q.label)
    if (earlier !== undefined && earlier !== md5) return { ...base, outcome: 'wrong', detail: `differs from the earlier query labelled ${q.label}`, engine }
    labels.set(q.label, md5)
  }
  return { ...base, outcome: 'passed', engine }
}
