/**
 * The store's public face: pick the implementation from configuration, and everything callers
 * need to type their code against it. Code outside shared/store imports from here only.
 */
import { createMemoryStore } from './memory.js'
import { createRedisStore } from './redis.js'
import type { Store } from './types.js'
import type { RedisTarget } from './redis-target.js'
import type { ReplicaAck } from './redis-durability.js'

export { createMemoryStore } from './memory.js'
export { createRedisStore } from './redis.js'
export { DURABLE_PREFIXES, EVICTABLE_PREFIXES, isDurableKey, isEvictableKey } from './types.js'
export { describeRedisTarget, parseHostPorts, redisTargetFromEnv, type RedisTarget } from './redis-target.js'
export { replicaAckFromEnv, type ReplicaAck } from './redis-durability.js'
export type { MessageHandler, SetOptions, Store, WatchToken, WriteOp } from './types.js'

/**
 * Redis when one is configured (several gateways share state), otherwise the embedded store
 * persisting durable keys under dataDir. Does no I/O: call connect() on the result.
 */
export function createStore(cfg: {
  readonly redis: RedisTarget | null
  readonly redisKeyPrefix?: string
  /** Replicas that must confirm a durable write (REDIS_WAIT_REPLICAS); none when absent. */
  readonly redisReplicaAck?: ReplicaAck
  readonly dataDir: string
  readonly memoryCacheBytes?: number
}): Store {
  return cfg.redis
    ? createRedisStore(cfg.redis, { keyPrefix: cfg.redisKeyPrefix ?? '', replicaAck: cfg.redisReplicaAck })
    : createMemoryStore({ dataDir: cfg.dataDir, cacheBytes: cfg.memoryCacheBytes })
}
