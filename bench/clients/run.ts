/**
 * A many-clients load run against the production topology on one machine: a private
 * redis-server, N gateway processes on it and the balancer in front (nginx with the deployed
 * configuration when installed, the test suite's Node proxy otherwise). It creates one session
 * per user, holds many keep-alive connections at once, and sends an open-loop mix of requests
 * spread over every session, then checks that every session is still valid.
 *
 *   1. warm-up   each gateway runs the distinct small queries once (its result memo fills)
 *   2. logins    one `!login` per user through the balancer
 *   3. prime     one api/sql per session, each connection sending its sessions' in turn, the
 *                connections opening over a ramp (200 a second)
 *   4. steady    the mix (schedule.ts) at `rate` requests/s over every connection for `seconds`
 *   5. check     `!status` of every session: all must answer 200
 *
 * Memory per session is what Redis (used_memory) and the gateways (RSS) hold after the logins and
 * the prime, over what they held after the warm-up, divided by the sessions. CPU per request is
 * read from /proc for the gateways and from INFO for Redis over the steady phase.
 */
import { startCluster, CLUSTER_ADMIN_PASSWORD } from '../../test/helpers/cluster.js'
import { findNginx, startNginx } from '../../test/helpers/nginx.js'
import { startRedisServer } from '../../test/helpers/redis-server.js'
import { Connection, type Outcome } from './connection.js'
import { phaseFigures, type PhaseFigures } from './phase.js'
import { machineTicks, processCpuUs, processRssBytes, RedisProbe, redisDelta, sumOver, type RedisSample } from './probes.js'
import { openLoop } from './open-loop.js'
import { checkRequest, DISTINCT_QUERIES, mixedRequest, primeRequest, smallSql } from './schedule.js'
import { logIn, seedUsers } from './users.js'
import { referenceRun } from './reference.js'

export interface ClientsLoadOptions {
  readonly connections: number
  readonly sessions: number
  /** Length of the steady phase. */
  readonly seconds: number
  /** Requests per second of the steady phase, over all connections. */
  readonly rate: number
  readonly seed: number
  readonly gateways?: number
  readonly demoRows?: number
  /** Also run the same schedule against a bare Koa process (the reference). */
  readonly reference?: boolean
  readonly log?: (line: string) => void
}

export interface MemoryFigures {
  /** Redis used_memory at each step: `users` is after the user records were written, before any login. */
  readonly redisBytes: { readonly warm: number; readonly users: number; readonly sessions: number; readonly primed: number; readonly end: number }
  readonly redisKeys: { readonly warm: number; readonly primed: number }
  /** Sum over the gateways; null off Linux. */
  readonly gatewayRssBytes: { readonly warm: number | null; readonly sessions: number | null; readonly primed: number | null; readonly end: number | null }
  /** (users - warm) / sessions: a user's catalog record, which a session needs but is not. */
  readonly redisPerUser: number
  /** (primed - users) / sessions: the session, its kept result, the login's traces. */
  readonly redisPerSession: number
  readonly gatewayRssPerSession: number | null
}

export interface CpuFigures {
  /** All gateway processes (event loop and workers), per steady-phase request; null off Linux. */
  readonly gatewayUsPerRequest: number | null
  /** The same less what the gateways spend idle over as long (see the idle step). */
  readonly gatewayNetUsPerRequest: number | null
  readonly gatewayIdleUsPerSecond: number | null
  readonly redisUsPerRequest: number
  readonly redisNetUsPerRequest: number
  readonly redisIdleCommandsPerSecond: number
  readonly loadGeneratorUsPerRequest: number
  readonly redisCommandsPerRequest: number
  /** The most frequent commands, per request: `mget 2.00, expire 1.50, …`. */
  readonly redisTopCommands: string
  readonly redisBytesInPerRequest: number
  readonly redisBytesOutPerRequest: number
  /** Share of the machine's CPU time busy over the steady phase, 0..1; null off Linux. */
  readonly machineBusy: number | null
}

