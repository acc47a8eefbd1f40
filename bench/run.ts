/**
 * `npm run bench:engine` (and the first part of `npm run bench`): the macro-language engine against the same queries in SQL on DuckDB (one
 * thread and all threads) and on sql.js, over the retail demo tables at 1M and 10M rows, plus a
 * resident-memory line for a table shared by two engine workers.
 *
 *   node dist/bench/run.js [--rows 1000000,10000000] [--only filter,sort,memory] [--markdown]
 *
 * --only takes query names (see bench/queries.ts) and `memory`; an all-rows query's name also
 * selects its same-shape variants (`willbe` runs willbe, willbe.cols and willbe.sum); --markdown
 * also prints the tables as Markdown (for docs/benchmarks.md).
 *
 * Two ratios per all-rows query (willbe, gsum, link, sort), printed side by side: the all-rows
 * answer, where ours hands over stored columns uncopied (but for sort and link's looked-up
 * columns) while DuckDB copies every column into its result, and the same-shape variants (SAME_SHAPE), where both sides return only what the
 * query computes, or its sums. sql.js runs only the original queries.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { makeBenchData, toTableInput } from './data.js'
import { DuckDb, DuckTarget, loadDuckDb } from './duck.js'
import type { Digest } from './digest.js'
import { checkedRun, loadAverage, log, MAX_RUNS, MAX_WARMUPS, MIN_RUNS, settle, timedRuns, WARMUP_MS, type Outcome } from './measure.js'
import { OursTarget } from './ours.js'
import { QUERIES, SAME_SHAPE, type BenchQuery, type SameShapeQuery } from './queries.js'
import { DUCK_TARGET, engineSummary, markdownTable, SQLJS_TARGET, TARGET_ROWS, textTable, verdicts, type Row, type SizeReport } from './report.js'
import { compareWithAllRows } from './same-shape.js'
import { shapeMarkdown, shapeText } from './shape-report.js'
import { reportSummary } from './summary.js'
import { SqlJsTarget } from './sqljs.js'
import type { Target } from './target.js'
import type { TableInput } from '../shared/protocol.js'

/** sql.js is run up to this many rows (see docs/benchmarks.md: larger tables take minutes per query). */
const SQLJS_MAX_ROWS = 1_000_000

interface Options {
  readonly sizes: number[]
  readonly only: Set<string> | null
  readonly markdown: boolean
}

function parseArgs(argv: readonly string[]): Options {
  let sizes = [1_000_000, 10_000_000]
  let only: Set<string> | null = null
  let markdown = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--rows')
      sizes = value()
        .split(',')
        .map((s) => Number(s.replaceAll('_', '')))
    else if (a === '--only')
      only = new Set(
        value()
          .split(',')
          .map((s) => s.trim().toLowerCase()),
      )
    else if (a === '--markdown') markdown = true
    else throw new Error(`unknown option ${a} (use --rows N,M, --only name,name, --markdown)`)
  }
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error('--rows takes positive whole numbers')
  const known = new Set([...QUERIES.map((q) => q.name), ...SAME_SHAPE.map((q) => q.name), 'memory'])
  for (const o of only ?? []) if (!known.has(o)) throw new Error(`--only: unknown name ${o}; known: ${[...known].join(', ')}`)
  return { sizes, only, markdown }
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

async function timed<T>(what: string, f: () => Promise<T> | T): Promise<T> {
  const start = performance.now()
  const v = await f()
  log(`  ${what}: ${secs(performance.now() - start)}`)
  return v
}

function packageVersion(name: string): string {
  try {
    const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url)
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version
  } catch {
    return '?'
  }
}

interface Problem {
  readonly size: number
  readonly query: BenchQuery
  readonly target: string
  readonly outcome: Outcome
}

interface Loaded {
  readonly inputs: TableInput[]
  readonly db: DuckDb | null
  readonly duckSkipped: string | null
  readonly sqljs: SqlJsTarget | null
  readonly sqljsSkipped: string | null
}

/**
 * Generates the data and loads every target. The generated arrays (among them a JavaScript array
 * of 10M strings) die when this returns: kept alive, they would make every garbage collection in
 * the timed runs slower, which a gateway or worker never pays.
 */
