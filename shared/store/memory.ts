/**
 * The embedded store: every key lives in this process's memory, for a single gateway without Redis.
 * This file composes the parts under ./memory/: the key space, batches, the snapshot file, pub/sub.
 *
 * Atomicity comes for free: each operation (and each batch as a whole) reads and writes the maps
 * synchronously, with no await in between, so no other call can observe or interleave with half
 * of it. Only the wait for the disk happens afterwards.
 *
 * Durability: keys for which isDurableKey holds (the catalog, never-reused counters) are also kept
 * in `${dataDir}/store.json`. A write that changed one resolves only once a snapshot containing
 * the change is on disk, so an acknowledged catalog change or counter value survives a crash.
 * Everything else (sessions, instance state, signals) is deliberately lost on restart. Kept
 * results are bounded in bytes (`cacheBytes`), the oldest dropped first (memory/keyspace.ts).
 */
import { AppError } from '../errors.js'
import { runBatch } from './memory/batch.js'
import { checkTtl } from './memory/entry.js'
import { Keyspace } from './memory/keyspace.js'
import { LocalPubSub } from './memory/pubsub.js'
import { SnapshotFile } from './memory/snapshot-file.js'
import { renderSnapshot } from './memory/snapshot-format.js'
import { isDurableKey } from './types.js'
import type { SetOptions, Store, WatchToken } from './types.js'

/** How often expired keys nobody reads are dropped; lazy expiry handles the ones that are read. */
const SWEEP_INTERVAL_MS = 1000

/**
 * Creates the embedded store. With `dataDir`, durable keys are persisted there (the folder is
 * created on connect); without it (tests, throwaway instances) nothing touches the disk.
 */
export function createMemoryStore(opts: { dataDir?: string | null; cacheBytes?: number } = {}): Store {
  const keyspace = new Keyspace(opts.cacheBytes)
  const pubsub = new LocalPubSub()
  // Only durable keys are rendered: the others must never reach the disk.
  const snapshot = opts.dataDir ? new SnapshotFile(opts.dataDir, () => renderSnapshot(keyspace.live(isDurableKey))) : null
  let state: 'new' | 'open' | 'closed' = 'new'
  let sweepTimer: NodeJS.Timeout | null = null

  function assertOpen(): void {
    if (state === 'open') return
    if (state === 'closed') throw new AppError('UNAVAILABLE', 'The store is closed.')
    throw new Error('The store is not connected; call connect() first.')
  }

  /** Reads run synchronously; the async signature is the Store contract's. */
  async function read<T>(fn: () => T): Promise<T> {
    assertOpen()
    return fn()
  }

  /** Runs a mutation synchronously, then waits until any durable key it changed is on disk. */
  async function write<T>(fn: () => T): Promise<T> {
    assertOpen()
    keyspace.durableChanged = false
    const result = fn()
    if (keyspace.durableChanged && snapshot) await snapshot.flush()
    return result
  }

  return {
    kind: 'memory',

    async connect() {
      if (state === 'open') return
      if (state === 'closed') throw new Error('The store was closed; create a new one.')
      if (snapshot) {
        for (const [key, entry] of await snapshot.load()) keyspace.restore(key, entry)
      }
      sweepTimer = setInterval(() => keyspace.sweep(), SWEEP_INTERVAL_MS)
      // The sweep is housekeeping; it must never be what keeps the process alive.
      sweepTimer.unref()
      state = 'open'
    },

    async close() {
      if (state === 'closed') return
      state = 'closed'
      if (sweepTimer) clearInterval(sweepTimer)
      sweepTimer = null
      pubsub.clear()
      // Writes already acknowledged are on disk; this only waits for ones still being written.
      if (snapshot) await snapshot.idle()
    },

    ping: () => read(() => undefined),

    get: (key) => read(() => keyspace.getString(key)),
    mget: (keys) => read(() => keys.map((key) => keyspace.getStringOrNull(key))),
    set: (key, value, setOpts: SetOptions = {}) =>
      write(() => {
        if (setOpts.ttl !== undefined) checkTtl(setOpts.ttl)
        if (setOpts.nx && keyspace.lookup(key)) return false
        keyspace.setString(key, value, setOpts.ttl)
        return true
      }),
    del: (...keys) => write(() => keys.filter((key) => keyspace.remove(key)).length),
    expire: (key, ttl) =>
      write(() => {
        checkTtl(ttl)
        return keyspace.expire(key, ttl)
      }),
    ttl: (key) => read(() => keyspace.ttl(key)),
    incr: (key) => write(() => keyspace.incr(key)),

    hget: (key, field) => read(() => keyspace.hash(key)?.get(field) ?? null),
    hgetall: (key) => read(() => Object.fromEntries(keyspace.hash(key) ?? [])),
    hset: (key, fields) => write(() => void keyspace.hset(key, fields)),
    hdel: (key, ...fields) => write(() => keyspace.hdel(key, fields)),

    sadd: (key, ...members) => write(() => keyspace.sadd(key, members)),
    srem: (key, ...members) => write(() => keyspace.srem(key, members)),
    smembers: (key) => read(() => [...(keyspace.set(key) ?? [])]),

    keys: (prefix) => read(() => keyspace.keys(prefix)),

    batch: (ops, ifUnchanged) => write(() => runBatch(keyspace, ops, ifUnchanged)),
    watch: (keys) => read((): WatchToken => ({ keys: [...keys], values: keys.map((key) => keyspace.getStringOrNull(key)) })),

    publish: (channel, message) => read(() => pubsub.publish(channel, message)),
    subscribe: (channel, handler) =>
      read(() => {
        const unsubscribe = pubsub.subscribe(channel, handler)
        return async () => unsubscribe()
      }),
  }
}
