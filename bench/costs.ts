/**
 * `npm run bench:costs`: what one request of each kind costs the gateway and the Store, for the
 * capacity model (docs/capacity.md). One gateway process (WORKERS=1) on a private redis-server,
 * no balancer; each kind runs alone, a fixed number of times over a few keep-alive connections,
 * and is measured from outside:
 *
 *   gateway CPU  /proc of the gateway process (event loop and worker threads), per request
 *   round trips  Redis INFO total_reads_processed (one per batch a client sends, so pipelines
 *                and MULTI count once), per request
 *   commands     INFO total_commands_processed and commandstats, per request
 *   bytes        INFO total_net_input_bytes / total_net_output_bytes, per request
 *   Redis CPU    INFO used_cpu_user + used_cpu_sys, per request
 *
 * What the probe's own INFO and the idle gateway (timers, heartbeats) add over as long is
 * subtracted. Logins and add_user use the service's own scrypt cost.
 *
 *   node dist/bench/costs.js [--count 400] [--connections 8] [--rows 100000]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { start, stop } from '../test/helpers/processes.js'
import { startRedisServer } from '../test/helpers/redis-server.js'
import { Connection, type Outcome, type Request } from './clients/connection.js'
import { machineLine, processCpuUs, quantile, RedisProbe, redisDelta, type RedisSample } from './clients/probes.js'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback
  if (!(Number.isInteger(v) && v > 0)) throw new Error(`--${name} takes a positive whole number (got "${process.argv[i + 1]}")`)
  return v
}
const COUNT = arg('count', 400)
const CONNECTIONS = arg('connections', 8)
const ROWS = arg('rows', 100_000)
/** Logins and add_user cost about 50 ms of CPU each (scrypt): fewer of them. */
const SLOW_COUNT = Math.max(CONNECTIONS, Math.round(COUNT / 8))
const ADMIN_PASSWORD = 'bench-costs-secret-1'
const USER_PASSWORD = 'cost-user-secret-1'
const IDLE_SECONDS = 3

export interface KindCost {
  readonly kind: string
  readonly requests: number
  readonly p50Ms: number
  readonly gatewayCpuUs: number | null
  readonly roundTrips: number
  readonly commands: number
  readonly bytesIn: number
  readonly bytesOut: number
  readonly redisCpuUs: number
  /** The commands of one request, most frequent first: `get 2.0, set 1.0`. */
  readonly topCommands: string
}

const out = (s = ''): void => void process.stdout.write(`${s}\n`)