async function loadTargets(rows: number, duck: Awaited<ReturnType<typeof loadDuckDb>>): Promise<Loaded> {
  const data = await timed(`generate demo data (${rows.toLocaleString('en-US')} items)`, () => makeBenchData(rows))
  const inputs = await timed('load into SharedArrayBuffers (ours)', () => [data.item, data.products, data.stores].map(toTableInput))

  let db: DuckDb | null = null
  let duckSkipped: string | null = null
  if ('api' in duck) {
    const opened = await DuckDb.open(duck.api)
    db = opened
    await timed('load into DuckDB (appender, 2,048-row chunks)', async () => {
      for (const t of [data.item, data.products, data.stores]) await opened.load(t)
    })
  } else {
    duckSkipped = `DuckDB unavailable: ${duck.error}`
  }

  let sqljs: SqlJsTarget | null = null
  let sqljsSkipped: string | null = null
  if (rows <= SQLJS_MAX_ROWS) {
    sqljs = await timed('build sql.js images (storage layer, as api/sql)', () => SqlJsTarget.create(data.item, data.products))
  } else {
    sqljsSkipped = `sql.js is run only up to ${SQLJS_MAX_ROWS.toLocaleString('en-US')} rows: it is single-threaded WebAssembly with a row-at-a-time result API, its 1M-row queries already take seconds each and building the 10M-row image alone takes minutes`
  }
  return { inputs, db, duckSkipped, sqljs, sqljsSkipped }
}

async function runSize(rows: number, queries: readonly BenchQuery[], duck: Awaited<ReturnType<typeof loadDuckDb>>, problems: Problem[]): Promise<SizeReport> {
  log(`\n## ${rows.toLocaleString('en-US')} rows`)
  const { inputs, db, duckSkipped, sqljs, sqljsSkipped } = await loadTargets(rows, duck)
  // The generated data was just freed: let the collector finish with it before timing anything.
  await settle(2000)
  const duckThreads = availableParallelism()

  const ours = new OursTarget(inputs)
  const duck1 = db ? new DuckTarget(db, 1, 'DuckDB 1t') : null
  const duckN = db ? new DuckTarget(db, duckThreads, `DuckDB ${duckThreads}t`) : null
  const results: Row[] = []
  /** The reference answer of each query run so far, for the same-shape variants' check. */
  const references = new Map<string, Digest>()

  for (const q of queries) {
    const variant = 'of' in q ? (q as SameShapeQuery) : null
    // The reference answer: single-threaded DuckDB when available, else ours.
    const order: [keyof Omit<Row, 'query'>, Target | null][] = [
      ['duck1', duck1],
      ['ours', ours],
      ['duckN', duckN],
      // sql.js answers the original queries only: the variants are about DuckDB's copies.
      ['sqljs', variant ? null : sqljs],
    ]
    let reference: Digest | null = null
    const outcomes: Partial<Record<keyof Omit<Row, 'query'>, Outcome | null>> = {}
    const passed: [keyof Omit<Row, 'query'>, Target][] = []
    for (const [key, t] of order) {
      if (!t) {
        outcomes[key] = null
        continue
      }
      const first = await checkedRun(t, q, reference)
      if ('outcome' in first) {
        outcomes[key] = first.outcome
        problems.push({ size: rows, query: q, target: t.label, outcome: first.outcome })
        continue
      }
      reference ??= first.digest
      passed.push([key, t])
    }
    const parent = variant ? references.get(variant.of) : undefined
    let parentNote = ''
    if (variant && reference) {
      if (!parent) parentNote = `; not checked against ${variant.of} (not run)`
      else {
        const diffs = compareWithAllRows(variant, reference, parent)
        parentNote = diffs.length === 0 ? `; agrees with the all-rows ${variant.of} answer` : '; DISAGREES with the all-rows answer'
        if (diffs.length > 0) {
          // Timing an answer that is not the all-rows query's would compare nothing: every side is marked instead.
          for (const [key, t] of passed.splice(0)) {
            outcomes[key] = { kind: 'mismatch', diffs: diffs.map((d) => `against the all-rows ${variant.of} answer: ${d}`) }
            problems.push({ size: rows, query: q, target: t.label, outcome: outcomes[key]! })
          }
        }
      }
    }
    if (reference) references.set(q.name, reference)
    for (const [key, t] of passed) {
      const o = await timedRuns(t, q)
      outcomes[key] = o
      if (o.kind !== 'ok') problems.push({ size: rows, query: q, target: t.label, outcome: o })
    }
    const row: Row = {
      query: q.name,
      of: variant?.of ?? null,
      shape: variant?.shape ?? null,
      ours: outcomes.ours ?? null,
      duck1: outcomes.duck1 ?? null,
      duckN: outcomes.duckN ?? null,
      sqljs: outcomes.sqljs ?? null,
    }
    results.push(row)
    const runs = (o: Outcome | null | undefined) => (o?.kind === 'ok' ? `${o.all.map((x) => x.toFixed(0)).join('/')}` : o ? o.kind : '-')
    log(
      `  ${q.name.padEnd(11)} answers agree (${reference ? `${reference.rows.toLocaleString('en-US')} result rows` : 'no reference'}${parentNote}); runs ms: ours ${runs(row.ours)}, DuckDB-1t ${runs(row.duck1)}, DuckDB-${duckThreads}t ${runs(row.duckN)}, sql.js ${runs(row.sqljs)}`,
    )
  }
  db?.close()
  return { rows, duckThreads, sqljsSkipped, duckSkipped, results }
}

