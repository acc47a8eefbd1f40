/**
 * The fuzz targets: each parser the gateway feeds with client text, the generators it is fed
 * with, and how many cases to try. The contract every target is held to (see `runFuzzTarget`):
 * whatever the input, the call returns, or throws an AppError whose code maps to a 4xx status —
 * never another exception (a 500), and never takes longer than HANG_MS (a hang).
 *
 * Runs are deterministic (a fixed seed per target), so a failure is reproducible and a report can
 * run exactly the same properties and print how many cases each one tried.
 */
import fc from 'fast-check'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery, Schema, typeExpr } from '../../engine/check/index.js'
import { parseExpr } from '../../engine/expr/index.js'
import { substitute } from '../../engine/blocks/substitute.js'
import { checkReadOnlySql, findTableRefs, rewriteTableRefs, tokenize } from '../../engine/sql/index.js'
import { parseApiPath } from '../../gateway/http/path.js'
import { parseSessionCookie, sessionCookieValues } from '../../gateway/auth/cookie.js'
import { STATUS } from '../../gateway/http/errors.js'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import {
  anyCodePoints,
  anyUnits,
  apiPath,
  cookieHeader,
  damagedExpression,
  expression,
  macroDocument,
  macroPipeline,
  repeatedQuery,
  sqlSoup,
  sqlTail,
  xmlSoup,
} from './arbitraries.js'
import { validApiPath, validPipeline, validSessionCookie, validSql, condition, numericExpression, textExpression } from './valid-inputs.js'

/** A call slower than this counts as a hang (generous: the machine may be busy). */
export const HANG_MS = 1000

/**
 * The bound for inputs of hundreds of kilobytes, which take up to half a second when all is well;
 * what it catches is quadratic or worse work, which takes minutes there.
 */
export const LONG_INPUT_HANG_MS = 15_000

export interface FuzzTarget<T = unknown> {
  /** Stable name, for test titles and reports. */
  readonly name: string
  /** What is fuzzed and with what. */
  readonly description: string
  readonly arbitrary: fc.Arbitrary<T>
  readonly numRuns: number
  readonly seed: number
  /** Time bound of one call; HANG_MS unless the inputs are large. */
  readonly hangMs?: number
  /** The code under test; its return value is ignored. */
  readonly call: (input: T) => unknown
  /**
   * A positive control: every input is valid, so every case must return (no error at all, not
   * even a 4xx). Without such controls a parser that refused everything would pass.
   */
  readonly mustAccept?: boolean
}

/** Keeps each target's input type while listing them together. */
const target = <T>(t: FuzzTarget<T>): FuzzTarget => t as unknown as FuzzTarget

/** Variables visible to `{@…}` in generated queries. */
const VARS: Readonly<Record<string, string>> = { v: '1', a: 'x', t: 'monthly' }

/** The tables generated queries may name, with their columns. */
const TABLES = new Map<string, readonly ColumnSpec[]>([
  [
    'pub.t',
    [
      { name: 'a', type: 'int' },
      { name: 'b', type: 'float' },
      { name: 'state', type: 'text' },
      { name: 'date', type: 'date' },
    ],
  ],
  [
    'pub.u',
    [
      { name: 'a', type: 'int' },
      { name: 'g', type: 'text' },
    ],
  ],
])

const SCHEMA = Schema.of([
  { name: 'a', type: 'int', visible: true },
  { name: 'b', type: 'float', visible: true },
  { name: 'x1', type: 'int', visible: true },
  { name: 'state', type: 'text', visible: true },
  { name: 'sales', type: 'float', visible: true },
  { name: 'date', type: 'date', visible: true },
  { name: 'g', type: 'text', visible: true },
])

/** What the gateway does with a macro query before a worker sees it: parse, expand, check. */
function parseAndCheck(xml: string): void {
  checkQuery(parseQuery(xml, VARS), TABLES)
}

/** What the gateway does with SQL text: guard, find the table paths, rewrite them. */
function guardAndRewrite(sql: string): void {
  if (
    tokenize(sql)
      .map((t) => t.text)
      .join('') !== sql
  )
    throw new Error('the SQL tokens do not cover the text')
  checkReadOnlySql(sql)
  const refs = findTableRefs(sql)
  rewriteTableRefs(sql, new Map(refs.map((r, i) => [r.path, `t${i}`])))
}

