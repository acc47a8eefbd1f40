/**
 * `npm run bench:cluster`: throughput of small queries through the balancer with 1, 2 and 3
 * gateway processes behind it (one Redis, one data folder), side by side with the scaling ratio,
 * and the latency of a `!stop` sent to one gateway for a query running on another.
 *
 *   node dist/bench/cluster.js [--seconds 8] [--connections 32] [--rows 100000]
 *
 * The balancer is Debian's nginx with deploy/nginx/tabula.conf when installed (as deployed),
 * otherwise the test suite's Node proxy. Everything (load generator, balancer, gateways and their
 * workers) shares this machine's cores, so the ratio says how far more gateways help on this
 * machine, not on one with a core per gateway. Repeated identical queries are answered from each
 * gateway's result memo once it has run them, so the figures measure the request path (session,
 * parsing, routing, Store round trips, formatting) rather than the engine.
 */
import autocannon from 'autocannon'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { startCluster, CLUSTER_ADMIN_PASSWORD, type Cluster } from '../test/helpers/cluster.js'
import { findNginx, startNginx } from '../test/helpers/nginx.js'
import { startRedisServer } from '../test/helpers/redis-server.js'
import { RotatingProxy } from '../test/helpers/rotating-proxy.js'
import { median } from './measure.js'
import { reportSummary, type SummaryRow } from './summary.js'

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const SECONDS = Number(arg('seconds', '8'))
const CONNECTIONS = Number(arg('connections', '32'))
const ROWS = Number(arg('rows', '100000'))
const WARMUP_SECONDS = 2
const STOP_ROUNDS = 10
const STOP_TARGET_MS = 100

const QUERIES = [
  { name: 'api/sql', path: 'sql:json', body: { sql: 'select count(*) n from pub.demo.retail.item where store = 3' } },
  {
    name: 'api/run',
    path: 'run:json',
    body: { xml: '<base table="pub.demo.retail.item"/><sel value="store=3"/><tabu breaks="store"><tcol fun="cnt"/></tabu>' },
  },
] as const
const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'

interface Figure {
  readonly gateways: number
  readonly query: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
}

const log = (s = ''): void => {
  process.stdout.write(`${s}\n`)
}

async function login(api: string): Promise<string> {
  const res = await fetch(`${api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: CLUSTER_ADMIN_PASSWORD }) })
  const c = (await res.json()) as { uid: string; sid: string; epw: string }
  return `session=${c.uid}|${c.sid}|${c.epw}`
}

/** A balancer over the first `n` gateways: nginx when installed, else the Node proxy. */
async function balancerOver(cluster: Cluster, n: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const ports = cluster.gateways.slice(0, n).map((g) => Number(new URL(g.base).port))
  if (findNginx()) return startNginx(ports)
  const proxy = new RotatingProxy(ports.map((port) => ({ host: '127.0.0.1', port })))
  return { origin: await proxy.listen(), close: () => proxy.close() }
}

async function load(url: string, cookie: string, body: object, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
    duration: seconds,
  })
}

/** From a !stop on gateway 1 to the stopped answer of the query running on gateway 0. */
async function stopLatencies(cluster: Cluster, cookie: string): Promise<number[]> {
  const post = (base: string, path: string, body?: object) =>
    fetch(`${base}/${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
  const out: number[] = []
  for (let round = 0; round < STOP_ROUNDS; round++) {
    const tag = ((await (await post(cluster.gateways[0].base, 'new/sql:json', {})).json()) as { tag: number }).tag
    const running = post(cluster.gateways[0].base, `${tag}:json`, { sql: FOREVER })
    await new Promise((r) => setTimeout(r, 300))
    const t0 = performance.now()
    await post(cluster.gateways[1].base, `${tag}/!stop:json`)
    const res = await running
    out.push(performance.now() - t0)
    if (res.status !== 409) throw new Error(`the stopped query answered ${res.status}, not 409`)
  }
  return out
}

async function main(): Promise<void> {
  const redis = await startRedisServer()
  process.env.TEST_REDIS_URL = redis.url
  const cluster = await startCluster({ demoRows: ROWS, env: { QUERY_TIMEOUT_MS: '120000' } })
  const balancerKind = findNginx() ? 'nginx (deploy/nginx/tabula.conf)' : 'Node round-robin proxy (nginx not installed)'
  log('# tabula bench:cluster')
  log(`date: ${new Date().toISOString()}`)
  log(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  )
  log(`setup: redis-server, 3 gateway processes (WORKERS=2 each), ${ROWS.toLocaleString('en-US')}-row demo table, balancer: ${balancerKind}`)
  log(`load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per figure after ${WARMUP_SECONDS} s of warm-up, one session`)
  const figures: Figure[] = []
  try {
    const cookie = await login(cluster.gateways[0].base)
    for (const n of [1, 2, 3]) {
      const lb = await balancerOver(cluster, n)
      try {
        for (const q of QUERIES) {
          const url = `${lb.origin}/v1/api/${q.path}`
          await load(url, cookie, q.body, WARMUP_SECONDS)
          const r = await load(url, cookie, q.body, SECONDS)
          const failed = r.errors + r.non2xx + r.timeouts
          figures.push({ gateways: n, query: q.name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: failed })
          log(`  ${n} gateway(s), ${q.name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, failed ${failed}`)
        }
      } finally {
        await lb.close()
      }
    }
    log()
    log('| query | gateways | req/s | p50 ms | p99 ms | failed | vs 1 gateway |')
    log('|---|---:|---:|---:|---:|---:|---:|')
    for (const f of figures) {
      const one = figures.find((g) => g.query === f.query && g.gateways === 1)!
      log(`| ${f.query} | ${f.gateways} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors} | ${(f.rps / one.rps).toFixed(2)}x |`)
    }
    const stops = await stopLatencies(cluster, cookie)
    log()
    log(
      `!stop on gateway 1 for a query on gateway 0, ${STOP_ROUNDS} rounds: median ${median(stops).toFixed(0)} ms, max ${Math.max(...stops).toFixed(0)} ms (target < ${STOP_TARGET_MS} ms: ${median(stops) < STOP_TARGET_MS ? 'holds' : 'missed'})`,
    )
    log(
      `load average at end: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}`,
    )
    reportSummary(clusterSummary(figures, stops))
  } finally {
    await cluster.close()
    await redis.stop()
  }
}

/** Headline rows: scaling to 3 gateways (informative on 2 cores) and the cross-gateway stop. */
function clusterSummary(figures: readonly Figure[], stops: readonly number[]): SummaryRow[] {
  const rows: SummaryRow[] = []
  for (const name of new Set(figures.map((f) => f.query))) {
    const one = figures.find((f) => f.query === name && f.gateways === 1)
    const three = figures.find((f) => f.query === name && f.gateways === 3)
    if (!one || !three) continue
    rows.push({
      group: 'cluster',
      figure: `${name} via nginx, 3 gateways, ${CONNECTIONS} conns`,
      unit: 'req/s',
      ours: three.rps,
      reference: one.rps,
      referenceLabel: '1 gateway',
      ratio: three.rps / one.rps,
      target: '',
      ok: null,
    })
  }
  const m = median([...stops])
  rows.push({
    group: 'cluster',
    figure: '!stop to another gateway, median',
    unit: 'ms',
    ours: m,
    reference: STOP_TARGET_MS,
    referenceLabel: 'target',
    ratio: m / STOP_TARGET_MS,
    target: `< ${STOP_TARGET_MS} ms`,
    ok: m < STOP_TARGET_MS,
  })
  return rows
}

await main()
