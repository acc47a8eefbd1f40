/**
 * A throwaway Redis Sentinel deployment for tests, all real processes on free loopback ports: one
 * master, `replicas` replicas (`--replicaof`) and three Sentinels (quorum 2) watching it, with short
 * timeouts so a failover takes a few seconds. Everything lives in one temp folder (a Sentinel
 * rewrites its configuration file, so it must be writable) that stop() removes.
 *
 * Sentinels run as `redis-sentinel` when that binary exists (Debian's redis-sentinel package, which
 * CI installs), else as `redis-server <conf> --sentinel`: the same program in Sentinel mode.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { findOnPath, spawnKeepingOutput, terminate } from './child-process.js'
import { findRedisServer, freePort } from './redis-server.js'

export const MASTER_NAME = 'tabula'
/** A master unanswered this long is subjectively down; with quorum 2 a failover starts soon after. */
const DOWN_AFTER_MS = 1000
/** Bounds each failover step; also how long before a failed failover is tried again (twice this). */
const FAILOVER_TIMEOUT_MS = 4000
const STARTUP_TIMEOUT_MS = 15_000
const STOP_TIMEOUT_MS = 5000

export interface RedisProcess {
  readonly port: number
  readonly role: 'redis' | 'sentinel'
  /** SIGKILL: the process dies as in a crash or power loss. */
  crash(): Promise<void>
  /** SIGSTOP / SIGCONT: the process stops answering (and reading its sockets) until resumed. */
  freeze(): void
  thaw(): void
  /** SIGTERM (SIGKILL after a grace period) and wait for the exit. Safe to call twice. */
  stop(): Promise<void>
  readonly alive: () => boolean
  readonly output: () => string
}

export interface SentinelSetup {
  /** The data servers, master first as started (the master changes with failovers: see master()). */
  readonly servers: readonly RedisProcess[]
  readonly sentinels: readonly RedisProcess[]
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME for a gateway. */
  readonly env: { readonly REDIS_SENTINELS: string; readonly REDIS_SENTINEL_NAME: string }
  /** The master's port as a live Sentinel names it now. */
  masterPort(): Promise<number>
  /** Waits until every live Sentinel names a master other than `oldPort`, and that server says it is master. */
  waitForNewMaster(oldPort: number, limitMs: number): Promise<number>
  /** Waits until the master at `port` has `count` replicas attached and in sync. */
  waitForReplicas(port: number, count: number, limitMs: number): Promise<void>
  stop(): Promise<void>
}

export function findSentinelBinary(): { readonly binary: string; readonly args: readonly string[] } | null {
  const sentinel = findOnPath('redis-sentinel', '/usr/bin/redis-sentinel')
  if (sentinel) return { binary: sentinel, args: [] }
  const server = findRedisServer()
  return server ? { binary: server, args: ['--sentinel'] } : null
}

