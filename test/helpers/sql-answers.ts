/**
 * One SQL query answered both ways for the differential tests: compiled to the columnar engine
 * (as the gateway compiles it, run as a worker runs a task) and on sql.js over the table's SQLite
 * image (the fallback path itself, SqlExecutor).
 */
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import type { ColumnValues } from '../../engine/storage/types.js'
import { buildSqliteImage } from '../../engine/storage/sqlite-image.js'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { SqlExecutor } from '../../engine/sql/execute.js'
import { rewriteTableRefs } from '../../engine/sql/table-refs.js'
import { compileSql, oneRowTable, ordersAsSqlite, sqlShaped } from '../../engine/sql/compile/index.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { withPlan } from '../../engine/parallel/plan.js'
import { fromWire } from '../../engine/parallel/wire.js'
import { fallbackOf } from '../../engine/task/outcome.js'
import { AppError } from '../../shared/errors.js'
import { expect } from 'chai'
import { columnValues, SqlQueries } from './sql-queries.js'
import { makeTable, type ColDef } from './engine.js'

export interface SqlTable {
  readonly version: string
  readonly image: SharedArrayBuffer
}

let executor: SqlExecutor | null = null
let versions = 0

/** The SQLite image of a test table, as an upload would build it. */
export async function sqlTableOf(input: TableInput, data: readonly ColumnValues[]): Promise<SqlTable> {
  executor ??= new SqlExecutor(await sqlJs())
  const bytes = await buildSqliteImage(
    input.columns.map((c) => c.spec),
    data,
  )
  const image = new SharedArrayBuffer(bytes.byteLength)
  new Uint8Array(image).set(bytes)
  return { version: `diff-${versions++}`, image }
}

/** A test table both ways: its columns for the engine, its SQLite image for sql.js. */
export interface BothTables {
  readonly input: TableInput
  readonly sql: SqlTable
}

/**
 * Test tables by path, each read by the engine and by sql.js alike, made in a `before` hook of the
 * describe that calls this; the function returned reads them in its tests.
 */
export function bothTablesBefore(defsByPath: Readonly<Record<string, readonly ColDef[]>>): () => readonly BothTables[] {
  let tables: BothTables[] = []
  before(async () => {
    tables = await Promise.all(
      Object.entries(defsByPath).map(async ([path, defs]) => {
        const input = makeTable(path, defs)
        return { input, sql: await sqlTableOf(input, columnValues(defs)) }
      }),
    )
  })
  return () => tables
}

/** SQLite's result for a query the test expects it to answer (a refusal fails the test). */
export function sqliteResult(sql: string, tables: readonly BothTables[]): ResultSet {
  const want = sqliteAnswer(sql, tables)
  if ('error' in want) throw new Error(`sql.js refused: ${want.error}`)
  return want.result
}

/** A test per query: it compiles to the columnar engine, and its answer is SQLite's. */
export function itCompilesAsSqlite(queries: readonly string[], tables: () => readonly BothTables[]): void {
  for (const sql of queries)
    it(sql, async () => {
      const want = sqliteResult(sql, tables())
      const got = await compiledAnswer(sql, tables())
      expect(got, 'compiled to the engine').to.not.equal(null)
      expect(difference(got!, want)).to.equal('')
    })
}

const rewritten = (sql: string, tables: readonly BothTables[]): string => rewriteTableRefs(sql, new Map(tables.map((t, i) => [t.input.path, `t${i}`])))

/** sql.js's answer, or its error. */
export function sqliteAnswer(sql: string, tables: readonly BothTables[]): { result: ResultSet } | { error: string } {
  try {
    const attached = tables.map((t, i) => ({ alias: `t${i}`, version: t.sql.version, image: t.sql.image }))
    return { result: executor!.run({ kind: 'sql', sql: rewritten(sql, tables), tables: attached, maxRows: 1e9 }) }
  } catch (e) {
    if (e instanceof AppError) return { error: e.message }
    throw e
  }
}

/** The columnar engine's answer, or null when the query is not compiled (or declined while running). */
export async function compiledAnswer(sql: string, tables: readonly BothTables[]): Promise<ResultSet | null> {
  const inputs = tables.map((t) => t.input)
  const c = await compileSql(
    sql,
    inputs.map((t, i) => ({ path: t.path, alias: `t${i}`, columns: t.columns.map((col) => col.spec) })),
  )
  if (!('compiled' in c)) return null
  // As the gateway: text whose UTF-16 and UTF-8 orders differ is not ordered by the engine.
  if (c.compiled.textOrder && !inputs.every((t) => t.columns.every((col) => col.dict === undefined || ordersAsSqlite(col.dict)))) return null
  try {
    const runOver = c.compiled.oneRow ? [...inputs, oneRowTable()] : inputs
    const answer = executeRunTask(withPlan({ kind: 'run', ops: c.compiled.ops, tables: runOver, maxRows: 1e9 }))
    return sqlShaped(fromWire(answer), c.compiled.names)
  } catch (e) {
    if (fallbackOf(e)?.kind === 'sqlite') return null
    throw e
  }
}