async function main(): Promise<void> {
  out('# tabula bench:costs')
  out(`date: ${new Date().toISOString()}`)
  out(
    `machine: ${availableParallelism()} cores (${machineLine()}), node ${process.version}; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  )
  out(
    `setup: one gateway (WORKERS=1, Redis store, ${ROWS.toLocaleString('en-US')}-row demo table), a private redis-server; ${COUNT} requests per kind (${SLOW_COUNT} for logins and add_user) over ${CONNECTIONS} keep-alive connections`,
  )
  const redis = await startRedisServer()
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-costs-'))
  const probe = new RedisProbe(redis.url)
  const gateway = await start({
    REDIS_URL: redis.url,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    WORKERS: '1',
    DEMO_ROWS: String(ROWS),
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    QUERY_TIMEOUT_MS: '120000',
  })
  const pid = gateway.child.pid
  const base = new URL(gateway.base)
  const api = base.pathname
  const conns = Array.from({ length: CONNECTIONS }, () => new Connection('127.0.0.1', Number(base.port)))
  try {
    // What two back-to-back samples see: the probe's own INFO, subtracted from every figure.
    const p0 = await probe.sample()
    const probeCost = redisDelta(p0, await probe.sample())
    const i0 = { redis: await probe.sample(), cpu: processCpuUs(pid) }
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))
    const i1 = { redis: await probe.sample(), cpu: processCpuUs(pid) }
    const idle = {
      redis: minus(redisDelta(i0.redis, i1.redis), probeCost),
      cpuUsPerMs: i0.cpu === null || i1.cpu === null ? 0 : (i1.cpu - i0.cpu) / (IDLE_SECONDS * 1000),
    }
    out(`idle gateway: ${(idle.cpuUsPerMs / 10).toFixed(1)} % of a core; Redis ${(idle.redis.commands / IDLE_SECONDS).toFixed(1)} commands/s`)

    type Make = (i: number, c: number, k: number) => Request
    type Seen = (o: Outcome & { text: string }, i: number, c: number, r: Request) => void
    /** Sends make(i, c, k) for i < count over the connections (c: the connection, k: its own count). */
    const run = async (kind: string, count: number, make: Make, seen?: Seen): Promise<Outcome[]> => {
      let next = 0
      const outcomes: Outcome[] = []
      await Promise.all(
        conns.map(async (conn, c) => {
          for (let i = next++, k = 0; i < count; i = next++, k++) {
            const r = make(i, c, k)
            const o = await conn.sendCapturing(r)
            if (o.error) throw new Error(`${kind} #${i} failed: ${o.error}`)
            outcomes.push(o)
            seen?.(o, i, c, r)
          }
        }),
      )
      return outcomes
    }
    /**
     * Measures `count` requests of a kind. `warm` requests first, unmeasured (indices from
     * `count` on): a kind's first requests compile its code path, which a long-running gateway
     * has long done.
     */
    const measure = async (kind: string, count: number, make: Make, seen?: Seen, warm = Math.round(count / 4)): Promise<KindCost> => {
      if (warm > 0) await run(kind, warm, (i, c, k) => make(count + i, c, k), seen)
      const a = { redis: await probe.sample(), cpu: processCpuUs(pid), t: performance.now() }
      const outcomes = await run(kind, count, make, seen)
      const ms = performance.now() - a.t
      const b = { redis: await probe.sample(), cpu: processCpuUs(pid) }
      const d = minus(minus(redisDelta(a.redis, b.redis), probeCost), scale(idle.redis, ms / (IDLE_SECONDS * 1000)))
      const top = Object.entries(d.calls)
        .filter(([name]) => name !== 'info')
        .sort((x, y) => y[1] - x[1])
        .slice(0, 6)
        .map(([name, n]) => `${name} ${(n / count).toFixed(2)}`)
        .join(', ')
      const cost: KindCost = {
        kind,
        requests: count,
        p50Ms: quantile(
          outcomes.map((o) => o.ms).sort((x, y) => x - y),
          0.5,
        ),
        gatewayCpuUs: a.cpu === null || b.cpu === null ? null : (b.cpu - a.cpu - idle.cpuUsPerMs * ms) / count,
        roundTrips: d.reads / count,
        commands: d.commands / count,
        bytesIn: d.netInputBytes / count,
        bytesOut: d.netOutputBytes / count,
        redisCpuUs: d.cpuUs / count,
        topCommands: top,
      }
      out(`  ${row(cost)}`)
      return cost
    }

    const json = (kind: string, path: string, cookie: string, body: unknown): Request => ({
      kind,
      method: 'POST',
      path: `${api}/${path}`,
      cookie,
      body: JSON.stringify(body),
    })
    const get = (kind: string, path: string, cookie: string): Request => ({ kind, method: 'GET', path: `${api}/${path}`, cookie })
    const credsOf = (text: string): string => {
      const c = JSON.parse(text) as { uid: string; sid: string; epw: string }
      return `session=${c.uid}|${c.sid}|${c.epw}`
    }
    const adminLogin = await conns[0].sendCapturing(json('login', '!login:json', '', { uid: 'admin', pw: ADMIN_PASSWORD }))
    const admin = credsOf(adminLogin.text)
    const dbmOk = (o: Outcome & { text: string }): void => {
      if (!o.text.includes('"rc":0') && !o.text.includes('"rc": 0')) throw new Error(`dbm failed: ${o.text.slice(0, 300)}`)
    }
    const costs: KindCost[] = []
    const uid = (i: number): string => `cost_user_${i}`
    costs.push(
      await measure(
        'dbm add_user (scrypt 2^14)',
        SLOW_COUNT,
        (i) =>
          json('dbm add_user', 'dbm:json', admin, {
            cmd: ['add_user', { uid: uid(i), first: 'Cost', last: `User ${i}`, email: `${uid(i)}@example.com`, password: USER_PASSWORD }],
          }),
        dbmOk,
        0,
      ),
    )
    const sessions: string[] = []
    costs.push(
      await measure(
        '!login (scrypt 2^14)',
        SLOW_COUNT,
        (i) => json('login', '!login:json', '', { uid: uid(i), pw: USER_PASSWORD, kill: 'no' }),
        (o, i) => (sessions[i] = credsOf(o.text)),
        0,
      ),
    )
    // From here, connection c speaks for session c.
    const small = (k: number): string => `select trans, store, sku, qty, sales from pub.demo.retail.item where trans = ${k}`
    costs.push(await measure('dbm make_dir', COUNT, (i) => json('dbm make_dir', 'dbm:json', admin, { cmd: ['make_dir', { path: `costs_dir_${i}` }] }), dbmOk))
    costs.push(
      await measure(
        'dbm get_table_info',
        COUNT,
        () => json('dbm get_table_info', 'dbm:json', admin, { cmd: ['get_table_info', { path: 'pub.demo.retail.item' }] }),
        dbmOk,
      ),
    )
    costs.push(await measure('api/sql small, memo hit', COUNT, (_, c) => json('sql', 'sql:json', sessions[c], { sql: small(42) })))
    costs.push(
      await measure(`api/sql small, new text (engine scans ${ROWS.toLocaleString('en-US')} rows)`, COUNT, (i, c) =>
        json('sql', 'sql:json', sessions[c], { sql: small(1000 + i) }),
      ),
    )
    costs.push(await measure('api/sql/!data rows 0-9', COUNT, (_, c) => get('!data', 'sql/!data:json?range=0&to=10', sessions[c])))
    costs.push(await measure('api/sql/!status', COUNT, (_, c) => get('!status', 'sql/!status:json', sessions[c])))
    costs.push(await measure('api/ls', COUNT, (_, c) => get('ls', 'ls:json', sessions[c])))
    const tags: string[][] = conns.map(() => [])
    const instances = Math.min(COUNT, CONNECTIONS * 50)
    costs.push(
      await measure(
        'api/new/sql (instance create)',
        instances,
        (_, c) => json('new', 'new/sql:json', sessions[c], {}),
        (o, _, c) => tags[c].push(String((JSON.parse(o.text) as { tag: number }).tag)),
      ),
    )
    const queried: string[][] = conns.map(() => [])
    costs.push(
      await measure(
        'instance query (memo hit)',
        instances,
        (_, c, k) => json('instance', `${tags[c][k % tags[c].length]}:json`, sessions[c], { sql: small(42) }),
        (_o, _i, c, r) => queried[c].push(/\/(\d+):json$/.exec(r.path)![1]),
      ),
    )
    costs.push(
      await measure('instance !data rows 0-9 (read)', COUNT, (_, c, k) =>
        get('instance !data', `${queried[c][k % queried[c].length]}/!data:json?range=0&to=10`, sessions[c]),
      ),
    )
    out()
    out(costTable(costs))
    out(
      `load average at end: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}`,
    )
  } finally {
    for (const c of conns) c.close()
    await stop(gateway)
    await probe.close()
    await redis.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

function minus(a: RedisSample, b: RedisSample): RedisSample {
  const calls: Record<string, number> = {}
  for (const [k, v] of Object.entries(a.calls)) calls[k] = v - (b.calls[k] ?? 0)
  return {
    usedMemory: a.usedMemory - b.usedMemory,
    keys: a.keys - b.keys,
    commands: a.commands - b.commands,
    calls,
    reads: a.reads - b.reads,
    netInputBytes: a.netInputBytes - b.netInputBytes,
    netOutputBytes: a.netOutputBytes - b.netOutputBytes,
    cpuUs: a.cpuUs - b.cpuUs,
  }
}

function scale(a: RedisSample, f: number): RedisSample {
  const calls: Record<string, number> = {}
  for (const [k, v] of Object.entries(a.calls)) calls[k] = v * f
  return {
    usedMemory: 0,
    keys: 0,
    commands: a.commands * f,
    calls,
    reads: a.reads * f,
    netInputBytes: a.netInputBytes * f,
    netOutputBytes: a.netOutputBytes * f,
    cpuUs: a.cpuUs * f,
  }
}

const f1 = (v: number | null): string => (v === null ? '-' : v < 10 ? v.toFixed(1) : v.toFixed(0))

function row(c: KindCost): string {
  return `| ${c.kind} | ${c.requests} | ${f1(c.p50Ms)} | ${f1(c.gatewayCpuUs)} | ${f1(c.roundTrips)} | ${f1(c.commands)} | ${f1(c.bytesIn)} | ${f1(c.bytesOut)} | ${f1(c.redisCpuUs)} | ${c.topCommands} |`
}

export function costTable(costs: readonly KindCost[]): string {
  return [
    '| request | n | p50 ms | gateway CPU µs | Redis round trips | Redis commands | bytes to Redis | bytes from Redis | Redis CPU µs | commands per request |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...costs.map(row),
  ].join('\n')
}

await main()
