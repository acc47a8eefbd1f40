/**
 * Parallel scans through the gateway's runOnPool and a real PoolRunner of 2 workers: a query over
 * a table of at least PARALLEL_MIN_ROWS rows runs as one part per worker, and its answer is
 * identical (float bits included) to the same query with PARALLEL_PARTS=1, which runs it whole
 * on one worker. A stop, or the time limit, ends every part at once and frees both workers.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { loadConfig } from '../../shared/config.js'
import type { EngineTask, ResultSet, RunTask, TableInput } from '../../shared/protocol.js'
import type { ColumnSpec } from '../../shared/table.js'
import { parseQuery, tableRefs } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { PoolRunner, type QueryRunner, type RunOptions } from '../../gateway/pool/runner.js'
import type { PoolServices } from '../../gateway/query/deps.js'
import { runOnPool } from '../../gateway/query/pool.js'
import type { RunControl } from '../../gateway/query/run-control.js'
import { ProgressCell } from '../../gateway/query/running/index.js'
import { makeBenchData, toTableInput } from '../../bench/data.js'
import { QUERIES } from '../../bench/queries.js'
import { expectIdentical } from '../engine/parallel-harness.js'

const ITEM = '<base table="pub.demo.retail.item"/>'

/** Over two summing blocks (524,288 rows each), so that queries that sum split too. */
const ROWS = 600_000

const EXTRA: readonly string[] = [
  `${ITEM}<willbe name="ga" value="g_avg(store;qty>2;sales)"/><willbe name="mx" value="g_max(grp1k;;cost)"/><sel value="sales>ga"/>`,
  `${ITEM}<sel value="qty>3"/><tabu breaks="store,payment"><break col="payment" sort="down"/><tcol source="sales" fun="avg"/><tcol source="cost" fun="min"/><tcol source="date" fun="last"/></tabu><sort col="t0" dir="down"/>`,
  `${ITEM}<link table2="pub.demo.retail.products" col="sku" col2="sku" cols="dept,price" type="select"/><willbe name="v" value="price*qty"/><tabu breaks="dept"><tcol source="v" fun="sum"/><tcol fun="cnt"/></tabu>`,
]

