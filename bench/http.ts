/**
 * `npm run bench:http`: gateway throughput on loopback. Small `api/sql` and `api/run` queries and
 * `!data` pages of a kept result, at 1, 16 and 64 connections, beside a bare Koa server answering
 * a small JSON body, measured in the same run.
 *
 *   node dist/bench/http.js [--seconds 5] [--rows 100000] [--profile DIR]
 *
 * The gateway (embedded store, demo data) and the bare Koa server are child processes with this
 * process's Node flags; autocannon runs here, so the load generator never shares an event loop
 * with a server under test (it does share the machine's cores). Repeated identical queries are
 * answered from the gateway's result memo after their first run, so the figures measure the
 * request path: session, parsing, catalog look-ups, Store round trips and formatting.
 * `--profile DIR` starts the gateway with --cpu-prof, writing its profile to DIR on exit.
 *
 * Each cell also says what one request cost in CPU time (user + system, all threads): the server
 * process's, read from /proc (Linux; omitted elsewhere), and the load generator's. On a machine
 * shared with the load generator, those say where the cores go better than requests per second,
 * which move with whatever else runs.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { reportSummary, summaryText, type SummaryRow } from './summary.js'
import { childEnv } from '../shared/child-env.js'

const GATEWAY = fileURLToPath(new URL('../gateway/server.js', import.meta.url))
const BARE_KOA = fileURLToPath(new URL('./bare-koa.js', import.meta.url))
const ADMIN_PASSWORD = 'bench-http-secret-1'
const WARMUP_SECONDS = 1
const CONNECTIONS = [1, 16, 64] as const
/** The connection count the targets are read at. */
const HEADLINE_CONNECTIONS = 64
const THROUGHPUT_TARGET = 0.5
const P99_TARGET_MS = 50

export interface HttpBenchOptions {
  /** Seconds of load per cell, after a one-second warm-up. */
  readonly seconds?: number
  /** Rows of the demo table the queries read. */
  readonly rows?: number
  /** Where the gateway writes a CPU profile (node --cpu-prof), if anywhere. */
  readonly profileDir?: string
  /** Progress lines; silent when absent. */
  readonly log?: (line: string) => void
}

/** One cell of the table: a kind of request at one connection count. */
export interface HttpCell {
  readonly request: string
  readonly connections: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly failed: number
  /** CPU microseconds per request of the server process, when /proc tells it. */
  readonly serverCpuUs: number | null
  /** CPU microseconds per request of this process, the load generator. */
  readonly clientCpuUs: number
}

interface Server {
  readonly child: ChildProcess
  readonly origin: string
}

/** Starts a server process and resolves once `ready` matches its stdout (group 1: the origin). */
function startProcess(script: string, args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<Server> {
  const child = spawn(process.execPath, [...process.execArgv, ...args, script], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s:\n${stdout}\n${stderr.slice(-4000)}`)), 60_000)
    // Keep only the tail of stderr: the gateway logs there and a long run must not grow memory.
    child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-8000)))
    const onExit = (code: number | null): void => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with ${code}:\n${stdout}\n${stderr.slice(-4000)}`))
    }
    const onData = (d: Buffer): void => {
      stdout += d
      const m = ready.exec(stdout)
      if (!m) return
      clearTimeout(timer)
      child.off('exit', onExit)
      // Keep draining stdout (a full pipe would block the server) without watching it further.
      child.stdout!.off('data', onData).resume()
      resolve({ child, origin: m[1] })
    }
    child.stdout!.on('data', onData)
    child.once('exit', onExit)
  })
}

function stopProcess(s: Server): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    s.child.once('exit', () => resolve())
    s.child.kill('SIGTERM')
  })
}

interface Target {
  readonly name: string
  /** The process answering, for its CPU time. */
  readonly pid: number | undefined
  readonly url: string
  readonly method: 'GET' | 'POST'
  readonly headers?: Record<string, string>
  readonly body?: string
}

async function load(t: Target, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: t.url, method: t.method, headers: t.headers, body: t.body, connections, duration: seconds })
}

/** /proc reports process times in clock ticks of 1/100 s (USER_HZ) on Linux. */
const TICK_US = 10_000

/** User + system CPU time of a process in microseconds, or null where /proc cannot say. */
function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_US
  } catch {
    return null
  }
}

