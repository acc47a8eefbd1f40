/**
 * `!status` (issue 6): query progress read from the running records, on the gateway that runs
 * the query and on another one sharing its Store. The demo table is made large enough that a
 * query of many sorts runs for a second or more; no assertion depends on exact timings, only on
 * progress and elapsed time growing between polls.
 */
import { expect } from 'chai'
import http from 'node:http'
import supertest from 'supertest'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps } from '../../gateway/compose.js'
import { loggedIn, type TestDeps } from '../helpers/service.js'
import { ProgressCell, statusOf, type QueryStatus } from '../../gateway/query/running/index.js'
import { withProgress } from '../../engine/interpret/run.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { makeTable } from '../helpers/engine.js'
import { forEachStore } from '../helpers/suites.js'

type Agent = ReturnType<typeof supertest>

const IDLE: QueryStatus = { running: false, elapsed_ms: null, done: null, total: null, unit: null, fraction: null, engine: null }
const SORT_COLS = ['sales', 'cost', 'customer', 'sku', 'qty', 'date', 'store', 'trans']
// Enough sorts for a query of a couple of seconds: progress reaches other gateways every
// PROGRESS_INTERVAL_MS (250 ms), and a query of a few samples could end between two polls.
const SORTS = 128

/**
 * A macro query of SORTS sorts and a tabulation over the demo table, made unique by `tag` (the
 * gateway memoises results by recipe, and a memo hit would run nothing). A willbe after each
 * sort keeps the sorts apart (consecutive sorts run as one sort, interpret/run.ts). Its op count
 * is 1 (base) + 1 (willbe) + 2 × SORTS + 1 (tabu).
 */
function longQuery(tag: number): { xml: string; ops: number } {
  const sorts = Array.from(
    { length: SORTS },
    (_, i) => `<sort col="${SORT_COLS[i % SORT_COLS.length]}" dir="${i % 2 ? 'up' : 'down'}"/><willbe name="after${i}" value="${i}"/>`,
  )
  const xml = `<base table="pub.demo.retail.item"/><willbe name="tag" value="${tag}"/>${sorts.join('')}<tabu breaks="store"><tcol source="sales" fun="sum"/></tabu>`
  return { xml, ops: 2 * SORTS + 3 }
}

/**
 * An SQL query of the compiled subset that sorts the demo table once per window (SORTS windows
 * over the columns in turn), made unique by `tag` as longQuery is.
 */
function longSql(tag: number): string {
  const windows = Array.from(
    { length: SORTS / 4 },
    (_, i) => `sum(sales) over (order by ${SORT_COLS[i % SORT_COLS.length]}${i % 2 ? '' : ' desc'}, trans) w${i}`,
  )
  return `select count(*) n, max(w0) m from (select ${windows.join(', ')} from pub.demo.retail.item where trans <> -${tag})`
}

const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function statusOn(agent: Agent, cookie: string, path: string, format = 'json'): Promise<QueryStatus> {
  const res = await agent.get(`/v1/api/${path}/!status:${format}`).set('Cookie', cookie)
  expect(res.status, res.text).to.equal(200)
  return res.body as QueryStatus
}