function cells(r: ResultSet): unknown[][] {
  return r.columns.map((c) => {
    if (c.kind === 'coded') return Array.from(c.codes.subarray(0, r.rowCount), (k) => c.dict[k])
    if (c.kind === 'text') return c.data.slice(0, r.rowCount)
    return Array.from(c.data.subarray(0, r.rowCount) as ArrayLike<unknown>)
  })
}

/**
 * Cells alike: the same value (a big integer's every digit: bigints compare exactly, and never
 * equal a number), or floats within 1e-12 relative; with `exact`, the same float (0 and -0 alike,
 * as the tolerance had them: SQLite stores -0.0 as 0).
 */
const close = (a: unknown, b: unknown, exact: boolean): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'number' || typeof b !== 'number') return false
  if (exact) return a === b
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))
}

/**
 * The first difference between two answers ('' when none): column names, labels, types and
 * widths, row counts, then every cell in order; floats may differ by 1e-12 relative (SQLite sums
 * reals with compensation, the engine in fixed blocks), except with `exact` (a query of integers
 * alone, whose reals each come from one rounding: an average, a cast, an overflow, where a sum
 * of big integers carried as doubles would be off by less than 1e-12 relative).
 */
export function difference(got: ResultSet, want: ResultSet, unordered = false, exact = false): string {
  const gotMeta = got.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  const wantMeta = want.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  if (JSON.stringify(gotMeta) !== JSON.stringify(wantMeta)) return `columns ${JSON.stringify(gotMeta)} vs ${JSON.stringify(wantMeta)}`
  if (got.rowCount !== want.rowCount) return `rows ${got.rowCount} vs ${want.rowCount}`
  const a = unordered ? sortedRows(cells(got)) : cells(got)
  const b = unordered ? sortedRows(cells(want)) : cells(want)
  for (let c = 0; c < a.length; c++)
    for (let r = 0; r < got.rowCount; r++)
      if (!close(a[c][r], b[c][r], exact))
        return unordered && sameRows(a, b, exact) ? '' : `column ${got.cols[c].name} row ${r}: ${String(a[c][r])} vs ${String(b[c][r])}`
  return ''
}

/**
 * Whether each row of `a` has its own row of `b` alike cell for cell: the sort of sortedRows
 * keys numbers by 12 digits, which leaves distinct rows unordered between them when their values
 * agree that far (1099511627776 and 1099511627780.5, a j value and a j value plus a real).
 */
function sameRows(a: unknown[][], b: unknown[][], exact: boolean): boolean {
  const rows = a.length === 0 ? 0 : a[0].length
  const used = new Uint8Array(rows)
  for (let r = 0; r < rows; r++) {
    let found = false
    for (let s = 0; s < rows && !found; s++) {
      if (used[s] === 1 || !a.every((col, c) => close(col[r], b[c][s], exact))) continue
      used[s] = 1
      found = true
    }
    if (!found) return false
  }
  return true
}

/** Columns with their rows sorted (for answers whose order SQL leaves open, as a join's). */
function sortedRows(columns: unknown[][]): unknown[][] {
  const rows = columns.length === 0 ? 0 : columns[0].length
  const order = Array.from({ length: rows }, (_, r) => r)
  const cell = (v: unknown): unknown => (typeof v === 'number' ? Number(v.toPrecision(12)) : typeof v === 'bigint' ? `${v}n` : v)
  const key = (r: number): string => JSON.stringify(columns.map((c) => cell(c[r])))
  const keys = order.map(key)
  order.sort((x, y) => (keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : 0))
  return columns.map((c) => order.map((r) => c[r]))
}

/**
 * Whether SQL leaves the order of the answer's rows open: no ORDER BY of the whole query, and a
 * join (by JOIN or by commas), a window (which sorts the rows its own way) or a subquery or WITH.
 */
function orderLeftOpen(sql: string): boolean {
  let depth = 0
  let outerOrder = false
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]
    if (ch === "'") i = sql.indexOf("'", i + 1)
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (depth === 0 && sql.startsWith(' ORDER BY ', i)) outerOrder = true
  }
  return (
    !outerOrder && (sql.includes(' JOIN ') || FEATURES['comma join'].test(sql) || sql.includes(' OVER ') || sql.includes('(SELECT ') || sql.startsWith('WITH '))
  )
}

