/**
 * `npm run bench:suite` (issue 19): a broad engine benchmark. Some 50 questions over a synthetic
 * schema (bench/suite/schema.ts), each in the macro language and in SQL with the same meaning,
 * run through the worker pool as the service runs them (1 worker, then 2 with split runs) and on
 * DuckDB (1 thread, then 2) over the same data. Every question's answers are checked equal
 * before it is timed. Prints per question both ratios tabula/DuckDB, their geometric means and
 * how many are over 1.5 and 2.0.
 *
 *   node --expose-gc --max-old-space-size=8192 dist/bench/suite/main.js [--rows N] [--only a,b]
 *     [--markdown] [--max-seconds-per-question S] [--reps N] [--seed N] [--http]
 *
 * With --http, tabula is reached as users reach it: two gateways in this process (1 and 2
 * workers) serving the tables as stored tables, each question posted to api/run:json.
 */
import { availableParallelism, cpus, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { loadDuckDb } from '../duck.js'
import { loadAverage, log, settle } from '../measure.js'
import { checkAnswers } from './check.js'
import { DuckTarget } from './duck-target.js'
import { loadSuite } from './load.js'
import { parseOptions, type SuiteOptions } from './options.js'
import { QUESTIONS, type SuiteQuestion } from './questions/index.js'
import { markdownReport, ratioOf, textReport, type QuestionResult } from './report.js'
import { openPool } from './run-on-pool.js'
import { TabulaTarget } from './tabula-target.js'
import { HttpTarget } from './http-target.js'
import { startSuiteService, type SuiteService } from './http-service.js'
import type { BenchTable } from '../data.js'
import type { SuiteTarget } from './target.js'
import { timeQuestion } from './timing.js'

interface Targets {
  readonly tabula1: SuiteTarget
  readonly duck1: SuiteTarget
  readonly tabula2: SuiteTarget
  readonly duck2: SuiteTarget
}

/** Checks the answers, then times each pairing back to back (so drift on the machine skews a ratio less). */
async function runQuestion(q: SuiteQuestion, t: Targets, opts: SuiteOptions): Promise<QuestionResult> {
  const check = await checkAnswers(q, t.duck1, [t.tabula1, t.tabula2, t.duck2])
  if (check.kind !== 'agree') return { question: q, kind: check.kind === 'differ' ? 'answers differ' : 'error', lines: check.lines }
  const budget = (opts.maxSecondsPerQuestion * 1000) / 4
  const one = { tabula: await timeQuestion(t.tabula1, q, opts.reps, budget), duck: await timeQuestion(t.duck1, q, opts.reps, budget) }
  const two = { tabula: await timeQuestion(t.tabula2, q, opts.reps, budget), duck: await timeQuestion(t.duck2, q, opts.reps, budget) }
  return { question: q, kind: 'timed', one, two }
}

function progressLine(r: QuestionResult): string {
  if (r.kind !== 'timed') return `  ${r.question.name}: ${r.kind.toUpperCase()}\n${r.lines.map((l) => `    ${l}`).join('\n')}`
  const runs = (x: QuestionResult & { kind: 'timed' }, k: 'one' | 'two') =>
    (['tabula', 'duck'] as const).map((s) => {
      const tm = x[k][s]
      return tm.kind === 'ok' ? tm.runs.map((ms) => ms.toFixed(0)).join('/') : `error: ${tm.message}`
    })
  const [t1, d1] = runs(r, 'one')
  const [t2, d2] = runs(r, 'two')
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(2))
  return `  ${r.question.name}: 1w ${t1} vs 1t ${d1} (${f(ratioOf(r.one))}); 2w ${t2} vs 2t ${d2} (${f(ratioOf(r.two))})`
}

async function main(): Promise<void> {
  let opts: SuiteOptions
  try {
    opts = parseOptions(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(2)
  }
  const duck = await loadDuckDb()
  if (!('api' in duck)) throw new Error(`the suite needs DuckDB: ${duck.error}`)
  const started = performance.now()
  // Through HTTP, by default the seven shapes the issue measured that way.
  const questions = QUESTIONS.filter((q) => (opts.only ? opts.only.has(q.name) : !opts.http || q.issueShape === true))
  log('# tabula benchmark suite')
  log(`date: ${new Date().toISOString()}`)
  log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model?.trim() ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}`)
  log(`${opts.rows.toLocaleString('en-US')} orders (seed ${opts.seed}), ${questions.length} questions; load average at start: ${loadAverage()}`)
  log(`timing: answers checked first; then the median of up to ${opts.reps} runs per target within ${opts.maxSecondsPerQuestion} s per question`)

  const t0 = performance.now()
  const services: SuiteService[] = []
  const startServices = async (all: readonly BenchTable[]): Promise<void> => {
    if (!opts.http) return
    for (const workers of [1, 2]) services.push(await startSuiteService(all, workers))
    log(`  two gateways (1 and 2 workers) serving the tables: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  const { tables, db } = await loadSuite(
    opts.rows,
    opts.seed,
    duck.api,
    (what) => log(`  ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`),
    startServices,
  )
  log(`  DuckDB ${await db.version()}`)
  const pools = opts.http ? [] : [openPool(1), openPool(2)]
  const targets: Targets = opts.http
    ? {
        tabula1: new HttpTarget('tabula 1w http', services[0]),
        duck1: new DuckTarget(db, 1, 'DuckDB 1t'),
        tabula2: new HttpTarget('tabula 2w http', services[1]),
        duck2: new DuckTarget(db, 2, 'DuckDB 2t'),
      }
    : {
        tabula1: new TabulaTarget('tabula 1w', pools[0], tables),
        duck1: new DuckTarget(db, 1, 'DuckDB 1t'),
        tabula2: new TabulaTarget('tabula 2w', pools[1], tables),
        duck2: new DuckTarget(db, 2, 'DuckDB 2t'),
      }
  if (opts.http) log('  tabula through HTTP: api/run:json on a gateway in this process, the answer read and parsed')
  else
    log(
      `  split runs: with 2 workers, a query that can split runs in 2 parts over a base table of at least ${pools[1].splitMinRows.toLocaleString('en-US')} rows (PARALLEL_MIN_ROWS)`,
    )
  await settle(2000)
  const results: QuestionResult[] = []
  try {
    for (const q of questions) {
      const r = await runQuestion(q, targets, opts)
      results.push(r)
      log(progressLine(r))
    }
  } finally {
    await Promise.all([...pools.map((p) => p.close()), ...services.map((s) => s.close())])
    db.close()
  }
  log()
  log(textReport(results))
  if (opts.markdown) log(`\n${markdownReport(results)}`)
  for (const r of results) if (r.kind !== 'timed') log(`\n## ${r.question.name}: ${r.kind}\n${r.lines.join('\n')}`)
  log(`\nload average at end: ${loadAverage()}; total time: ${((performance.now() - started) / 1000).toFixed(0)} s`)
  if (results.some((r) => r.kind !== 'timed')) process.exitCode = 1
}

main().catch((e: unknown) => {
  process.stderr.write(`suite failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
