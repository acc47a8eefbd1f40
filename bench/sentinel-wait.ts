/**
 * What acknowledging only what a replica has costs (REDIS_WAIT_REPLICAS, shared/store/redis-durability.ts),
 * on loopback, on a real Sentinel deployment (a master, one replica, three Sentinels):
 *  - a single durable store write (set of a `cat:` key), with and without WAIT;
 *  - an api/dbm make_dir (a catalog transaction: watch, checks, conditional batch) through a
 *    gateway process, one with REDIS_WAIT_REPLICAS=1 and one with 0, requests interleaved.
 * Sequential requests (latency, not throughput); prints medians and p99s.
 *
 *   npm run bench:sentinel [-- --requests 300]
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRedisStore, redisTargetFromEnv } from '../shared/store/index.js'
import { startSentinelSetup } from '../test/helpers/redis-sentinel.js'
import { start, stop } from '../test/helpers/processes.js'
import { Client } from '../test/faults/client.js'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const REQUESTS = arg('requests', 300)

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const describe = (xs: number[]): string => `median ${quantile(xs, 0.5).toFixed(2)} ms, p99 ${quantile(xs, 0.99).toFixed(2)} ms`

async function main(): Promise<void> {
  const setup = await startSentinelSetup({ replicas: 1 })
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-bench-sentinel-'))
  try {
    // 1. One store write.
    const target = redisTargetFromEnv(setup.env)!
    const stores = [0, 1].map((replicas) => createRedisStore(target, { keyPrefix: `bench:${replicas}:`, replicaAck: { replicas, timeoutMs: 1000 } }))
    for (const s of stores) await s.connect()
    const storeTimes: number[][] = [[], []]
    for (let i = 0; i < REQUESTS * 5; i++) {
      for (const r of [0, 1]) {
        const t0 = performance.now()
        await stores[r].set(`cat:bench:${i}`, 'x'.repeat(200))
        storeTimes[r].push(performance.now() - t0)
      }
    }
    for (const s of stores) await s.close()
    console.log(`store set of a cat: key, ${REQUESTS * 5} each: without WAIT ${describe(storeTimes[0])}; with WAIT 1 ${describe(storeTimes[1])}`)

    // 2. api/dbm make_dir through a gateway process.
    const gateways = await Promise.all(
      [0, 1].map((replicas) =>
        start({
          ...setup.env,
          REDIS_KEY_PREFIX: `bench:gw${replicas}:${randomBytes(3).toString('hex')}:`,
          REDIS_WAIT_REPLICAS: String(replicas),
          DATA_DIR: join(dataDir, `gw${replicas}`),
          PORT: '0',
          HOST: '127.0.0.1',
          WORKERS: '1',
          DEMO_ROWS: '100',
          ADMIN_PASSWORD: 'bench-admin-1',
        }),
      ),
    )
    try {
      const clients = gateways.map((g) => new Client(g.base))
      for (const c of clients) {
        if ((await c.login('admin', 'bench-admin-1')).status !== 200) throw new Error('login failed')
        await c.dbm('make_dir', { path: 'bench' })
      }
      const dbmTimes: number[][] = [[], []]
      for (let i = 0; i < REQUESTS; i++) {
        for (const r of [0, 1]) {
          const t0 = performance.now()
          const reply = await clients[r].dbm('make_dir', { path: `bench.d${i}` })
          if (reply.status !== 200) throw new Error(`make_dir answered ${reply.status}: ${reply.text}`)
          dbmTimes[r].push(performance.now() - t0)
        }
      }
      console.log(`api/dbm make_dir, ${REQUESTS} each: REDIS_WAIT_REPLICAS=0 ${describe(dbmTimes[0])}; REDIS_WAIT_REPLICAS=1 ${describe(dbmTimes[1])}`)
    } finally {
      await Promise.all(gateways.map((g) => stop(g)))
    }
  } finally {
    await setup.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