export interface ClientsLoadReport {
  readonly balancer: string
  /** The first messages of nginx's error log when a request failed; '' otherwise. */
  readonly balancerErrors: string
  readonly gateways: number
  readonly connections: number
  readonly sessions: number
  readonly phases: readonly PhaseFigures[]
  readonly reference: PhaseFigures | null
  readonly errors: number
  /** Connections with their socket open at the end of the steady phase. */
  readonly connectionsHeld: number
  /** Sockets opened beyond one per connection (a server closed a kept-alive one). */
  readonly reconnects: number
  readonly sessionsValid: number
  readonly loginsPerSecond: number
  readonly memory: MemoryFigures
  readonly cpu: CpuFigures
}

const API = '/v1/api'
const IDLE_SECONDS = 3
/** How fast the prime opens connections (see there). */
const RAMP_CONNECTIONS_PER_SECOND = 200

/** Runs `body` once per connection, all at once, and gathers what they return. */
async function onEvery<T>(conns: readonly Connection[], body: (conn: Connection, c: number) => Promise<T[]>): Promise<T[]> {
  return (await Promise.all(conns.map((conn, c) => body(conn, c)))).flat()
}

/** The sessions connection `c` holds: every `connections`-th one from `c`. */
function owned(c: number, connections: number, sessions: number): number[] {
  const out: number[] = []
  for (let s = c; s < sessions; s += connections) out.push(s)
  return out
}

const timed = async <T>(f: () => Promise<T>): Promise<{ value: T; seconds: number }> => {
  const t0 = performance.now()
  const value = await f()
  return { value, seconds: (performance.now() - t0) / 1000 }
}