/** Polls `!status` until `check` holds; fails naming `what` after `withinMs`. */
async function pollUntil(
  agent: Agent,
  cookie: string,
  path: string,
  check: (s: QueryStatus) => boolean,
  what: string,
  withinMs = 20_000,
): Promise<QueryStatus> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const status = await statusOn(agent, cookie, path)
    if (check(status)) return status
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what} (last status ${JSON.stringify(status)})`)
    await sleep(40)
  }
}

const hasProgress = (s: QueryStatus) => s.running && s.total !== null

/** Checks the contract's invariants of a status with progress. */
function expectProgressShape(s: QueryStatus, ops: number): void {
  expect(s.running).to.equal(true)
  expect(s.total).to.equal(ops)
  expect(s.unit).to.equal('ops')
  expect(s.done).to.be.a('number').within(0, ops)
  expect(s.fraction).to.be.closeTo(s.done! / ops, 1e-4)
  expect(s.elapsed_ms).to.be.a('number').at.least(0)
}

/** A second gateway over the first one's Store and data folder, with its own pool and stop registry. */
async function secondGateway(first: TestDeps): Promise<{ http: Agent; close: () => Promise<void> }> {
  const deps = await buildDeps(first.config, () => undefined, first.store)
  const server = http.createServer(createApp(deps).callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    http: supertest(server),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      // The Store belongs to the first gateway.
      await deps.stops.close()
      await deps.runner.close()
    },
  }
}

describe('statusOf()', () => {
  const record = (info: object) => JSON.stringify({ gatewayId: 'gw', ...info })

  it('is idle when no copy is recorded', () => {
    expect(statusOf({}, 1000)).to.deep.equal(IDLE)
  })

  it('shows the copy furthest along, with elapsed time from its start', () => {
    const status = statusOf({ a: record({ startedAt: 100, done: 1, total: 4 }), b: record({ startedAt: 500, done: 3, total: 4 }) }, 1500)
    expect(status).to.deep.equal({ running: true, elapsed_ms: 1000, done: 3, total: 4, unit: 'ops', fraction: 0.75, engine: null })
  })

  it('shows the engine an SQL copy runs on, and nothing for anything else a record may hold there', () => {
    expect(statusOf({ a: record({ startedAt: 0, engine: 'columnar' }) }, 10).engine).to.equal('columnar')
    expect(statusOf({ a: record({ startedAt: 0, engine: 'sqlite' }) }, 10).engine).to.equal('sqlite')
    expect(statusOf({ a: record({ startedAt: 0, engine: 'duckdb' }) }, 10).engine).to.equal(null)
  })

  it('leaves progress null for a copy that reports none (SQL), and prefers a copy that does', () => {
    expect(statusOf({ a: record({ startedAt: 100, done: null, total: null }) }, 400)).to.deep.equal({ ...IDLE, running: true, elapsed_ms: 300 })
    expect(statusOf({ a: record({ startedAt: 0, done: null, total: null }), b: record({ startedAt: 50, done: 0, total: 2 }) }, 100).total).to.equal(2)
  })

  it('still says running for a record it cannot read, and never shows a negative elapsed time', () => {
    expect(statusOf({ a: 'not json' }, 0)).to.deep.equal({ ...IDLE, running: true })
    expect(statusOf({ a: record({ startedAt: 2000 }) }, 1000).elapsed_ms).to.equal(0)
  })
})

describe('withProgress() and runOps', () => {
  const table = makeTable('t', [{ name: 'x', type: 'int', values: [3, 1, 2] }])
  const run = (xml: string, cell?: ProgressCell) => {
    const ops = checkQuery(parseQuery(xml, {}), new Map([['t', table.columns.map((c) => c.spec)]])).ops
    return withProgress(cell?.buffer, () => executeRunTask({ kind: 'run', ops, tables: [table], maxRows: 100 }))
  }

  it('reports every top-level operation done, out of their number', () => {
    const cell = new ProgressCell()
    expect(cell.read()).to.equal(null)
    run('<base table="t"/><sort col="x"/><willbe name="y" value="x*2"/>', cell)
    expect(cell.read()).to.deep.equal({ done: 3, total: 3 })
  })

  it('counts a link as one operation, whatever its own pipeline holds', () => {
    const cell = new ProgressCell()
    run('<base table="t"/><link table2="t" col="x" col2="x"><sel value="x>1"/><sort col="x"/></link>', cell)
    expect(cell.read()).to.deep.equal({ done: 2, total: 2 })
  })

  it('runs as before without a cell', () => {
    expect(run('<base table="t"/><sort col="x"/>').rowCount).to.equal(3)
  })
})

forEachStore(
  '!status',
  (svc) => {
    const session = loggedIn(svc)
    let b: Awaited<ReturnType<typeof secondGateway>>
    let nextTag = 1
    before(async function () {
      this.timeout(60_000)
      b = await secondGateway(svc().deps)
    })
    after(() => b?.close())

    const post = (path: string, body: object) =>
      session
        .post(`/v1/api/${path}:json`)
        .send(body)
        .then((r) => r)

    it('answers running false with everything else null while nothing runs, in every format', async () => {
      expect(await statusOn(svc().http, session.cookie, 'run')).to.deep.equal(IDLE)
      expect(await statusOn(svc().http, session.cookie, 'sql')).to.deep.equal(IDLE)
      for (const format of ['json.rows', 'json.keyed']) expect(await statusOn(svc().http, session.cookie, 'run', format)).to.deep.equal(IDLE)
      const text = await session.get('/v1/api/run/!status:text')
      expect(text.type).to.equal('text/plain')
      expect(JSON.parse(text.text)).to.deep.equal(IDLE)
      const html = await session.get('/v1/api/run/@index/status')
      expect(html.status).to.equal(200)
      expect(html.type).to.equal('text/html')
      expect(html.text).to.match(/running[^]*false/)
      expect(html.headers['cache-control']).to.equal('no-store')
    })

    it('follows a long run query: total is its op count, done and elapsed grow, then it is idle', async function () {
      this.timeout(60_000)
      const { xml, ops } = longQuery(nextTag++)
      const running = post('run', { xml })
      const first = await pollUntil(svc().http, session.cookie, 'run', hasProgress, 'the run query reports progress')
      expectProgressShape(first, ops)
      const later = await pollUntil(svc().http, session.cookie, 'run', (s) => !s.running || s.done! > first.done!, 'done increases')
      expect(later.running, 'the query ended before done increased').to.equal(true)
      expectProgressShape(later, ops)
      expect(later.elapsed_ms).to.be.above(first.elapsed_ms!)
      expect((await running).status).to.equal(200)
      expect(await statusOn(svc().http, session.cookie, 'run')).to.deep.equal(IDLE)
    })

    it('shows the same progress on a second gateway sharing the Store', async function () {
      this.timeout(60_000)
      const { xml, ops } = longQuery(nextTag++)
      const running = post('run', { xml })
      const first = await pollUntil(b.http, session.cookie, 'run', hasProgress, 'the other gateway sees progress')
      expectProgressShape(first, ops)
      const later = await pollUntil(b.http, session.cookie, 'run', (s) => !s.running || s.done! > first.done!, 'done increases on the other gateway')
      expect(later.running, 'the query ended before done increased').to.equal(true)
      const here = await statusOn(svc().http, session.cookie, 'run')
      expect(here.total).to.equal(ops)
      expect(here.done).to.be.at.least(later.done!)
      expect((await running).status).to.equal(200)
      expect(await statusOn(b.http, session.cookie, 'run')).to.deep.equal(IDLE)
    })

    it('answers running false once the query was stopped', async function () {
      this.timeout(60_000)
      const running = post('run', { xml: longQuery(nextTag++).xml })
      await pollUntil(svc().http, session.cookie, 'run', (s) => s.running, 'the query runs')
      expect((await post('run/!stop', {})).body).to.deep.equal({ stopped: true })
      expect((await running).status).to.equal(409)
      await pollUntil(svc().http, session.cookie, 'run', (s) => !s.running, 'idle after the stop', 5000)
    })

    it('reports an SQL query as running with elapsed time only', async function () {
      this.timeout(60_000)
      const running = post('sql', { sql: FOREVER })
      // The record says which engine once the gateway has chosen (at the marker's next write).
      const first = await pollUntil(svc().http, session.cookie, 'sql', (s) => s.running && s.engine !== null, 'the SQL query runs')
      await sleep(300)
      const later = await statusOn(b.http, session.cookie, 'sql')
      for (const s of [first, later]) expect(s).to.include({ running: true, done: null, total: null, unit: null, fraction: null, engine: 'sqlite' })
      expect(later.elapsed_ms).to.be.above(first.elapsed_ms!)
      expect((await post('sql/!stop', {})).body).to.deep.equal({ stopped: true })
      expect((await running).status).to.equal(409)
      await pollUntil(svc().http, session.cookie, 'sql', (s) => !s.running, 'idle after the stop', 5000)
    })

    it('reports a compiled SQL query with its progress and the columnar engine, on either gateway', async function () {
      this.timeout(60_000)
      const running = post('sql', { sql: longSql(nextTag++) })
      const first = await pollUntil(svc().http, session.cookie, 'sql', hasProgress, 'the compiled SQL query reports progress')
      expect(first).to.include({ running: true, unit: 'ops', engine: 'columnar' })
      expect(first.done).to.be.a('number').within(0, first.total!)
      expect((await statusOn(b.http, session.cookie, 'sql')).engine).to.be.oneOf(['columnar', null])
      const done = await running
      expect(done.status, done.text).to.equal(200)
      expect(done.headers['x-tabula-engine']).to.equal('columnar')
      expect(await statusOn(svc().http, session.cookie, 'sql')).to.deep.equal(IDLE)
    })

    it('follows the query of a run instance at api/{tag}/!status, in every format', async function () {
      this.timeout(60_000)
      const tag = (await post('new/run', {})).body.tag as number
      expect(await statusOn(svc().http, session.cookie, String(tag))).to.deep.equal(IDLE)
      const { xml, ops } = longQuery(nextTag++)
      const running = post(String(tag), { xml })
      expectProgressShape(await pollUntil(svc().http, session.cookie, String(tag), hasProgress, 'the instance reports progress'), ops)
      for (const format of ['json.rows', 'json.keyed']) expect((await statusOn(b.http, session.cookie, String(tag), format)).total).to.equal(ops)
      const text = await b.http.get(`/v1/api/${tag}/!status:text`).set('Cookie', session.cookie)
      expect(JSON.parse(text.text)).to.include({ running: true, total: ops })
      const html = await b.http.get(`/v1/api/${tag}/@index/status`).set('Cookie', session.cookie)
      expect(html.text).to.match(new RegExp(`total[^]*${ops}`))
      // The session's own run endpoint is another key: it is not what runs.
      expect((await statusOn(svc().http, session.cookie, 'run')).running).to.equal(false)
      expect((await running).status).to.equal(200)
      expect(await statusOn(svc().http, session.cookie, String(tag))).to.deep.equal(IDLE)
    })

    it('follows the query of a fixed-query instance while it computes its result', async function () {
      this.timeout(60_000)
      const { xml, ops } = longQuery(nextTag++)
      const tag = (await post('new', { xml })).body.tag as number
      const running = post(String(tag), {})
      expectProgressShape(await pollUntil(svc().http, session.cookie, `${tag}`, hasProgress, 'the fixed query reports progress'), ops)
      expect((await running).status).to.equal(200)
      expect(await statusOn(svc().http, session.cookie, String(tag))).to.deep.equal(IDLE)
    })

    it('answers 404 for the status of an instance that is not there', async () => {
      const res = await session.get('/v1/api/999999/!status:json')
      expect(res.status).to.equal(404)
    })
  },
  { DEMO_ROWS: '300000', QUERY_TIMEOUT_MS: '120000' },
)