/** An expression as a column expression (parsed and type-checked) or as a block expression (evaluated). */
function parseOrEvaluate([text, asBlock]: [string, boolean]): void {
  if (asBlock) {
    substitute(`{${text}}`, (name) => VARS[name], { loc: { line: 1, col: 1 }, what: 'fuzz', trail: null })
    return
  }
  typeExpr(parseExpr(text), SCHEMA)
}

function readCookies(header: string): void {
  for (const value of sessionCookieValues(header)) parseSessionCookie(value)
}

/** The session a well-formed header carries: must be found. */
function readSession(header: string): void {
  const found = sessionCookieValues(header).map(parseSessionCookie)
  if (!found.some((c) => c !== null)) throw new Error(`no session found in ${JSON.stringify(header)}`)
}

const readPath = (path: string): unknown => parseApiPath(path, ['v1', 'prime-latest'])

export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  target({
    name: 'xml: any text',
    description: 'parseQuery + checkQuery on strings of any UTF-16 units',
    arbitrary: anyUnits(300),
    numRuns: 1500,
    seed: 101,
    call: parseAndCheck,
  }),
  target({
    name: 'xml: markup soup',
    description: 'parseQuery + checkQuery on glued XML fragments (DOCTYPE, CDATA, entities, BOM, NUL)',
    arbitrary: xmlSoup,
    numRuns: 1500,
    seed: 102,
    call: parseAndCheck,
  }),
  target({
    name: 'xml: macro trees',
    description: 'parseQuery + checkQuery on random trees of macro elements with random attributes',
    arbitrary: macroDocument,
    numRuns: 1000,
    seed: 103,
    call: parseAndCheck,
  }),
  target({
    name: 'xml: pipelines',
    description: 'parseQuery + checkQuery on mostly sensible queries with blocks, variables and conditionals',
    arbitrary: macroPipeline,
    numRuns: 1000,
    seed: 104,
    call: parseAndCheck,
  }),
  target({
    name: 'xml: long repetitions',
    description: 'parseQuery + checkQuery on a piece repeated up to 200,000 times in an element, attribute, block or table',
    arbitrary: repeatedQuery,
    numRuns: 30,
    seed: 105,
    hangMs: LONG_INPUT_HANG_MS,
    call: parseAndCheck,
  }),
  target({
    name: 'expr: any text',
    description: 'parseExpr + typeExpr (or block evaluation) on strings of any code points',
    arbitrary: fc.tuple(anyCodePoints(60), fc.boolean()),
    numRuns: 2000,
    seed: 201,
    call: parseOrEvaluate,
  }),
  target({
    name: 'expr: grammar',
    description: 'parseExpr + typeExpr (or block evaluation) on expressions from the grammar',
    arbitrary: fc.tuple(expression, fc.boolean()),
    numRuns: 2000,
    seed: 202,
    call: parseOrEvaluate,
  }),
  target({
    name: 'expr: damaged grammar',
    description: 'the same, with a stray character inserted',
    arbitrary: fc.tuple(damagedExpression, fc.boolean()),
    numRuns: 1500,
    seed: 203,
    call: parseOrEvaluate,
  }),
  target({
    name: 'sql: any text',
    description: 'the SQL guard and table-path rewriting on strings of any UTF-16 units',
    arbitrary: anyUnits(200),
    numRuns: 2000,
    seed: 301,
    call: guardAndRewrite,
  }),
  target({
    name: 'sql: token soup',
    description: 'the same on soups of keywords, names, literals, comments, parameters and lookalikes',
    arbitrary: sqlSoup,
    numRuns: 2000,
    seed: 302,
    call: guardAndRewrite,
  }),
  target({
    name: 'sql: hostile tails',
    description: 'the same on a read-only statement followed by a token soup',
    arbitrary: sqlTail,
    numRuns: 1500,
    seed: 303,
    call: guardAndRewrite,
  }),
  target({
    name: 'path: any text',
    description: 'parseApiPath on "/" + strings of any UTF-16 units',
    arbitrary: anyUnits(80).map((s) => `/${s}`),
    numRuns: 2000,
    seed: 401,
    call: readPath,
  }),
  target({
    name: 'path: api shapes',
    description: 'parseApiPath on /{version}/api paths with .., %, NUL, unicode and : suffixes',
    arbitrary: apiPath,
    numRuns: 2000,
    seed: 402,
    call: readPath,
  }),
  target({
    name: 'cookie: any text',
    description: 'sessionCookieValues + parseSessionCookie on strings of any UTF-16 units',
    arbitrary: anyUnits(120),
    numRuns: 2000,
    seed: 501,
    call: readCookies,
  }),
  target({
    name: 'cookie: header shapes',
    description: 'the same on Cookie headers built of session values, quotes, %-escapes and separators',
    arbitrary: cookieHeader,
    numRuns: 2000,
    seed: 502,
    call: readCookies,
  }),
  // Positive controls: valid inputs of each kind, every one of which must be accepted.
  target({
    name: 'xml: valid pipelines (all accepted)',
    description: 'parseQuery + checkQuery on well-typed sel, willbe and tabu over a known table',
    arbitrary: validPipeline,
    numRuns: 500,
    seed: 106,
    mustAccept: true,
    call: parseAndCheck,
  }),
  target({
    name: 'expr: well-typed expressions (all accepted)',
    description: 'parseExpr + typeExpr on numeric, text and boolean expressions over known columns',
    arbitrary: fc.tuple(fc.oneof(numericExpression, textExpression, condition), fc.constant(false)),
    numRuns: 1000,
    seed: 204,
    mustAccept: true,
    call: parseOrEvaluate,
  }),
  target({
    name: 'sql: read-only selects (all accepted)',
    description: 'the SQL guard and table-path rewriting on selects, joins, filters and limits',
    arbitrary: validSql,
    numRuns: 1000,
    seed: 304,
    mustAccept: true,
    call: guardAndRewrite,
  }),
  target({
    name: 'path: served paths (all accepted)',
    description: 'parseApiPath on endpoint, instance, widget, table and listing paths with each format',
    arbitrary: validApiPath,
    numRuns: 1000,
    seed: 403,
    mustAccept: true,
    call: readPath,
  }),
  target({
    name: 'cookie: well-formed sessions (all found)',
    description: 'sessionCookieValues + parseSessionCookie find the session among other cookies',
    arbitrary: validSessionCookie,
    numRuns: 1000,
    seed: 503,
    mustAccept: true,
    call: readSession,
  }),
]