export async function runClientsLoad(opts: ClientsLoadOptions): Promise<ClientsLoadReport> {
  const log = opts.log ?? (() => undefined)
  const gatewayCount = opts.gateways ?? 3
  if (opts.sessions < opts.connections) throw new Error('every connection needs a session: --sessions must be at least --connections')
  const redis = await startRedisServer()
  const probe = new RedisProbe(redis.url)
  const conns: Connection[] = []
  let cluster: Awaited<ReturnType<typeof startCluster>> | null = null
  let nginx: Awaited<ReturnType<typeof startNginx>> | null = null
  try {
    cluster = await startCluster({
      redisUrl: redis.url,
      gateways: gatewayCount,
      demoRows: opts.demoRows ?? 20_000,
      // One worker each: the queries are memo hits, and 3 gateways x 2 workers on 2 cores only adds idle threads.
      // warn: an info line per request would make the gateways' pipes (read by this process) part of the load.
      env: { WORKERS: '1', LOG_LEVEL: 'warn', QUERY_TIMEOUT_MS: '60000' },
    })
    const pids = cluster.gateways.map((g) => g.child.pid)
    let origin = cluster.origin
    let balancer = 'Node round-robin proxy (test/helpers/rotating-proxy.ts; nginx not installed)'
    if (findNginx()) {
      // Each client connection may need one upstream connection too, plus headroom.
      nginx = await startNginx(
        cluster.gateways.map((g) => Number(new URL(g.base).port)),
        { workerConnections: Math.max(1024, opts.connections * 2 + 512) },
      )
      origin = nginx.origin
      balancer = 'nginx, deploy/nginx/tabula.conf'
    }
    const url = new URL(origin)
    log(`balancer: ${balancer}; ${gatewayCount} gateways, WORKERS=1 each`)

    // 1. warm-up: every distinct query once on each gateway, straight to it.
    for (const g of cluster.gateways) {
      const conn = new Connection('127.0.0.1', Number(new URL(g.base).port))
      const apiPath = new URL(g.base).pathname
      const creds = await conn.sendCapturing({
        kind: 'login',
        method: 'POST',
        path: `${apiPath}/!login:json`,
        cookie: '',
        body: JSON.stringify({ uid: 'admin', pw: CLUSTER_ADMIN_PASSWORD }),
      })
      if (creds.error) throw new Error(`admin login failed: ${creds.error}`)
      const c = JSON.parse(creds.text) as { uid: string; sid: string; epw: string }
      const cookie = `session=${c.uid}|${c.sid}|${c.epw}`
      for (let k = 0; k < DISTINCT_QUERIES; k++) {
        const out = await conn.send(primeRequest(apiPath, cookie, k))
        if (out.error) throw new Error(`warm-up query ${smallSql(k)} failed: ${out.error}`)
      }
      conn.close()
    }
    await new Promise((r) => setTimeout(r, 1000))
    const rss = (): number | null => sumOver(pids, processRssBytes)
    const warm = { redis: await probe.sample(), rss: rss() }
    log(`warm: Redis ${mb(warm.redis.usedMemory)}, gateways' RSS ${mb(warm.rss)}`)

    // 2. logins
    await seedUsers(cluster.store, opts.sessions)
    const users = { redis: await probe.sample() }
    const logins = await timed(() => logIn(origin, API, opts.sessions, 32))
    const cookies = logins.value
    const afterLogins = { redis: await probe.sample(), rss: rss() }
    log(`logins: ${opts.sessions} in ${logins.seconds.toFixed(1)} s; Redis ${mb(afterLogins.redis.usedMemory)}, gateways' RSS ${mb(afterLogins.rss)}`)

    // 3. prime: every connection opens, every session gets a kept result.
    for (let c = 0; c < opts.connections; c++) conns.push(new Connection(url.hostname, Number(url.port)))
    // The connections open over a ramp, as clients arrive, not in one instant: a herd of them
    // connecting at once measures the balancer's and the gateways' accept queues, not the service.
    const rampMs = (opts.connections / RAMP_CONNECTIONS_PER_SECOND) * 1000
    const prime = await timed(() =>
      onEvery(conns, async (conn, c) => {
        await new Promise((r) => setTimeout(r, (c / opts.connections) * rampMs))
        const out: Outcome[] = []
        for (const s of owned(c, opts.connections, opts.sessions)) out.push(await conn.send(primeRequest(API, cookies[s], s)))
        return out
      }),
    )
    const phases: PhaseFigures[] = [
      phaseFigures(`prime: 1 api/sql per session, connections opening over ${(rampMs / 1000).toFixed(0)} s`, prime.value, prime.seconds),
    ]
    const primed = { redis: await probe.sample(), rss: rss() }
    log(`prime: ${prime.value.length} requests in ${prime.seconds.toFixed(1)} s; Redis ${mb(primed.redis.usedMemory)}, gateways' RSS ${mb(primed.rss)}`)

    // Idle: what the gateways and Redis spend with every session held and no request (timers,
    // heartbeats, the stop registry's sampling), so the steady phase's cost per request can be
    // given net of it.
    const idle0 = { gateways: sumOver(pids, processCpuUs), redis: await probe.sample() }
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))
    const idle1 = { gateways: sumOver(pids, processCpuUs), redis: await probe.sample() }
    const idleRedis = redisDelta(idle0.redis, idle1.redis)
    const idle = {
      gatewayUsPerSecond: idle0.gateways === null || idle1.gateways === null ? null : (idle1.gateways - idle0.gateways) / IDLE_SECONDS,
      redisUsPerSecond: idleRedis.cpuUs / IDLE_SECONDS,
      // Less the INFO of the second sample, which the probe itself sent.
      redisCommandsPerSecond: (idleRedis.commands - 1) / IDLE_SECONDS,
    }
    log(
      `idle: gateways ${idle.gatewayUsPerSecond === null ? '-' : (idle.gatewayUsPerSecond / 1e4).toFixed(1)} % of a core, Redis ${(idle.redisUsPerSecond / 1e4).toFixed(1)} %, ${idle.redisCommandsPerSecond.toFixed(0)} commands/s`,
    )

    // 4. steady: the open-loop mix.
    const cpu0 = { gateways: sumOver(pids, processCpuUs), redis: await probe.sample(), self: process.cpuUsage(), machine: machineTicks() }
    const steady = await timed(() =>
      openLoop(conns, opts, (c, i, random) => {
        const mine = owned(c, opts.connections, opts.sessions)
        return mixedRequest(API, cookies[mine[i % mine.length]], random)
      }),
    )
    const redisAfter = await probe.sample()
    const cpu1 = { gateways: sumOver(pids, processCpuUs), self: process.cpuUsage(cpu0.self), machine: machineTicks() }
    const held = conns.filter((c) => c.openSockets() > 0).length
    phases.push(phaseFigures(`steady: mix at ${opts.rate}/s over ${opts.connections} connections`, steady.value, opts.seconds))
    log(`steady: ${steady.value.length} requests, ${held} of ${opts.connections} connections held`)

    // 5. check: every session still valid.
    const check = await timed(() =>
      onEvery(conns, async (conn, c) => {
        const out: Outcome[] = []
        for (const s of owned(c, opts.connections, opts.sessions)) out.push(await conn.send(checkRequest(API, cookies[s])))
        return out
      }),
    )
    phases.push(phaseFigures('check: !status of every session', check.value, check.seconds))
    const end = { redis: await probe.sample(), rss: rss() }
    const reconnects = conns.reduce((s, c) => s + c.opened, 0) - conns.length
    for (const c of conns) c.close()

    const n = Math.max(1, steady.value.length)
    const d: RedisSample = redisDelta(cpu0.redis, redisAfter)
    const cpu: CpuFigures = {
      gatewayUsPerRequest: cpu0.gateways === null || cpu1.gateways === null ? null : (cpu1.gateways - cpu0.gateways) / n,
      gatewayNetUsPerRequest:
        cpu0.gateways === null || cpu1.gateways === null || idle.gatewayUsPerSecond === null
          ? null
          : (cpu1.gateways - cpu0.gateways - idle.gatewayUsPerSecond * steady.seconds) / n,
      gatewayIdleUsPerSecond: idle.gatewayUsPerSecond,
      redisUsPerRequest: d.cpuUs / n,
      redisNetUsPerRequest: (d.cpuUs - idle.redisUsPerSecond * steady.seconds) / n,
      redisIdleCommandsPerSecond: idle.redisCommandsPerSecond,
      loadGeneratorUsPerRequest: (cpu1.self.user + cpu1.self.system) / n,
      redisCommandsPerRequest: d.commands / n,
      redisTopCommands: Object.entries(d.calls)
        .filter(([name]) => name !== 'info')
        .sort((x, y) => y[1] - x[1])
        .slice(0, 8)
        .map(([name, k]) => `${name} ${(k / n).toFixed(2)}`)
        .join(', '),
      redisBytesInPerRequest: d.netInputBytes / n,
      redisBytesOutPerRequest: d.netOutputBytes / n,
      machineBusy: cpu0.machine && cpu1.machine ? (cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total) : null,
    }
    const perSession = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : (b - a) / opts.sessions)
    const memory: MemoryFigures = {
      redisBytes: {
        warm: warm.redis.usedMemory,
        users: users.redis.usedMemory,
        sessions: afterLogins.redis.usedMemory,
        primed: primed.redis.usedMemory,
        end: end.redis.usedMemory,
      },
      redisKeys: { warm: warm.redis.keys, primed: primed.redis.keys },
      gatewayRssBytes: { warm: warm.rss, sessions: afterLogins.rss, primed: primed.rss, end: end.rss },
      redisPerUser: perSession(warm.redis.usedMemory, users.redis.usedMemory)!,
      redisPerSession: perSession(users.redis.usedMemory, primed.redis.usedMemory)!,
      gatewayRssPerSession: perSession(warm.rss, primed.rss),
    }
    const sessionsValid = check.value.filter((o) => o.error === '').length
    const balancerErrors = phases.some((p) => p.errors > 0) && nginx ? (await nginx.errorLogFirst(6)).join('\n') : ''
    await nginx?.close()
    nginx = null
    await cluster.close()
    cluster = null
    const reference = opts.reference ? await referenceRun(opts) : null
    return {
      balancer,
      balancerErrors,
      gateways: gatewayCount,
      connections: opts.connections,
      sessions: opts.sessions,
      phases,
      reference,
      errors: phases.reduce((s, p) => s + p.errors, 0),
      connectionsHeld: held,
      reconnects,
      sessionsValid,
      loginsPerSecond: opts.sessions / logins.seconds,
      memory,
      cpu,
    }
  } finally {
    for (const c of conns) c.close()
    await nginx?.close()
    await cluster?.close()
    await probe.close()
    await redis.stop()
  }
}

export const mb = (bytes: number | null): string => (bytes === null ? '-' : `${(bytes / 1048576).toFixed(1)} MB`)