async function measureCell(t: Target, connections: number, seconds: number): Promise<HttpCell> {
  await load(t, connections, WARMUP_SECONDS)
  const server0 = processCpuUs(t.pid)
  const client0 = process.cpuUsage()
  const r = await load(t, connections, seconds)
  const client = process.cpuUsage(client0)
  const server1 = processCpuUs(t.pid)
  const n = Math.max(1, r.requests.total)
  return {
    request: t.name,
    connections,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.errors + r.non2xx + r.timeouts,
    serverCpuUs: server0 === null || server1 === null ? null : (server1 - server0) / n,
    clientCpuUs: (client.user + client.system) / n,
  }
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers, body })
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`)
  return res
}

async function login(api: string): Promise<string> {
  const res = await post(
    `${api}/!login:json`,
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ uid: 'admin', pw: ADMIN_PASSWORD }).toString(),
  )
  const c = (await res.json()) as { uid: string; sid: string; epw: string }
  return `session=${c.uid}|${c.sid}|${c.epw}`
}

/** The requests measured, built once the gateway is up and a session exists. */
function targets(koa: Server, gateway: Server, cookie: string): { bare: Target; sql: Target; run: Target; page: Target } {
  const json = { cookie, 'content-type': 'application/json' }
  const api = gateway.origin
  const pid = gateway.child.pid
  return {
    bare: { name: 'bare koa hello', pid: koa.child.pid, url: `http://127.0.0.1:${koa.origin}/hello`, method: 'GET' },
    sql: {
      name: 'api/sql small',
      pid,
      url: `${api}/sql:json`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ sql: 'select trans, store, sku, qty, sales from pub.demo.retail.item where trans = 42' }),
    },
    run: {
      name: 'api/run small',
      pid,
      url: `${api}/run:json`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ xml: '<base table="pub.demo.retail.item"/><sel value="trans=42"/>' }),
    },
    // Rows 0-99 of the kept api/sql result (LARGE_SQL, run just before these cells).
    page: { name: '!data rows 0-99', pid, url: `${api}/sql/!data:json?range=0&to=100`, method: 'GET', headers: { cookie } },
  }
}

/** Every row of the demo table a store sold: tens of thousands of rows to page through. */
const LARGE_SQL = 'select * from pub.demo.retail.item where store <= 5'

/** Measures every cell; the servers run only for the duration of the call. */
export async function measureHttpCells(opts: HttpBenchOptions = {}): Promise<HttpCell[]> {
  const seconds = opts.seconds ?? 5
  const log = opts.log ?? (() => undefined)
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-bench-http-'))
  const servers: Server[] = []
  try {
    const koa = await startProcess(BARE_KOA, [], {}, /listening (\d+)/)
    servers.push(koa)
    const gatewayEnv = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD, DEMO_ROWS: String(opts.rows ?? 100_000), QUERY_TIMEOUT_MS: '120000' }
    const profileArgs = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : []
    const gateway = await startProcess(GATEWAY, profileArgs, gatewayEnv, /serving (https?:\/\/\S+\/api)[\s\S]*Query:/)
    servers.push(gateway)
    const cookie = await login(gateway.origin)
    const t = targets(koa, gateway, cookie)
    const cells: HttpCell[] = []
    const measure = async (target: Target): Promise<void> => {
      for (const c of CONNECTIONS) {
        const cell = await measureCell(target, c, seconds)
        cells.push(cell)
        const cpu = `cpu/request: server ${cell.serverCpuUs === null ? '-' : cell.serverCpuUs.toFixed(0)} us, load generator ${cell.clientCpuUs.toFixed(0)} us`
        log(`  ${cell.request}, ${c} conns: ${cell.rps.toFixed(0)} req/s, p50 ${cell.p50} ms, p99 ${cell.p99} ms, failed ${cell.failed}; ${cpu}`)
      }
    }
    await measure(t.bare)
    await measure(t.sql)
    await measure(t.run)
    await post(`${gateway.origin}/sql:json`, { cookie, 'content-type': 'application/json' }, JSON.stringify({ sql: LARGE_SQL }))
    await measure(t.page)
    return cells
  } finally {
    for (const s of servers.reverse()) await stopProcess(s)
    await rm(dataDir, { recursive: true, force: true })
  }
}

function cellOf(cells: readonly HttpCell[], request: string, connections: number): HttpCell | undefined {
  return cells.find((c) => c.request === request && c.connections === connections)
}

