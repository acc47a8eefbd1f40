/**
 * Builds the real dependencies from a config. server.ts uses it for the process; tests use it to
 * run the same service in-process against a store of their choice.
 */
import { closeTableWriter } from './tables/table-writer.js'
import { closeCompiler, startCompiler } from './cache/compile-thread.js'
import type { Config } from '../shared/config.js'
import { createStore } from '../shared/store/index.js'
import type { Store } from '../shared/store/types.js'
import { SessionManager } from './auth/sessions.js'
import { Directory } from './catalog/principal.js'
import { RetiredVersionSweeper } from './catalog/retired.js'
import { Instances } from './instances/instances.js'
import { StopRegistry } from './query/running/index.js'
import type { Deps } from './deps.js'
import type { Logger } from './logger.js'
import { Results } from './query/results/results.js'
import { createGatewayCaches } from './cache/index.js'
import { PoolRunner } from './pool/runner.js'
import { TableCache } from './tables/table-cache.js'
import { countStoreCalls, createObserve } from './observe/index.js'

/** Connects the store (or takes a connected one) and starts the worker pool. */
export async function buildDeps(config: Config, log: Logger, store?: Store): Promise<Deps> {
  const raw =
    store ??
    createStore({
      redis: config.redis,
      redisKeyPrefix: config.redisKeyPrefix,
      redisReplicaAck: config.redisReplicaAck,
      dataDir: config.dataDir,
      memoryCacheBytes: config.memoryStoreCacheBytes,
    })
  if (!store) await raw.connect()
  const observe = createObserve()
  const s = countStoreCalls(raw, (op) => observe.metrics.storeCall(op))
  const stops = new StopRegistry(s)
  await stops.start()
  const instances = new Instances(s, { ttl: config.sessionTtl, perSession: config.maxInstancesPerSession })
  const runner = new PoolRunner({ workers: config.workers, workerMemoryMb: config.workerMemoryMb, sqlMemoryMb: config.sqlMemoryMb })
  // Queries are parsed and compiled there: ready before the gateway serves its first query.
  await startCompiler()
  // One window slot per part a split query runs at once (docs/large-tables.md).
  const tables = new TableCache(config.dataDir, config.tableCacheBytes, undefined, config.parallelParts ?? config.workers)
  // A retired version goes as soon as no load reads it (catalog/retired.ts); other gateways
  // sharing DATA_DIR exist only with Redis, and get RETIRED_GRACE_SECONDS for their loads.
  const graceMs = raw.kind === 'memory' ? 0 : config.retiredGraceSeconds * 1000
  const sweeper = new RetiredVersionSweeper(
    s,
    config.dataDir,
    graceMs,
    (err) => log({ level: 'warn', msg: 'sweeping retired table versions failed', error: String(err) }),
    (v) => tables.isReading(v),
  )
  sweeper.start()
  observe.metrics.readFrom({ runner, tables, stops })
  return {
    config,
    store: s,
    runner,
    tables,
    results: new Results(s, log, { memoBytes: config.resultMemoBytes, ttlSeconds: config.sessionTtl, storeBytes: config.resultStoreBytes }),
    caches: createGatewayCaches(),
    sessions: new SessionManager(s, config.sessionTtl, (sid) => instances.endSession(sid)),
    directory: new Directory(s),
    sweeper,
    instances,
    stops,
    log,
    observe,
  }
}

/** Stops the pool and the store. */
export async function closeDeps(deps: Deps): Promise<void> {
  await deps.sweeper.stop()
  await deps.stops.close()
  await deps.runner.close()
  await closeTableWriter()
  await closeCompiler()
  await deps.store.close()
}
