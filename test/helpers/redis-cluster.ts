/**
 * A throwaway Redis Cluster of three masters for tests: three redis-servers with cluster mode on
 * free loopback ports (each with its own temp folder and cluster bus port), joined with
 * `redis-cli --cluster create … --cluster-replicas 0`, ready once every node says
 * `cluster_state:ok`. stop() ends the servers and removes their folders.
 *
 * moveSlot() moves one hash slot between masters the way `redis-cli --cluster reshard` does
 * (SETSLOT IMPORTING/MIGRATING, MIGRATE of its keys, SETSLOT NODE everywhere), with an optional
 * pause between keys so a test can run traffic while the slot is half moved.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { findRedisServer, freePort, startRedisServer, type RedisServer } from './redis-server.js'

const run = promisify(execFile)

/** How long the three nodes may take to agree that the cluster is up. */
const READY_TIMEOUT_MS = 20_000

export interface ClusterNode {
  readonly host: string
  readonly port: number
}

export interface RedisClusterProcesses {
  readonly nodes: readonly ClusterNode[]
  /** `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`, as REDIS_CLUSTER_NODES takes it. */
  readonly spec: string
  /** The port of the master that serves a slot now. */
  ownerOf(slot: number): Promise<number>
  /** Moves a slot to the master on `toPort`; `pauseMs` waits between keys (a slow migration). */
  moveSlot(slot: number, toPort: number, opts?: { pauseMs?: number }): Promise<{ keysMoved: number }>
  stop(): Promise<void>
}

/** Parses TEST_REDIS_CLUSTER_NODES; null when no cluster was provided for this run. */
export function testClusterNodes(): string | null {
  return process.env.TEST_REDIS_CLUSTER_NODES || null
}

export async function startRedisCluster(): Promise<RedisClusterProcesses> {
  const servers: RedisServer[] = []
  const admins = new Map<number, Redis>()
  const stop = async (): Promise<void> => {
    for (const admin of admins.values()) admin.disconnect()
    admins.clear()
    await Promise.all(servers.splice(0).map((s) => s.stop()))
  }
  try {
    for (let i = 0; i < 3; i++) servers.push(await startClusterNode())
    const nodes = servers.map((s) => ({ host: '127.0.0.1', port: s.port }))
    await run(redisCli(), ['--cluster', 'create', ...nodes.map((n) => `${n.host}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      timeout: READY_TIMEOUT_MS,
    })
    for (const n of nodes) admins.set(n.port, new Redis({ host: n.host, port: n.port, lazyConnect: false, maxRetriesPerRequest: 1 }))
    await waitUntilOk([...admins.values()])
    const admin = (port: number): Redis => {
      const a = admins.get(port)
      if (!a) throw new Error(`no cluster node on port ${port}`)
      return a
    }
    const ownerOf = async (slot: number): Promise<number> => {
      const ranges = (await admin(nodes[0].port).call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][]
      const range = ranges.find(([from, to]) => slot >= from && slot <= to)
      if (!range) throw new Error(`slot ${slot} is served by no node`)
      return range[2][1]
    }
    return {
      nodes,
      spec: nodes.map((n) => `${n.host}:${n.port}`).join(','),
      ownerOf,
      async moveSlot(slot, toPort, opts = {}) {
        const fromPort = await ownerOf(slot)
        if (fromPort === toPort) return { keysMoved: 0 }
        const [source, target] = [admin(fromPort), admin(toPort)]
        const [sourceId, targetId] = [String(await source.call('CLUSTER', 'MYID')), String(await target.call('CLUSTER', 'MYID'))]
        await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', sourceId)
        await source.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', targetId)
        let keysMoved = 0
        for (;;) {
          // One key at a time when pausing (the slot stays half moved for a while), else in pages.
          const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, opts.pauseMs ? 1 : 200)) as string[]
          if (keys.length === 0) break
          await source.call('MIGRATE', '127.0.0.1', toPort, '', 0, 5000, 'REPLACE', 'KEYS', ...keys)
          keysMoved += keys.length
          if (opts.pauseMs) await new Promise((resolve) => setTimeout(resolve, opts.pauseMs))
        }
        // The new owner first, then the old one, then the rest (what redis-cli does).
        await target.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)
        await source.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)
        for (const [port, other] of admins) if (port !== fromPort && port !== toPort) await other.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)
        return { keysMoved }
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/** One cluster-enabled server; the cluster bus gets its own free port (the default, port + 10000, may be taken or too high). */
async function startClusterNode(): Promise<RedisServer> {
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const [port, busPort] = [await freePort(), await freePort()]
      return await startRedisServer({
        port,
        args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000', '--cluster-port', String(busPort)],
      })
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

/** redis-cli beside redis-server (both come with the redis-server / redis-tools packages). */
function redisCli(): string {
  const server = findRedisServer()
  if (!server) throw new Error('redis-server is not installed')
  return join(dirname(server), 'redis-cli')
}

async function waitUntilOk(admins: readonly Redis[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    const infos = await Promise.all(admins.map((a) => a.call('CLUSTER', 'INFO').then(String)))
    if (infos.every((info) => info.includes('cluster_state:ok'))) return
    if (Date.now() > deadline) throw new Error(`the test Redis Cluster did not reach cluster_state:ok within ${READY_TIMEOUT_MS} ms:\n${infos.join('\n')}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
