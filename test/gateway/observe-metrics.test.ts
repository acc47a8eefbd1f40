/**
 * `GET /metrics` (issue 9): the Prometheus text format, and figures that move with what the
 * gateway does — requests by route name and status, their latency, queries running, stops by
 * reason, worker restarts, table cache hits and Store calls. Per-gateway figures, so the API
 * suite runs in-process on the memory store and on Redis, not through the balancer (each scrape
 * would land on another gateway).
 */
import { expect } from 'chai'
import http from 'node:http'
import { loadConfig } from '../../shared/config.js'
import { apiRouteName, ROUTE_NAMES } from '../../gateway/observe/index.js'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

/** One sample line of the exposition: `name{label="value",…} number`. */
interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|[+-]Inf)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** Parses the text format strictly: every line is a comment, a blank or a sample. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue
    const m = SAMPLE_LINE.exec(line)
    if (!m) throw new Error(`not a sample line of the text format: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k] = v
    samples.push({ name: m[1], labels, value: Number(m[3]) })
  }
  return samples
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Counts for ever; `n` makes each text (so each recipe) distinct. */
const forever = (n: number) => `with recursive c(x) as (select ${n} union all select x + 1 from c) select count(*) as n from c`

async function scrape(svc: TestService): Promise<Sample[]> {
  const res = await svc.http.get('/metrics')
  expect(res.status, res.text).to.equal(200)
  return parseExposition(res.text)
}

/** Scrapes until `check` holds; fails naming `what` after `withinMs`. */
async function scrapeUntil(svc: TestService, check: (s: Sample[]) => boolean, what: string, withinMs = 20_000): Promise<Sample[]> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const samples = await scrape(svc)
    if (check(samples)) return samples
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`)
    await sleep(40)
  }
}

describe('route names of the metrics', () => {
  it('name API routes from a fixed list, never from a table, folder or tag', () => {
    const cases: [string[], string][] = [
      [[], 'api'],
      [['index', 'login'], 'login'],
      [['index', 'logout'], 'logout'],
      [['sql'], 'sql'],
      [['sql', 'index', 'data'], 'sql'],
      [['run', 'index', 'stop'], 'run'],
      [['dbm'], 'dbm'],
      [['new', 'sql'], 'new'],
      [['ls', 'pub.demo'], 'ls'],
      [['42', 'index', 'rows'], 'instance'],
      [['pub.demo.retail.item'], 'object'],
      [['secret_table', 'grid1'], 'object'],
      [['index', 'cols'], 'other'],
    ]
    for (const [segments, name] of cases) {
      expect(apiRouteName(segments), segments.join('/')).to.equal(name)
      expect(ROUTE_NAMES).to.include(name)
    }
  })
})

