/**
 * Runs a describe block once per service kind: in-process on the memory store, in-process on
 * Redis, in-process on a Redis Cluster of three masters, and as three gateway processes behind a
 * balancer (see service.ts). The Redis kinds are skipped only when Redis is not installed, and
 * never on CI.
 */
import { redisAvailable, redisClusterAvailable, startTestService, type StoreKind, type TestService } from './service.js'
import type { Cluster } from './cluster.js'

const ALL_KINDS: readonly StoreKind[] = ['memory', 'redis', 'redis-cluster', 'cluster']

/** TEST_STORE_KINDS=redis-cluster,memory runs only those kinds (to try one kind quickly); all by default. */
export const STORE_KINDS: readonly StoreKind[] = process.env.TEST_STORE_KINDS
  ? ALL_KINDS.filter((kind) => process.env.TEST_STORE_KINDS!.split(',').includes(kind))
  : ALL_KINDS

const LABELS: Readonly<Record<StoreKind, string>> = {
  memory: 'memory store',
  redis: 'redis store',
  'redis-cluster': 'Redis Cluster store',
  cluster: 'three gateways behind a balancer',
}

export interface SuiteOptions {
  /** Kinds to leave out, for suites about one process's internals. */
  readonly skip?: readonly StoreKind[]
}

export function forEachStore(
  title: string,
  body: (get: () => TestService, kind: StoreKind) => void,
  env: Record<string, string> = {},
  opts: SuiteOptions = {},
): void {
  for (const kind of STORE_KINDS) {
    if (opts.skip?.includes(kind)) continue
    describe(`${title} (${LABELS[kind]})`, function () {
      let svc: TestService | undefined
      before(async function () {
        this.timeout(90_000)
        if ((kind !== 'memory' && !redisAvailable()) || (kind === 'redis-cluster' && !redisClusterAvailable())) {
          console.log('    (Redis not installed: skipping the Redis runs of this suite)')
          return this.skip()
        }
        svc = await startTestService(kind, env)
      })
      after(async function () {
        this.timeout(60_000)
        await svc?.close()
      })
      if (kind === 'cluster') {
        // The point of this run: no session ever sees the same gateway twice in a row.
        beforeEach(() => clusterOf(svc)?.proxy.resetRoutes())
        afterEach(() => {
          const repeats = clusterOf(svc)?.proxy.repeats() ?? []
          if (repeats.length > 0) throw new Error(`requests of one session landed on one gateway twice in a row: ${repeats.join('; ')}`)
        })
      }
      body(() => svc!, kind)
    })
  }
}

function clusterOf(svc: TestService | undefined): Cluster | undefined {
  return (svc as { cluster?: Cluster } | undefined)?.cluster
}
