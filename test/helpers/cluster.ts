/**
 * The production topology without Docker: one redis-server (the test run's), several gateway
 * processes (`node dist/gateway/server.js`) on loopback ports sharing one DATA_DIR and one Redis
 * key prefix, and a load balancer in front. All gateways start at once, as replicas do, so every
 * cluster start also exercises concurrent first-start seeding.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../shared/config.js'
import { createRedisStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { start, stop, type Running } from './processes.js'
import { RotatingProxy } from './rotating-proxy.js'

export const CLUSTER_ADMIN_PASSWORD = 'admin-secret-1'

export interface ClusterOptions {
  readonly gateways?: number
  readonly demoRows?: number
  /** Extra environment for every gateway (limits and the like). */
  readonly env?: Record<string, string>
  /** A Redis of the caller's own (a load test measuring its memory); the test run's by default. */
  readonly redisUrl?: string
}

export interface Cluster {
  /** Through the balancer: `http://127.0.0.1:PORT` and `…/v1/api`. */
  readonly origin: string
  readonly api: string
  readonly proxy: RotatingProxy
  /** Gateway i's own `…/v1/api`, to talk to one gateway directly. */
  readonly gateways: readonly Running[]
  /** A Store on the gateways' Redis and key prefix, for tests that look at what they wrote. */
  readonly store: Store
  readonly config: Config
  readonly dataDir: string
  /** Sends a signal to gateway i and resolves its exit code (null when killed by the signal). */
  signal(i: number, sig: NodeJS.Signals): Promise<number | null>
  close(): Promise<void>
}

export function clusterRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL
  if (!url) throw new Error('the multi-gateway tests need a Redis: run them through run-tests, which provides one')
  return url
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-cluster-'))
  const env: Record<string, string> = {
    REDIS_URL: opts.redisUrl ?? clusterRedisUrl(),
    REDIS_KEY_PREFIX: `test:cluster:${randomBytes(6).toString('hex')}:`,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    WORKERS: '2',
    DEMO_ROWS: String(opts.demoRows ?? 3000),
    ADMIN_PASSWORD: CLUSTER_ADMIN_PASSWORD,
    TRUST_PROXY: '1',
    ...opts.env,
  }
  const config = loadConfig(env)
  const store = createRedisStore(env.REDIS_URL, { keyPrefix: env.REDIS_KEY_PREFIX })
  await store.connect()
  const count = opts.gateways ?? 3
  const started = await Promise.allSettled(Array.from({ length: count }, () => start(env)))
  const gateways = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) {
    await Promise.all(gateways.map((g) => stop(g)))
    await store.close()
    throw failed.reason
  }
  const proxy = new RotatingProxy(gateways.map((g) => ({ host: '127.0.0.1', port: Number(new URL(g.base).port) })))
  const origin = await proxy.listen()
  const exited = new Set<number>()
  return {
    origin,
    api: `${origin}/${config.apiVersions[0]}/api`,
    proxy,
    gateways,
    store,
    config,
    dataDir,
    signal(i, sig) {
      const g = gateways[i]
      return new Promise((resolve) => {
        g.child.removeAllListeners('exit')
        g.child.once('exit', (code) => {
          exited.add(i)
          resolve(code)
        })
        g.child.kill(sig)
      })
    },
    async close() {
      await proxy.close()
      await Promise.all(gateways.map((g, i) => (exited.has(i) || g.child.exitCode !== null || g.child.signalCode !== null ? null : stop(g))))
      const keys = await store.keys('')
      if (keys.length > 0) await store.del(...keys)
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