forEachStore(
  'GET /metrics',
  (svc) => {
    const session = loggedIn(svc)
    let serial = 0

    const sql = (text: string, extra: Record<string, string> = {}) => session.post('/v1/api/sql:json').send({ sql: text, ...extra })

    it('answers the Prometheus text format, every line a comment or a sample, with the process metrics', async () => {
      const res = await svc().http.get('/metrics')
      expect(res.status).to.equal(200)
      expect(res.headers['content-type']).to.equal('text/plain; version=0.0.4; charset=utf-8')
      expect(res.headers['x-request-id']).to.be.a('string')
      const samples = parseExposition(res.text)
      const types = new Map([...res.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]))
      expect(Object.fromEntries(types)).to.include({
        http_requests_total: 'counter',
        http_request_duration_seconds: 'histogram',
        queries_running: 'gauge',
        queries_queued: 'gauge',
        worker_restarts_total: 'counter',
        query_stops_total: 'counter',
        table_cache_hits_total: 'counter',
        table_cache_misses_total: 'counter',
        table_cache_bytes: 'gauge',
        sqlite_images_built_total: 'counter',
        store_round_trips_total: 'counter',
        process_cpu_user_seconds_total: 'counter',
        nodejs_heap_size_used_bytes: 'gauge',
      })
      expect(total(samples, 'process_resident_memory_bytes')).to.be.above(0)
    })

    it('counts requests by route name, method and status, with a latency histogram', async () => {
      const before = await scrape(svc())
      for (let i = 0; i < 2; i++) expect((await sql(`select ${++serial} as n`)).status).to.equal(200)
      expect((await session.get('/v1/api/pub.demo.nowhere_to_be_found:json')).status).to.equal(404)
      expect((await svc().http.get('/no/such/place')).status).to.equal(404)
      const after = await scrape(svc())
      const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels)
      expect(moved('http_requests_total', { endpoint: 'sql', method: 'POST', status: '200' })).to.equal(2)
      expect(moved('http_requests_total', { endpoint: 'object', method: 'GET', status: '404' })).to.equal(1)
      expect(moved('http_requests_total', { endpoint: 'other', status: '404' })).to.equal(1)
      expect(moved('http_request_duration_seconds_count', { endpoint: 'sql' })).to.equal(2)
      expect(moved('http_request_duration_seconds_sum', { endpoint: 'sql' })).to.be.above(0)
      // Cumulative buckets: +Inf holds every request, and no bucket holds more than a wider one.
      const buckets = after.filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.endpoint === 'sql')
      expect(buckets.find((b) => b.labels.le === '+Inf')?.value).to.equal(total(after, 'http_request_duration_seconds_count', { endpoint: 'sql' }))
      for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).to.be.at.least(buckets[i - 1].value)
      // Route names only: no path, table or folder name ever becomes a label value.
      for (const s of after) {
        if (s.labels.endpoint !== undefined) expect(ROUTE_NAMES as readonly string[], JSON.stringify(s)).to.include(s.labels.endpoint)
        expect(JSON.stringify(s.labels)).not.to.match(/nowhere_to_be_found|no\/such|pub\.demo/)
      }
    })

    it('shows a long query as running, and counts its !stop and the worker it cost', async function () {
      this.timeout(60_000)
      const before = await scrape(svc())
      const running = sql(forever(++serial)).then((r) => r)
      await scrapeUntil(svc(), (s) => total(s, 'queries_running') >= 1, 'queries_running shows the query')
      expect((await session.post('/v1/api/sql/!stop:json')).body).to.deep.equal({ stopped: true })
      expect((await running).status).to.equal(409)
      const after = await scrapeUntil(
        svc(),
        (s) => total(s, 'queries_running') === 0 && total(s, 'worker_restarts_total') > total(before, 'worker_restarts_total'),
        'the worker is replaced and nothing runs',
      )
      expect(total(after, 'query_stops_total', { reason: 'stop' }) - total(before, 'query_stops_total', { reason: 'stop' })).to.equal(1)
      expect(total(after, 'queries_queued')).to.equal(0)
    })

    it('counts a query stopped by its time limit', async function () {
      this.timeout(60_000)
      const before = await scrape(svc())
      const res = await sql(forever(++serial), { timeout_: '300' })
      expect(res.status, res.text).to.equal(504)
      const after = await scrape(svc())
      expect(total(after, 'query_stops_total', { reason: 'timeout' }) - total(before, 'query_stops_total', { reason: 'timeout' })).to.equal(1)
      expect(total(after, 'query_stops_total', { reason: 'stop' })).to.equal(total(before, 'query_stops_total', { reason: 'stop' }))
    })

    it('counts a query stopped because its client went away', async function () {
      this.timeout(60_000)
      const before = await scrape(svc())
      const body = JSON.stringify({ sql: forever(++serial) })
      const origin = new URL(svc().http.get('/').url).origin
      const req = http.request(`${origin}/v1/api/sql:json`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      })
      req.on('error', () => undefined)
      req.end(body)
      await scrapeUntil(svc(), (s) => total(s, 'queries_running') >= 1, 'the query runs')
      req.destroy()
      const key = { reason: 'disconnect' }
      await scrapeUntil(svc(), (s) => total(s, 'query_stops_total', key) === total(before, 'query_stops_total', key) + 1, 'the disconnect is counted')
      await scrapeUntil(svc(), (s) => total(s, 'queries_running') === 0, 'nothing runs any more')
    })

    it('counts table cache hits and holds the bytes of the table read', async () => {
      // Distinct texts: the result memo would answer a repeated one without touching the table.
      expect((await sql(`select count(*) n${++serial} from pub.demo.retail.item`)).status).to.equal(200)
      const first = await scrape(svc())
      expect((await sql(`select sum(qty) s${++serial} from pub.demo.retail.item`)).status).to.equal(200)
      const second = await scrape(svc())
      expect(total(second, 'table_cache_hits_total')).to.be.above(total(first, 'table_cache_hits_total'))
      expect(total(second, 'table_cache_misses_total')).to.be.at.least(1)
      expect(total(second, 'table_cache_bytes')).to.be.above(0)
    })

    it('counts Store calls by operation', async () => {
      const before = await scrape(svc())
      expect((await sql(`select ${++serial} as n`)).status).to.equal(200)
      const after = await scrape(svc())
      expect(total(after, 'store_round_trips_total') - total(before, 'store_round_trips_total'), 'an authenticated query reads its session').to.be.above(0)
      const ops = new Set(after.filter((s) => s.name === 'store_round_trips_total').map((s) => s.labels.op))
      expect([...ops]).to.include('get')
      for (const op of ops) expect(op).to.match(/^[a-z]+$/)
    })

    it('takes only GET and HEAD', async () => {
      const res = await svc().http.post('/metrics')
      expect(res.status).to.equal(405)
      expect(res.headers.allow).to.equal('GET, HEAD')
    })
  },
  {},
  { skip: ['cluster'] },
)

describe('GET /metrics with METRICS_TOKEN', () => {
  const TOKEN = 'scrape-token-0123456789'
  let svc: TestService
  before(async function () {
    this.timeout(90_000)
    svc = await startTestService('memory', { METRICS_TOKEN: TOKEN })
  })
  after(async () => {
    await svc?.close()
  })

  it('refuses a scrape without the token, or with another one, with 401 and a request id', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, TOKEN]) {
      const req = svc.http.get('/metrics')
      const res = await (auth === undefined ? req : req.set('Authorization', auth))
      expect(res.status, String(auth)).to.equal(401)
      expect(res.headers['www-authenticate']).to.match(/^Bearer/)
      expect(res.body).to.include({ code: 'bad_credentials', requestId: res.headers['x-request-id'] })
      expect(res.text).not.to.include('http_requests_total')
    }
  })

  it('answers the metrics to the bearer of the token', async () => {
    const res = await svc.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`)
    expect(res.status).to.equal(200)
    expect(parseExposition(res.text).length).to.be.above(10)
  })

  it('leaves /healthz and /readyz open', async () => {
    expect((await svc.http.get('/healthz')).status).to.equal(200)
    expect((await svc.http.get('/readyz')).status).to.equal(200)
  })

  it('is read from the environment: unset by default, and a short one is refused', () => {
    expect(loadConfig({}).metricsToken).to.equal(null)
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).to.equal(TOKEN)
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).to.throw(/METRICS_TOKEN/)
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it 1234' })).to.throw(/METRICS_TOKEN/)
  })
})
