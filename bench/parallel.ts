/**
 * Parallel scans (issue 9): each benchmark query at 10M rows through a real PoolRunner and the
 * gateway's runOnPool, once with 1 worker (PARALLEL_PARTS=1: the query runs whole) and once with
 * 2 workers split into 2 parts (put together as the gateway does: rows joined in this process,
 * partials merged by a task on a worker). Both answers are checked against each other by digest
 * before anything is timed. Result transfer and merging are inside the timed figure; parse and
 * check too, as in the gateway.
 *
 *   node --expose-gc --max-old-space-size=8192 dist/bench/parallel.js [--rows N] [--only a,b]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import type { ResultSet, TableInput } from '../shared/protocol.js'
import type { ColumnSpec } from '../shared/table.js'
import { loadConfig } from '../shared/config.js'
import { parseQuery, tableRefs } from '../engine/parse/index.js'
import { checkQuery } from '../engine/check/index.js'
import { PoolRunner } from '../gateway/pool/runner.js'
import type { PoolServices } from '../gateway/query/deps.js'
import { runOnPool } from '../gateway/query/pool.js'
import { makeBenchData, toTableInput } from './data.js'
import { digestResult, type Digest } from './digest.js'
import { checkedRun, timedRuns, type Outcome } from './measure.js'
import { QUERIES, type BenchQuery } from './queries.js'
import { reportSummary, summaryText, type SummaryRow } from './summary.js'
import type { Target } from './target.js'

const TARGET = 1.7

/** The gateway's side of a run: a query parsed and checked here, run on the pool through runOnPool. */
class PoolTarget implements Target {
  private result: ResultSet | null = null
  readonly deps: PoolServices
  private readonly runner: PoolRunner

  constructor(
    readonly label: string,
    workers: number,
    parts: number,
    private readonly tables: ReadonlyMap<string, TableInput>,
  ) {
    this.runner = new PoolRunner({ workers })
    const config = loadConfig({
      WORKERS: String(workers),
      PARALLEL_PARTS: String(parts),
      PARALLEL_MIN_ROWS: '1000000',
      QUERY_TIMEOUT_MS: '600000',
      MAX_RESULT_ROWS: '500000000',
      MAX_RESULT_BYTES: String(Number.MAX_SAFE_INTEGER),
    })
    this.deps = { config, runner: this.runner }
  }

  async run(q: BenchQuery): Promise<void> {
    const ops = parseQuery(q.xml, {})
    const schemas = new Map<string, readonly ColumnSpec[]>()
    for (const path of tableRefs(ops))
      schemas.set(
        path,
        this.tables.get(path)!.columns.map((c) => c.spec),
      )
    const checked = checkQuery(ops, schemas)
    const tables = [...schemas.keys()].map((p) => this.tables.get(p)!)
    this.result = await runOnPool(this.deps, { kind: 'run', ops: checked.ops, tables, maxRows: this.deps.config.maxResultRows }, {})
  }

  async digest(q: BenchQuery): Promise<Digest> {
    return digestResult(this.result!, q.orderKeys)
  }

  async release(): Promise<void> {
    this.result = null
  }

  close(): Promise<void> {
    return this.runner.close()
  }
}

interface Measured {
  readonly query: BenchQuery
  readonly one: Outcome
  readonly two: Outcome
}

async function measureQuery(t: PoolTarget, q: BenchQuery, reference: Map<string, Digest>): Promise<Outcome> {
  const checked = await checkedRun(t, q, reference.get(q.name) ?? null)
  if ('outcome' in checked) return checked.outcome
  if (!reference.has(q.name)) reference.set(q.name, checked.digest)
  return timedRuns(t, q)
}

const ms = (o: Outcome): number | null => (o.kind === 'ok' ? o.ms : null)

function describe(o: Outcome): string {
  if (o.kind === 'ok') return `${o.ms.toFixed(1)} (${o.all.map((x) => x.toFixed(0)).join('/')})`
  if (o.kind === 'error') return `error: ${o.message}`
  return `MISMATCH: ${o.diffs.join('; ')}`
}

async function measureAll(opts: { rows?: number; only?: readonly string[] } = {}): Promise<Measured[]> {
  const rows = opts.rows ?? 10_000_000
  const queries = QUERIES.filter((q) => !opts.only || opts.only.includes(q.name))
  const data = makeBenchData(rows)
  const tables = new Map([data.item, data.products, data.stores].map((t) => [t.path, toTableInput(t)]))
  const reference = new Map<string, Digest>()
  // Both pools stay up and each query is timed on one, then at once on the other: the two figures
  // of a ratio are seconds apart, not minutes, so drift in what else the machine runs skews it less.
  const oneWorker = new PoolTarget('1 worker', 1, 1, tables)
  const twoWorkers = new PoolTarget('2 workers', 2, 2, tables)
  try {
    const out: Measured[] = []
    for (const query of queries) {
      const one = await measureQuery(oneWorker, query, reference)
      const two = await measureQuery(twoWorkers, query, reference)
      out.push({ query, one, two })
    }
    return out
  } finally {
    await Promise.all([oneWorker.close(), twoWorkers.close()])
  }
}

function summaryRows(measured: readonly Measured[], rows: number): SummaryRow[] {
  return measured.map(({ query, one, two }) => {
    const a = ms(two)
    const b = ms(one)
    const ratio = a !== null && b !== null && a > 0 ? b / a : null
    return {
      group: 'parallel',
      figure: `${query.name} at ${rows / 1e6}M rows, 2 workers`,
      ours: a,
      reference: b,
      referenceLabel: '1 worker',
      ratio,
      target: `>= ${TARGET}`,
      ok: ratio === null ? null : ratio >= TARGET,
      unit: 'ms',
    }
  })
}

/** Each benchmark query on 1 worker and split over 2: one row per query, ratio = speed-up. */
export async function measureParallel(opts: { rows?: number } = {}): Promise<SummaryRow[]> {
  return summaryRows(await measureAll(opts), opts.rows ?? 10_000_000)
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, only: { type: 'string' } } })
  const rows = values.rows ? Number(values.rows) : 10_000_000
  const only = values.only ? values.only.split(',') : undefined
  console.log(
    `parallel scans: ${rows.toLocaleString('en-US')} rows, node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${new Date().toISOString()}`,
  )
  const measured = await measureAll({ rows, only })
  console.log('\n| query | 1 worker ms | 2 workers ms | speed-up |\n|---|---:|---:|---:|')
  for (const m of measured) {
    const a = ms(m.two)
    const b = ms(m.one)
    console.log(`| ${m.query.name} | ${describe(m.one)} | ${describe(m.two)} | ${a !== null && b !== null ? (b / a).toFixed(2) : '-'} |`)
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  )
  const summary = summaryRows(measured, rows)
  console.log(summaryText(summary))
  reportSummary(summary)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