export async function startSentinelSetup(opts: { replicas?: number } = {}): Promise<SentinelSetup> {
  const redisServer = findRedisServer()
  const sentinel = findSentinelBinary()
  if (!redisServer || !sentinel) throw new Error('redis-server is not installed (needed for the Sentinel tests).')
  const dir = await mkdtemp(join(tmpdir(), 'tabula-sentinel-'))
  const all: RedisProcess[] = []
  const stop = async (): Promise<void> => {
    await Promise.all(all.map((p) => p.stop()))
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const serverArgs = (port: number): string[] => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]
    const masterPort = await freePort()
    all.push(await spawnRedis(redisServer, serverArgs(masterPort), masterPort, 'redis'))
    for (let i = 0; i < (opts.replicas ?? 1); i++) {
      const port = await freePort()
      all.push(await spawnRedis(redisServer, [...serverArgs(port), '--replicaof', '127.0.0.1', String(masterPort)], port, 'redis'))
    }
    const servers = [...all]
    const sentinels: RedisProcess[] = []
    for (let i = 0; i < 3; i++) {
      const port = await freePort()
      const conf = join(dir, `sentinel-${port}.conf`)
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${MASTER_NAME} ${DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${MASTER_NAME} 1`,
          '',
        ].join('\n'),
      )
      const started = await spawnRedis(sentinel.binary, [conf, ...sentinel.args], port, 'sentinel')
      sentinels.push(started)
      all.push(started)
    }
    const setup: SentinelSetup = {
      servers,
      sentinels,
      env: { REDIS_SENTINELS: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','), REDIS_SENTINEL_NAME: MASTER_NAME },
      masterPort: () => askSentinels(sentinels, (s) => masterOf(s)),
      async waitForNewMaster(oldPort, limitMs) {
        let port = oldPort
        await until(`a new master in place of ${oldPort}`, limitMs, async () => {
          const named = await Promise.all(sentinels.filter((s) => s.alive()).map((s) => withClient(s.port, masterOf)))
          port = named[0]
          return named.every((p) => p === port) && port !== oldPort && (await withClient(port, role)) === 'master'
        })
        return port
      },
      async waitForReplicas(port, count, limitMs) {
        await until(`${count} replica(s) in sync with ${port}`, limitMs, async () => (await withClient(port, onlineReplicas)) >= count)
      },
      stop,
    }
    // A failover needs Sentinels that know each other and the replicas (learned through the
    // master's hello channel, every 2 s), so wait for that before handing the setup out.
    await until('Sentinels that know each other and every replica', STARTUP_TIMEOUT_MS, async () => {
      const views = await Promise.all(sentinels.map((s) => withClient(s.port, (c) => c.call('SENTINEL', 'MASTER', MASTER_NAME) as Promise<string[]>)))
      return views.every((v) => field(v, 'num-other-sentinels') === '2' && field(v, 'num-slaves') === String(servers.length - 1))
    })
    await setup.waitForReplicas(masterPort, servers.length - 1, STARTUP_TIMEOUT_MS)
    return setup
  } catch (err) {
    await stop()
    throw err
  }
}

/** Starts one redis-server or Sentinel and resolves once it answers PING. */
async function spawnRedis(binary: string, args: readonly string[], port: number, role: 'redis' | 'sentinel'): Promise<RedisProcess> {
  const kept = spawnKeepingOutput(binary, args, 8000)
  const { child, exited, alive } = kept
  const proc: RedisProcess = {
    port,
    role,
    alive,
    output: kept.output,
    crash: async () => {
      if (alive()) child.kill('SIGKILL')
      await exited
    },
    freeze: () => void (alive() && child.kill('SIGSTOP')),
    thaw: () => void (alive() && child.kill('SIGCONT')),
    stop: async () => {
      if (alive()) child.kill('SIGCONT') // a frozen process cannot act on SIGTERM
      await terminate(kept, STOP_TIMEOUT_MS)
    },
  }
  try {
    await until(`${role} on port ${port} to answer PING`, STARTUP_TIMEOUT_MS, async () => {
      if (!alive()) throw new Fatal(`${role} exited during startup on port ${port}:\n${kept.output()}`)
      return (await withClient(port, (c) => c.ping())) === 'PONG'
    })
  } catch (err) {
    await proc.stop()
    throw err
  }
  return proc
}

/** One short-lived connection (no reconnects, no queue) for one question. */
async function withClient<T>(port: number, ask: (c: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 1000,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return await ask(client)
  } finally {
    client.disconnect()
  }
}

async function masterOf(sentinel: Redis): Promise<number> {
  const reply = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as [string, string] | null
  if (!reply) throw new Error(`the Sentinel does not know ${MASTER_NAME}`)
  return Number(reply[1])
}

async function role(server: Redis): Promise<string> {
  return String(((await server.call('ROLE')) as unknown[])[0])
}

/** Replicas the master lists as online (INFO replication: slaveN:ip=…,state=online,…). */
async function onlineReplicas(server: Redis): Promise<number> {
  const info = await server.info('replication')
  if (!/^role:master/m.test(info)) return 0
  return (info.match(/^slave\d+:.*state=online/gm) ?? []).length
}

/** The first live Sentinel's answer. */
async function askSentinels<T>(sentinels: readonly RedisProcess[], ask: (c: Redis) => Promise<T>): Promise<T> {
  let last: unknown = new Error('no Sentinel is running')
  for (const s of sentinels.filter((p) => p.alive())) {
    try {
      return await withClient(s.port, ask)
    } catch (err) {
      last = err
    }
  }
  throw last
}

/** A field of a flat [name, value, name, value…] reply. */
function field(reply: readonly string[], name: string): string | undefined {
  const i = reply.indexOf(name)
  return i >= 0 && i % 2 === 0 ? reply[i + 1] : undefined
}

/** An error that ends a wait at once instead of being retried. */
class Fatal extends Error {}

async function until(what: string, limitMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + limitMs
  let last: unknown = null
  while (Date.now() < deadline) {
    try {
      if (await ready()) return
    } catch (err) {
      if (err instanceof Fatal) throw err
      last = err
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`waited ${limitMs} ms for ${what}${last instanceof Error ? ` (last error: ${last.message})` : ''}`)
}
