/**
 * Acknowledge a durable write only once a replica has it. Redis replicates asynchronously: a
 * master that dies right after answering a write can take that write with it, and Sentinel then
 * promotes a replica that never saw it. So after every write that touches a durable key (the
 * catalog `cat:` and the counters `seq:`, see DURABLE_PREFIXES), the store sends
 * `WAIT numreplicas timeout` on the same connection and resolves only when that many replicas
 * confirmed everything the connection wrote so far. When they do not in time, the write is
 * answered with UNAVAILABLE (503 + Retry-After) instead: it is on the master but may not survive
 * a failover, so the caller must not be told it is done (callers treat a failed commit as
 * "outcome unknown", see gateway/catalog/txn.ts).
 *
 * Settings (environment, read by loadConfig):
 *   REDIS_WAIT_REPLICAS     replicas that must confirm a durable write; default 1 with
 *                           REDIS_SENTINELS (a failover needs a replica that has the write),
 *                           0 otherwise (off: a single server has nobody to wait for)
 *   REDIS_WAIT_TIMEOUT_MS   how long to wait for them; default 1000, at most 4000 (below the
 *                           5 s command timeout of the store)
 *
 * What it does not give: WAIT is not consensus. A write confirmed by one replica survives the
 * loss of the master when Sentinel promotes that replica or one at least as far along, which it
 * does (it prefers the replica with the largest replication offset), but not when that replica
 * is lost too, or is cut off from the Sentinels at the time.
 */
import type { Redis } from 'ioredis'
import { AppError } from '../errors.js'
import type { RedisTarget } from './redis-target.js'
import { isDurableKey, type Store, type WriteOp } from './types.js'

export interface ReplicaAck {
  /** Replicas that must confirm a durable write before it resolves; 0 turns the check off. */
  readonly replicas: number
  /** How long WAIT may block, in milliseconds (1…4000). */
  readonly timeoutMs: number
}

export const REPLICA_ACK_OFF: ReplicaAck = Object.freeze({ replicas: 0, timeoutMs: 1000 })

/** Above this the store's own 5 s command timeout would cut WAIT short with a vaguer error. */
const MAX_WAIT_MS = 4000
/** Retry-After when replicas did not confirm: a failover or a replica's resync takes a few seconds. */
const RETRY_AFTER_SECONDS = 2

type Env = Readonly<Record<string, string | undefined>>

/** REDIS_WAIT_REPLICAS and REDIS_WAIT_TIMEOUT_MS for the chosen target (see the header for defaults). */
export function replicaAckFromEnv(env: Env, target: RedisTarget | null): ReplicaAck {
  const replicasText = (env.REDIS_WAIT_REPLICAS ?? '').trim()
  const timeoutText = (env.REDIS_WAIT_TIMEOUT_MS ?? '').trim()
  const replicas = replicasText === '' ? (target?.kind === 'sentinel' ? 1 : 0) : wholeNumber('REDIS_WAIT_REPLICAS', replicasText, 0, 16)
  const timeoutMs = timeoutText === '' ? 1000 : wholeNumber('REDIS_WAIT_TIMEOUT_MS', timeoutText, 1, MAX_WAIT_MS)
  if (replicas > 0 && target === null)
    throw new Error('config: REDIS_WAIT_REPLICAS needs a Redis (REDIS_URL or REDIS_SENTINELS); the embedded store has no replicas')
  if (replicas > 0 && target?.kind === 'cluster') {
    throw new Error('config: REDIS_WAIT_REPLICAS is not supported with REDIS_CLUSTER_NODES (WAIT must reach the master of each key written); set it to 0')
  }
  return { replicas, timeoutMs }
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN
  if (!(n >= min && n <= max)) throw new Error(`config: ${name} takes a whole number from ${min} to ${max} (got "${text}")`)
  return n
}

/**
 * The store with every write of a durable key followed by a WAIT on `client` (the connection the
 * store writes on). Reads, and writes of other keys, pass through untouched. `translate` maps a
 * failure of WAIT itself the way the store maps its own (connection errors to UNAVAILABLE).
 */
export function withReplicaAck(store: Store, client: Redis, ack: ReplicaAck, translate: (err: unknown) => unknown): Store {
  if (ack.replicas === 0) return store
  // Counts the connection's closes: a WAIT answered after a reconnect ran on a new connection
  // (ioredis resends unanswered commands), which knows nothing of the write, so it proves nothing.
  let closes = 0
  client.on('close', () => closes++)

  /** `changed` says from the reply whether anything was written (a refused conditional batch was not). */
  async function confirmed<T>(durable: boolean, write: () => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
    if (!durable) return write()
    const result = await write()
    if (!changed(result)) return result
    // Read in the same microtask run as the write's reply: no socket event can come in between.
    const connection = closes
    let acked: unknown
    try {
      acked = await client.call('WAIT', ack.replicas, ack.timeoutMs)
    } catch (err) {
      throw translate(err)
    }
    if (closes !== connection) throw notConfirmed('the connection to Redis was lost before the replicas answered')
    if (typeof acked !== 'number' || acked < ack.replicas) {
      throw notConfirmed(`${String(acked)} of ${ack.replicas} replica(s) confirmed it within ${ack.timeoutMs} ms`)
    }
    return result
  }

  const wrote = (result: boolean): boolean => result
  const counted = (result: number): boolean => result > 0
  const anyDurable = (keys: readonly string[]): boolean => keys.some(isDurableKey)
  const batchIsDurable = (ops: readonly WriteOp[]): boolean => ops.some((op) => isDurableKey(op.key))

  return {
    ...store,
    set: (key, value, opts) => confirmed(isDurableKey(key), () => store.set(key, value, opts), wrote),
    del: (...keys) => confirmed(anyDurable(keys), () => store.del(...keys), counted),
    expire: (key, ttl) => confirmed(isDurableKey(key), () => store.expire(key, ttl), wrote),
    incr: (key) => confirmed(isDurableKey(key), () => store.incr(key)),
    hset: (key, fields) => confirmed(isDurableKey(key), () => store.hset(key, fields)),
    hdel: (key, ...fields) => confirmed(isDurableKey(key), () => store.hdel(key, ...fields), counted),
    sadd: (key, ...members) => confirmed(isDurableKey(key), () => store.sadd(key, ...members), counted),
    srem: (key, ...members) => confirmed(isDurableKey(key), () => store.srem(key, ...members), counted),
    // A conditional batch that found its keys changed wrote nothing; the caller retries it.
    batch: (ops, ifUnchanged) => confirmed(batchIsDurable(ops), () => store.batch(ops, ifUnchanged), wrote),
  }
}

function notConfirmed(why: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    `The change reached the Redis master but not enough replicas confirmed it (${why}), so it is not acknowledged: it may or may not be there; check before repeating it.`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  )
}