/** The memory line runs in a fresh process, so the baseline is not inflated by this one. */
function runMemory(rows: number): Promise<void> {
  const script = fileURLToPath(new URL('./memory.js', import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', script, '--rows', String(rows)], { stdio: ['ignore', 'inherit', 'inherit'] })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`memory benchmark exited with ${code}`))))
  })
}

async function main(): Promise<void> {
  let opts: Options
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(2)
  }
  const picked = (q: BenchQuery): boolean => !opts.only || opts.only.has(q.name) || ('of' in q && opts.only.has((q as SameShapeQuery).of))
  // The variants after every original query: each is checked against its all-rows answer.
  const queries = [...QUERIES, ...SAME_SHAPE].filter(picked)
  const started = performance.now()
  const duck = await loadDuckDb()
  let duckVersion = 'unavailable'
  if ('api' in duck) {
    const probe = await DuckDb.open(duck.api)
    duckVersion = await probe.version()
    probe.close()
  }
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU'
  log('# tabula benchmark')
  log(`date: ${new Date().toISOString()}`)
  log(
    `machine: ${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}; DuckDB ${duckVersion} (@duckdb/node-api ${packageVersion('@duckdb/node-api')}); sql.js ${packageVersion('sql.js')}`,
  )
  log(`load average at start: ${loadAverage()} (other processes on the machine make every figure noisier)`)
  log(
    `timing: one checked run, then untimed warm-up runs while they take under ${WARMUP_MS} ms in all (at most ${MAX_WARMUPS}), then the median of ${MIN_RUNS}–${MAX_RUNS} timed runs; ours = parse + check + interpret + ResultSet, one thread, in-process`,
  )
  if (!('api' in duck)) log(`DuckDB skipped: @duckdb/node-api could not be loaded (${duck.error}); its columns print n/a.`)

  const reports: SizeReport[] = []
  const problems: Problem[] = []
  if (queries.length > 0) {
    for (const rows of opts.sizes) {
      const report = await runSize(rows, queries, duck, problems)
      reports.push(report)
      reportSummary(engineSummary(report))
      log()
      log(textTable(report))
      const shapes = shapeText(report)
      if (shapes) log(`\n${shapes}`)
      if (report.sqljsSkipped) log(`sql.js n/a: ${report.sqljsSkipped}.`)
      if (report.duckSkipped) log(`DuckDB n/a: ${report.duckSkipped}.`)
      ;(globalThis as { gc?: () => void }).gc?.()
    }
  }

  if (!opts.only || opts.only.has('memory')) {
    const rows = Math.max(...opts.sizes)
    log(`\n## Memory: one ${rows.toLocaleString('en-US')}-row item table, two workers`)
    await runMemory(rows)
  }

  if (problems.length > 0) {
    log('\n## Errors and mismatches')
    for (const p of problems) {
      const what =
        p.outcome.kind === 'error'
          ? `error: ${p.outcome.message}`
          : p.outcome.kind === 'mismatch'
            ? `answer differs from the reference: ${p.outcome.diffs.join('; ')}`
            : ''
      log(`- ${p.size.toLocaleString('en-US')} rows, ${p.query.name}, ${p.target}: ${what}`)
      if (p.target === 'ours') log(`  query: ${p.query.xml}`)
      else log(`  sql: ${p.query.sql}`)
    }
  }

  if (reports.length > 0) {
    log('\n## Targets')
    for (const r of reports) {
      for (const row of r.results) {
        const v = verdicts(r, row)
        const parts = [
          v.sqljs === null ? null : `>= ${SQLJS_TARGET}x faster than sql.js: ${v.sqljs ? 'holds' : 'MISSED'}`,
          v.duck === null ? null : `within ${DUCK_TARGET}x of DuckDB 1 thread: ${v.duck ? 'holds' : 'MISSED'}`,
        ].filter(Boolean)
        if (parts.length > 0) log(`- ${r.rows.toLocaleString('en-US')} rows, ${row.query}: ${parts.join('; ')}`)
      }
    }
    if (!opts.sizes.includes(TARGET_ROWS)) log(`(the DuckDB target is judged at ${TARGET_ROWS.toLocaleString('en-US')} rows, which this run did not include)`)
  }

  if (opts.markdown) {
    for (const r of reports) {
      log(`\n${r.rows.toLocaleString('en-US')} rows:\n`)
      log(markdownTable(r))
      const shapes = shapeMarkdown(r)
      if (shapes) log(`\n${shapes}`)
    }
  }
  log(`\nload average at end: ${loadAverage()}; total time: ${secs(performance.now() - started)}`)
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