/** True for the errors a client may cause: an AppError whose status is 4xx. */
export function isClientError(err: unknown): err is AppError {
  if (!(err instanceof AppError)) return false
  const status = STATUS[err.code] as number | undefined
  return status !== undefined && status >= 400 && status < 500
}

/** Runs one case under the contract; throws (for fast-check to report) when it is broken. */
export function callWithinContract<T>(call: (input: T) => unknown, input: T, hangMs = HANG_MS, mustAccept = false): void {
  const started = performance.now()
  try {
    call(input)
  } catch (err) {
    if (mustAccept) throw new Error(`a valid input was refused: ${String((err as Error)?.message ?? err)}`, { cause: err })
    if (!isClientError(err)) {
      const what = err instanceof AppError ? `AppError ${err.code} (HTTP ${STATUS[err.code]})` : String((err as Error)?.stack ?? err)
      throw new Error(`not a 4xx AppError: ${what}`, { cause: err })
    }
  }
  const ms = performance.now() - started
  if (ms > hangMs) throw new Error(`took ${Math.round(ms)} ms (over ${hangMs} ms counts as a hang)`)
}

export interface FuzzReport {
  readonly name: string
  /** Cases tried (all of numRuns unless one failed). */
  readonly casesTried: number
  readonly failed: boolean
  /** fast-check's report: the seed, the shrunk counterexample and the error. */
  readonly message: string
}

/** Runs a target's property with its seed and run count; prints nothing. */
export function runFuzzTarget(t: FuzzTarget): FuzzReport {
  const details = fc.check(
    fc.property(t.arbitrary, (input) => callWithinContract(t.call, input, t.hangMs, t.mustAccept)),
    { seed: t.seed, numRuns: t.numRuns, endOnFailure: false },
  )
  return { name: t.name, casesTried: details.numRuns, failed: details.failed, message: details.failed ? (fc.defaultReportMessage(details) ?? '') : '' }
}

/** Runs every target in order; for a report that prints how many cases each one tried. */
export function runAllFuzzTargets(): FuzzReport[] {
  return FUZZ_TARGETS.map(runFuzzTarget)
}