/** A query whose every part runs for many seconds: the link's own pipeline sorts 10,000 rows over and over. */
const SLOW = `${ITEM}<link table2="pub.demo.retail.products" col="sku" col2="sku" cols="price">${'<sort cols="dept,price" dir="up"/><sort col="price" dir="down"/>'.repeat(5000)}</link>`

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('parallel scans through the pool', function () {
  this.timeout(180_000)
  const data = makeBenchData(ROWS)
  const tables = new Map([data.item, data.products, data.stores].map((t) => [t.path, toTableInput(t)]))
  let pool: PoolRunner
  const sent: RunTask[] = []
  /** The signal each task was run under. */
  const signals: (AbortSignal | undefined)[] = []
  const runner: QueryRunner = {
    run: (task: EngineTask, opts: RunOptions) => {
      if (task.kind === 'run') sent.push(task)
      signals.push(opts.signal)
      return pool.run(task, opts)
    },
    get pending() {
      return pool.pending
    },
    close: () => pool.close(),
  }

  before(() => {
    pool = new PoolRunner({ workers: 2 })
  })
  after(() => pool.close())

  const deps = (env: Record<string, string> = {}): PoolServices => ({ config: loadConfig({ WORKERS: '2', PARALLEL_MIN_ROWS: '1000', ...env }), runner })

  function task(xml: string, maxRows = 1e9, truncate = false): RunTask {
    const ops = parseQuery(xml, {})
    const schemas = new Map<string, readonly ColumnSpec[]>()
    for (const p of tableRefs(ops))
      schemas.set(
        p,
        tables.get(p)!.columns.map((c) => c.spec),
      )
    const used: TableInput[] = [...schemas.keys()].map((p) => tables.get(p)!)
    return { kind: 'run', ops: checkQuery(ops, schemas).ops, tables: used, maxRows, truncate }
  }

  async function run(t: RunTask, env: Record<string, string>, control: RunControl = {}): Promise<{ result: ResultSet; parts: number }> {
    sent.length = 0
    const result = await runOnPool(deps(env), t, control)
    return { result, parts: sent.filter((s) => s.part !== undefined).length }
  }

  for (const q of QUERIES) {
    it(`${q.name}: 2 parts give exactly the answer of one worker`, async () => {
      const t = task(q.xml)
      const whole = await run(t, { PARALLEL_PARTS: '1' })
      expect(whole.parts).to.equal(0)
      const split = await run(t, {})
      expect(split.parts, 'tasks that were parts').to.equal(q.name === 'sort' ? 0 : q.name === 'gsum' ? 4 : 2)
      expectIdentical(split.result, whole.result, q.name)
    })
  }

  EXTRA.forEach((xml, i) => {
    it(`extra query ${i + 1}: identical in 2 parts`, async () => {
      const t = task(xml)
      const whole = await run(t, { PARALLEL_PARTS: '1' })
      const split = await run(t, {})
      expect(split.parts).to.be.greaterThan(0)
      expectIdentical(split.result, whole.result, `extra ${i + 1}`)
    })
  })

  it('runs whole below PARALLEL_MIN_ROWS, and keeps truncate_ and MAX_RESULT_ROWS over the parts', async () => {
    expect((await run(task(QUERIES[1].xml), { PARALLEL_MIN_ROWS: String(ROWS + 1) })).parts).to.equal(0)
    const cut = task(`${ITEM}<sel value="qty>1"/>`, 5000, true)
    const whole = await run(cut, { PARALLEL_PARTS: '1' })
    const split = await run(cut, {})
    expect(split.parts).to.equal(2)
    expect(split.result.rowCount).to.equal(5000)
    expectIdentical(split.result, whole.result, 'truncated')
    const refused = await runOnPool(deps(), task(`${ITEM}<sel value="qty>1"/>`, 5000), {}).then(
      () => null,
      (e: AppError) => e,
    )
    expect(refused?.code).to.equal('RESULT_TOO_LARGE')
    expect(refused?.detail.rows).to.equal(whole.result.totalRows)
  })

  async function untilIdle(): Promise<void> {
    for (let i = 0; i < 200 && pool.pending > 0; i++) await sleep(50)
    expect(pool.pending, 'tasks still on the pool').to.equal(0)
  }

  it('a stop ends every part at once, with progress reported while they run', async () => {
    const stop = new AbortController()
    const progress = new ProgressCell()
    sent.length = 0
    const outcome = runOnPool(deps(), task(SLOW), { signals: [stop.signal], progress }).then(
      () => null,
      (e: AppError) => e,
    )
    for (let i = 0; i < 400 && (pool.pending < 2 || progress.read() === null); i++) await sleep(25)
    expect(pool.pending, 'both parts running').to.equal(2)
    expect(progress.read(), 'progress of the parts').to.not.equal(null)
    stop.abort(new AppError('STOPPED', 'The query was stopped by !stop.'))
    const error = await outcome
    expect(error?.code).to.equal('STOPPED')
    await untilIdle()
    // The workers were replaced and answer again.
    expect((await run(task(QUERIES[0].xml), {})).parts).to.equal(2)
  })

  it('the time limit ends every part, with the request limit named', async () => {
    const error = await runOnPool(deps(), task(SLOW), { timeout: { timeoutMs: 1500, timeoutLimit: 'timeout_' } }).then(
      () => null,
      (e: AppError) => e,
    )
    expect(error?.code).to.equal('TIMEOUT')
    expect(error?.message).to.contain('timeout_')
    await untilIdle()
  })

  it('a split run stopped by its time limit answers the 504 naming the limit, and the runner counts one timeout', async () => {
    sent.length = 0
    signals.length = 0
    const before = pool.timeouts
    const error = await runOnPool(deps(), task(SLOW), { timeout: { timeoutMs: 1500, timeoutLimit: 'QUERY_TIMEOUT_MS' } }).then(
      () => null,
      (e: AppError) => e,
    )
    expect(sent.filter((t) => t.part !== undefined).length, 'parts').to.equal(2)
    expect(error?.code).to.equal('TIMEOUT')
    expect(error?.message).to.contain('1500 ms (QUERY_TIMEOUT_MS)')
    expect(pool.timeouts - before, 'timeouts counted for one query of two parts').to.equal(1)
    await untilIdle()
  })

  it('every task of a query runs under the one signal of the query, which carries its time limit', async () => {
    // A summing query: parts, merges and parts again, all under one signal.
    const gsum = QUERIES.find((q) => q.name === 'gsum')!
    signals.length = 0
    await run(task(gsum.xml), {})
    expect(signals.length, 'tasks').to.be.greaterThan(2)
    expect(new Set(signals).size, 'distinct signals').to.equal(1)
    expect(signals[0], 'a signal, even with no request signal').to.be.instanceOf(AbortSignal)

    // A whole run, with no signal from the request: the runner is handed the query's signal, and
    // the time limit arrives as its reason.
    signals.length = 0
    const before = pool.timeouts
    const error = await runOnPool(deps({ PARALLEL_PARTS: '1' }), task(SLOW), { timeout: { timeoutMs: 1000, timeoutLimit: 'timeout_' } }).then(
      () => null,
      (e: AppError) => e,
    )
    expect(signals).to.have.length(1)
    expect(signals[0]?.aborted).to.equal(true)
    expect(signals[0]?.reason).to.equal(error)
    expect(error?.code).to.equal('TIMEOUT')
    expect(error?.message).to.contain('timeout_')
    expect(pool.timeouts - before).to.equal(1)
    await untilIdle()
  })
})