/** The headline rows: throughput and p99 of small queries at 64 connections against bare Koa. */
export function headlineRows(cells: readonly HttpCell[]): SummaryRow[] {
  const bare = cellOf(cells, 'bare koa hello', HEADLINE_CONNECTIONS)
  const rows: SummaryRow[] = []
  for (const request of ['api/sql small', 'api/run small', '!data rows 0-99']) {
    const ours = cellOf(cells, request, HEADLINE_CONNECTIONS)
    const rps = ours?.rps ?? null
    const ratio = rps !== null && bare ? rps / bare.rps : null
    const targeted = request !== '!data rows 0-99'
    rows.push({
      group: 'http',
      figure: `${request}, ${HEADLINE_CONNECTIONS} conns`,
      ours: rps,
      reference: bare?.rps ?? null,
      referenceLabel: 'bare koa',
      ratio,
      target: targeted ? `>= ${THROUGHPUT_TARGET}` : '',
      ok: targeted && ratio !== null ? ratio >= THROUGHPUT_TARGET && ours!.failed === 0 : null,
      unit: 'req/s',
    })
    if (!targeted) continue
    const p99 = ours?.p99 ?? null
    rows.push({
      group: 'http',
      figure: `${request} p99, ${HEADLINE_CONNECTIONS} conns`,
      ours: p99,
      reference: bare?.p99 ?? null,
      referenceLabel: 'bare koa',
      ratio: p99 !== null && bare && bare.p99 > 0 ? p99 / bare.p99 : null,
      target: `< ${P99_TARGET_MS} ms`,
      ok: p99 === null ? null : p99 < P99_TARGET_MS,
      unit: 'ms',
    })
  }
  return rows
}

export async function measureHttp(opts: HttpBenchOptions = {}): Promise<SummaryRow[]> {
  return headlineRows(await measureHttpCells(opts))
}

/**
 * CPU time per request at the headline connection count: the server's, the load generator's, and
 * the server's against bare Koa's. With both processes on the same cores, these bound what
 * throughput ratio the machine allows whatever its other load.
 */
export function cpuTable(cells: readonly HttpCell[]): string {
  const bare = cellOf(cells, 'bare koa hello', HEADLINE_CONNECTIONS)
  const us = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : v.toFixed(0))
  const lines = [
    `| request, ${HEADLINE_CONNECTIONS} conns | server cpu us/request | load generator cpu us/request | server cpu vs bare koa |`,
    '|---|---:|---:|---:|',
  ]
  for (const request of [...new Set(cells.map((c) => c.request))]) {
    const c = cellOf(cells, request, HEADLINE_CONNECTIONS)
    if (!c) continue
    const ratio = c.serverCpuUs !== null && bare?.serverCpuUs ? (c.serverCpuUs / bare.serverCpuUs).toFixed(1) : '-'
    lines.push(`| ${request} | ${us(c.serverCpuUs)} | ${us(c.clientCpuUs)} | ${ratio} |`)
  }
  return lines.join('\n')
}

/** The cells side by side: one line per request kind, one column group per connection count. */
export function cellTable(cells: readonly HttpCell[]): string {
  const lines = [
    `| request | ${CONNECTIONS.map((c) => `${c} conns req/s | p50 | p99 | vs koa`).join(' | ')} | failed |`,
    `|---|${CONNECTIONS.map(() => '---:|---:|---:|---:').join('|')}|---:|`,
  ]
  for (const request of [...new Set(cells.map((c) => c.request))]) {
    const parts = CONNECTIONS.map((n) => {
      const c = cellOf(cells, request, n)
      const bare = cellOf(cells, 'bare koa hello', n)
      return c ? `${c.rps.toFixed(0)} | ${c.p50} | ${c.p99} | ${bare ? (c.rps / bare.rps).toFixed(2) : '-'}` : '- | - | - | -'
    })
    const failed = cells.filter((c) => c.request === request).reduce((s, c) => s + c.failed, 0)
    lines.push(`| ${request} | ${parts.join(' | ')} | ${failed} |`)
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? process.argv[i + 1] : undefined
  }
  const seconds = Number(arg('seconds') ?? '5')
  const rows = Number(arg('rows') ?? '100000')
  if (!(seconds > 0 && seconds <= 600)) throw new Error('--seconds takes a number of seconds between 1 and 600')
  if (!(Number.isInteger(rows) && rows >= 100)) throw new Error('--rows takes a whole number of at least 100')
  const out = (s = ''): void => void process.stdout.write(`${s}\n`)
  out('# tabula bench:http')
  out(`date: ${new Date().toISOString()}`)
  out(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  )
  out(
    `setup: one gateway process (embedded store, ${rows.toLocaleString('en-US')}-row demo table) and a bare Koa process; autocannon in this process, ${seconds} s per cell after ${WARMUP_SECONDS} s of warm-up, one session`,
  )
  const cells = await measureHttpCells({ seconds, rows, profileDir: arg('profile'), log: out })
  out()
  out(cellTable(cells))
  out()
  out(cpuTable(cells))
  out()
  const headline = headlineRows(cells)
  out(summaryText(headline))
  reportSummary(headline)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
