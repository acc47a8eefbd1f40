/**
 * `npm run bench:clickbench` (issue 39): ClickBench's 43 queries over a synthetic `hits` table
 * with ClickBench's 105 columns (generate.ts), each as `api/sql` (its SQLite form, through HTTP),
 * as `api/run` (its macro form, through HTTP) and on the worker pool (the macro form, as the
 * gateway runs a task), against DuckDB with 1 and 2 threads over the same data (its DuckDB form).
 * Every answer is checked equal to DuckDB's first; a question whose answers differ is reported
 * and not timed. Prints per query each figure, which engine answered the SQL (columnar or
 * sqlite, the X-Tabula-Engine header), and the ratios to DuckDB with as many threads as tabula
 * has workers.
 *
 *   node --expose-gc --max-old-space-size=8192 dist/bench/clickbench/main.js [--rows N] [--only Q1,Q5]
 *     [--reps N] [--seed N] [--http] [--pool] [--workers N] [--markdown] [--max-seconds-per-question S]
 *
 * --http or --pool alone runs only that side of tabula (both by default).
 */
import { availableParallelism, cpus, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { loadDuckDb, DuckDb } from '../duck.js'
import { toTableInput } from '../data.js'
import { loadAverage, log, settle } from '../measure.js'
import { checkAnswers } from '../suite/check.js'
import { DuckTarget } from '../suite/duck-target.js'
import { HttpTarget } from '../suite/http-target.js'
import { startSuiteService, type SuiteService } from '../suite/http-service.js'
import { summarise } from '../suite/report.js'
import { openPool, type EnginePool } from '../suite/run-on-pool.js'
import { TabulaTarget } from '../suite/tabula-target.js'
import type { SuiteTarget } from '../suite/target.js'
import { timeQuestion, type Timing } from '../suite/timing.js'
import { DEFAULT_SEED, HITS_PATH, makeHits } from './generate.js'
import { clickQuestions } from './questions.js'
import { HttpSqlTarget, Positional, type BenchClickQuestion } from './targets.js'

interface Options {
  readonly rows: number
  readonly seed: number
  readonly only: ReadonlySet<string> | null
  readonly reps: number
  readonly http: boolean
  readonly pool: boolean
  readonly workers: number
  readonly markdown: boolean
  readonly maxSecondsPerQuestion: number
}

const USAGE =
  'options: --rows N (10000000), --only Q1,Q5, --reps N (3), --seed N, --http, --pool (both by default), --workers N (2), --markdown, --max-seconds-per-question S (60)'

function parseOptions(argv: readonly string[]): Options {
  const positive = (flag: string, v: string | undefined): number => {
    const n = Number((v ?? '').replaceAll('_', ''))
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} takes a positive whole number, not ${v}`)
    return n
  }
  let rows = 10_000_000
  let seed = DEFAULT_SEED
  let only: Set<string> | null = null
  let reps = 3
  let http = false
  let pool = false
  let workers = 2
  let markdown = false
  let maxSecondsPerQuestion = 60
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--rows') rows = positive(flag, argv[++i])
    else if (flag === '--seed') seed = positive(flag, argv[++i])
    else if (flag === '--reps') reps = positive(flag, argv[++i])
    else if (flag === '--workers') workers = positive(flag, argv[++i])
    else if (flag === '--max-seconds-per-question') maxSecondsPerQuestion = positive(flag, argv[++i])
    else if (flag === '--only')
      only = new Set(
        (argv[++i] ?? '')
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean),
      )
    else if (flag === '--http') http = true
    else if (flag === '--pool') pool = true
    else if (flag === '--markdown') markdown = true
    else throw new Error(`unknown option ${flag}; ${USAGE}`)
  }
  for (const o of only ?? []) if (!/^Q([1-9]|[1-3]\d|4[0-3])$/.test(o)) throw new Error(`--only: no query ${o} (Q1 to Q43)`)
  if (!http && !pool) http = pool = true
  return { rows, seed, only, reps, http, pool, workers, markdown, maxSecondsPerQuestion }
}

/** The timed targets, each optional but DuckDB's. */
interface Targets {
  readonly sql?: HttpSqlTarget
  readonly run?: SuiteTarget
  readonly pool?: SuiteTarget
  readonly duck1: SuiteTarget
  readonly duck2: SuiteTarget
}

type Result =
  | {
      readonly q: BenchClickQuestion
      readonly kind: 'timed'
      readonly engine: string
      readonly sql?: Timing
      readonly run?: Timing
      readonly pool?: Timing
      readonly duck1: Timing
      readonly duck2: Timing
    }
  | { readonly q: BenchClickQuestion; readonly kind: 'differ' | 'error'; readonly engine: string; readonly lines: readonly string[] }

const TIMED = ['sql', 'run', 'pool', 'duck1', 'duck2'] as const

async function runQuestion(q: BenchClickQuestion, t: Targets, opts: Options): Promise<Result> {
  const others = [t.duck2, t.sql, t.run, t.pool].filter((x): x is SuiteTarget => x !== undefined).map((x) => new Positional(x))
  const check = await checkAnswers(q, new Positional(t.duck1), others)
  const engine = t.sql?.engine ?? '-'
  if (check.kind !== 'agree') return { q, kind: check.kind, engine, lines: check.lines }
  const budget = (opts.maxSecondsPerQuestion * 1000) / 5
  const times: Partial<Record<(typeof TIMED)[number], Timing>> = {}
  for (const k of TIMED) {
    const target = t[k]
    if (target) times[k] = await timeQuestion(target, q, opts.reps, budget)
  }
  return { q, kind: 'timed', engine, ...times, duck1: times.duck1!, duck2: times.duck2! }
}

const ms = (t: Timing | undefined): string =>
  t === undefined ? '-' : t.kind !== 'ok' ? 'ERROR' : t.ms >= 100 ? t.ms.toFixed(0) : t.ms >= 10 ? t.ms.toFixed(1) : t.ms.toFixed(2)
const ratio = (a: Timing | undefined, b: Timing | undefined): number | null => (a?.kind === 'ok' && b?.kind === 'ok' && b.ms > 0 ? a.ms / b.ms : null)
const fmtRatio = (x: number | null): string => (x === null ? '-' : x >= 10 ? x.toFixed(0) : x.toFixed(2))

function table(results: readonly Result[], workers: number, markdown: boolean): string {
  const vs = (r: Result & { kind: 'timed' }) => (workers === 1 ? r.duck1 : r.duck2)
  const head = ['query', 'sql engine', 'api/sql http ms', 'api/run http ms', 'pool ms', 'DuckDB 1t ms', 'DuckDB 2t ms', 'sql/duck', 'run/duck', 'pool/duck']
  const rows = results.map((r) =>
    r.kind !== 'timed'
      ? [r.q.name, r.engine, r.kind.toUpperCase(), '', '', '', '', '', '', '']
      : [
          r.q.name,
          r.engine,
          ms(r.sql),
          ms(r.run),
          ms(r.pool),
          ms(r.duck1),
          ms(r.duck2),
          fmtRatio(ratio(r.sql, vs(r))),
          fmtRatio(ratio(r.run, vs(r))),
          fmtRatio(ratio(r.pool, vs(r))),
        ],
  )
  const timed = results.filter((r): r is Result & { kind: 'timed' } => r.kind === 'timed')
  const geo = (f: (r: Result & { kind: 'timed' }) => Timing | undefined): string => {
    const s = summarise(timed.map((r) => ratio(f(r), vs(r))))
    return s.geomean === null ? '-' : `${s.geomean.toFixed(2)} (${s.count}; over 5x: ${timed.filter((r) => (ratio(f(r), vs(r)) ?? 0) > 5).length})`
  }
  const geoMs = (f: (r: Result & { kind: 'timed' }) => Timing | undefined): string => {
    const xs = timed.map(f).filter((t): t is Timing & { kind: 'ok' } => t?.kind === 'ok' && t.ms > 0)
    return xs.length === 0 ? '-' : Math.exp(xs.reduce((s, t) => s + Math.log(t.ms), 0) / xs.length).toFixed(1)
  }
  const summary = [
    `geometric means of the times (ms): api/sql ${geoMs((r) => r.sql)}, api/run ${geoMs((r) => r.run)}, pool ${geoMs((r) => r.pool)}, DuckDB 1t ${geoMs((r) => r.duck1)}, DuckDB 2t ${geoMs((r) => r.duck2)}`,
    `ratios to DuckDB with ${workers} thread${workers === 1 ? '' : 's'} (geometric mean, queries, how many over 5x): api/sql ${geo((r) => r.sql)}; api/run ${geo((r) => r.run)}; pool ${geo((r) => r.pool)}`,
    `answered by sql.js: ${results.filter((r) => r.engine === 'sqlite').length} of ${results.length}`,
  ]
  if (markdown) {
    const line = (r: readonly string[]) => `| ${r.join(' | ')} |`
    return [
      line(head),
      `|---|---|${head
        .slice(2)
        .map(() => '---:')
        .join('|')}|`,
      ...rows.map(line),
      '',
      ...summary,
    ].join('\n')
  }
  const all = [head, ...rows]
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c].length)))
  const line = (r: readonly string[]) =>
    r
      .map((s, c) => (c < 2 ? s.padEnd(widths[c]) : s.padStart(widths[c])))
      .join('  ')
      .trimEnd()
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), '', ...summary].join('\n')
}

function progress(r: Result): string {
  if (r.kind !== 'timed') return `  ${r.q.name}: ${r.kind.toUpperCase()}\n${r.lines.map((l) => `    ${l}`).join('\n')}`
  const runs = (t: Timing | undefined) => (t === undefined ? '-' : t.kind === 'ok' ? t.runs.map((x) => x.toFixed(0)).join('/') : `error: ${t.message}`)
  return `  ${r.q.name} (${r.engine}): sql ${runs(r.sql)}; run ${runs(r.run)}; pool ${runs(r.pool)}; duck 1t ${runs(r.duck1)}; 2t ${runs(r.duck2)}`
}

async function main(): Promise<void> {
  let opts: Options
  try {
    opts = parseOptions(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(2)
  }
  const duck = await loadDuckDb()
  if (!('api' in duck)) throw new Error(`the benchmark needs DuckDB: ${duck.error}`)
  const started = performance.now()
  const questions = clickQuestions(opts.rows)
    .filter((q) => !opts.only || opts.only.has(q.name))
    .map((q): BenchClickQuestion => ({ ...q, family: 'clickbench' }))
  log('# ClickBench (issue 39): tabula against DuckDB')
  log(`date: ${new Date().toISOString()}`)
  log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model?.trim() ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}`)
  log(
    `hits: ${opts.rows.toLocaleString('en-US')} rows, 105 columns (seed ${opts.seed}); ${questions.length} queries; ${opts.workers} workers; load average at start: ${loadAverage()}`,
  )
  log(`timing: answers checked first; then the median of up to ${opts.reps} runs per target within ${opts.maxSecondsPerQuestion} s per query`)
  const t0 = performance.now()
  const step = (what: string) => log(`  ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  let service: SuiteService | null = null
  let pool: EnginePool | null = null
  let db: DuckDb | null = null
  try {
    const targets = await (async (): Promise<Targets> => {
      const hits = makeHits(opts.rows, opts.seed)
      step('generated')
      if (opts.http) {
        // No time limit, a table cache that holds the table whole, answers of any size.
        service = await startSuiteService([hits], opts.workers, {
          QUERY_TIMEOUT_MS: '3600000',
          TABLE_CACHE_MB: '16384',
          MAX_RESULT_ROWS: '500000000',
          MAX_RESULT_BYTES: String(Number.MAX_SAFE_INTEGER),
        })
        step(`a gateway with ${opts.workers} workers serving the table (written as a stored table)`)
      }
      const tables = opts.pool ? new Map([[HITS_PATH, toTableInput(hits)]]) : null
      if (tables) {
        pool = openPool(opts.workers)
        step('loaded into SharedArrayBuffers for the pool')
      }
      db = await DuckDb.open(duck.api)
      await db.load(hits)
      step(`loaded into DuckDB ${await db.version()}`)
      return {
        sql: service ? new HttpSqlTarget(`api/sql ${opts.workers}w http`, service) : undefined,
        run: service ? new HttpTarget(`api/run ${opts.workers}w http`, service) : undefined,
        pool: pool && tables ? new TabulaTarget(`pool ${opts.workers}w`, pool, tables) : undefined,
        duck1: new DuckTarget(db, 1, 'DuckDB 1t'),
        duck2: new DuckTarget(db, 2, 'DuckDB 2t'),
      }
    })()
    await settle(2000)
    const results: Result[] = []
    for (const q of questions) {
      const r = await runQuestion(q, targets, opts)
      results.push(r)
      log(progress(r))
    }
    log()
    log(table(results, opts.workers, false))
    if (opts.markdown) log(`\n${table(results, opts.workers, true)}`)
    for (const r of results) if (r.kind !== 'timed') log(`\n## ${r.q.name}: ${r.kind}\n${r.lines.join('\n')}`)
    if (results.some((r) => r.kind !== 'timed')) process.exitCode = 1
  } finally {
    await Promise.all([(pool as EnginePool | null)?.close(), (service as SuiteService | null)?.close()])
    ;(db as DuckDb | null)?.close()
  }
  log(`\nload average at end: ${loadAverage()}; total time: ${((performance.now() - started) / 1000).toFixed(0)} s`)
}

main().catch((e: unknown) => {
  process.stderr.write(`clickbench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