/** What one run of random queries found (differential test, fuzz:sql). */
export interface DifferentialRun {
  readonly queries: number
  /** Answered on the columnar engine, and compared. */
  readonly compiled: number
  /** Refused by SQLite itself (the generator's fault, not compared). */
  readonly sqliteErrors: number
  /** One line per query whose answers differ (or that one side refused and the other answered). */
  readonly differences: string[]
  /** How many compared queries use each feature of FEATURES. */
  readonly features: Readonly<Record<string, number>>
  /** Queries SQLite answered that read a big-integer (j) column: jv, jk, or all columns (SELECT *). */
  readonly bigQueries: number
  /** Of those, answered on the columnar engine too, and compared. */
  readonly bigCompiled: number
  /** Queries SQLite refused that the engine refused too (an integer overflow, a value no result column holds…). */
  readonly bothRefused: number
  /** One line per query SQLite refused with a value error that the engine answered: not counted among differences (see `refusal`). */
  readonly refusedAnswered: string[]
}

/**
 * Whether a query computes with integers alone (no real column, SELECT * among them, or literal,
 * no cast to a real type, text aside): its answer has each real from one rounding of an exact
 * integer, which the engine must match to the last bit (difference's `exact`).
 */
export function integersAlone(sql: string): boolean {
  const code = sql.replace(/'[^']*'/g, "''")
  return !/\b[fw]\b|SELECT (DISTINCT )?\*|[0-9]\.[0-9]|[0-9][eE]|\b(REAL|DOUBLE|NUMERIC|DECIMAL|FLOAT)\b/i.test(code)
}

/** Features whose compiled use the differential test counts, by how they are written. */
export const FEATURES: Readonly<Record<string, RegExp>> = {
  CAST: /CAST\(/,
  round: /round\(/,
  substr: /substr\(/,
  trim: /\b[lr]?trim\(/,
  replace: /replace\(/,
  instr: /instr\(/,
  '||': /\|\|/,
  group_concat: /group_concat\(/,
  'subquery in FROM': /FROM \(SELECT /,
  WITH: /^WITH /,
  'UNION ALL': / UNION ALL /,
  'sum/count/avg OVER': /\b(sum|count|avg)\([^)]*\) OVER \(/,
  row_number: /row_number\(\) OVER/,
  rank: /rank\(\) OVER/,
  'lag/lead': /\b(lag|lead)\(/,
  'IN ()': /\bIN \(\)/,
  'comma join': /\bFROM [\w.]+( \w+)?, /,
  'SELECT without FROM': /\(SELECT [^()]* AS d\)/,
}

/**
 * `count` random queries of the compiled subset (sql-queries.ts) over random tables, new ones
 * every 40 queries, each answered both ways and compared: in order, except where SQL leaves the
 * order open (orderLeftOpen).
 */
export async function compareRandomQueries(seed: number, count: number): Promise<DifferentialRun> {
  const gen = new SqlQueries(seed)
  let tables: BothTables[] = []
  let compiled = 0
  let sqliteErrors = 0
  let bigQueries = 0
  let bigCompiled = 0
  let bothRefused = 0
  const differences: string[] = []
  const refusedAnswered: string[] = []
  const features: Record<string, number> = Object.fromEntries(Object.keys(FEATURES).map((f) => [f, 0]))
  for (let q = 0; q < count; q++) {
    if (q % 40 === 0) tables = await Promise.all(gen.tables().map(async ({ input, data }) => ({ input, sql: await sqlTableOf(input, data) })))
    const sql = gen.query()
    const where = `query ${q} over ${tables.map((t) => t.input.rows).join(' and ')} rows: ${sql}`
    const want = sqliteAnswer(sql, tables)
    if ('error' in want) {
      sqliteErrors++
      // A refusal of a value (not of the query's text) the engine must make too, or leave to sql.js.
      if (refusal(want.error)) {
        const got = await engineAnswer(sql, tables)
        if (got !== null && 'error' in got) bothRefused++
        else if (got !== null) refusedAnswered.push(`${where}\n  SQLite refused (${want.error}), the engine answered`)
      }
      continue
    }
    const big = gen.readsBigints
    if (big) bigQueries++
    const got = await engineAnswer(sql, tables)
    if (got === null) continue
    compiled++
    if (big) bigCompiled++
    for (const [f, re] of Object.entries(FEATURES)) if (re.test(sql)) features[f]++
    const diff = 'error' in got ? `the engine refused: ${got.error}` : difference(got.result, want.result, orderLeftOpen(sql), integersAlone(sql))
    if (diff !== '') differences.push(`${where}\n  ${diff}`)
  }
  return { queries: count, compiled, sqliteErrors, differences, features, bigQueries, bigCompiled, bothRefused, refusedAnswered }
}

/** SQLite's refusals of a value: an integer overflow, a result value no column of the service holds (result-builder.ts). */
const refusal = (error: string): boolean => /integer overflow|cannot answer exactly|keeps for N\/A/i.test(error)

/** compiledAnswer, with the engine's refusal (an AppError) as a value. */
async function engineAnswer(sql: string, tables: readonly BothTables[]): Promise<{ result: ResultSet } | { error: string } | null> {
  try {
    const got = await compiledAnswer(sql, tables)
    return got === null ? null : { result: got }
  } catch (e) {
    if (e instanceof AppError) return { error: e.message }
    throw e
  }
}
