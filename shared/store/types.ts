/**
 * The Store: where everything that must outlive one request lives (sessions, the catalog, instance
 * state, counters, stop signals). Two implementations share this contract: Redis (ioredis) for
 * several gateways, and an embedded in-memory store that persists durable keys to DATA_DIR.
 *
 * Keys are plain strings. Keys that start with one of the durable prefixes (see DURABLE_PREFIXES)
 * must survive a restart of the service; the memory store writes them to disk atomically before
 * a write resolves, Redis relies on its own persistence (AOF in production).
 */

/** Key prefixes whose values must survive a restart: the catalog and never-reused counters. */
export const DURABLE_PREFIXES = ['cat:', 'seq:'] as const

export const isDurableKey = (key: string): boolean => DURABLE_PREFIXES.some((p) => key.startsWith(p))

/**
 * Key prefixes of values a store may drop under memory pressure, oldest first: kept results
 * (`res:`), whose readers recompute what is missing. Redis does so under `maxmemory`; the embedded
 * store within its cache budget (createMemoryStore's `cacheBytes`, MEMORY_STORE_CACHE_MB).
 */
export const EVICTABLE_PREFIXES = ['res:'] as const

export const isEvictableKey = (key: string): boolean => EVICTABLE_PREFIXES.some((p) => key.startsWith(p))

export interface SetOptions {
  /**
   * Time to live in whole seconds (> 0; anything else rejects with RangeError); the key
   * disappears afterwards. Without it, a set removes any earlier TTL of the key.
   */
  readonly ttl?: number
  /** Only set when the key does not exist yet. */
  readonly nx?: boolean
}

/** One write in an atomic batch (Store#batch). TTLs follow the rule of SetOptions.ttl. */
export type WriteOp =
  | { readonly op: 'set'; readonly key: string; readonly value: string; readonly ttl?: number }
  | { readonly op: 'del'; readonly key: string }
  | { readonly op: 'hset'; readonly key: string; readonly fields: Readonly<Record<string, string>> }
  | { readonly op: 'hdel'; readonly key: string; readonly fields: readonly string[] }
  | { readonly op: 'sadd'; readonly key: string; readonly members: readonly string[] }
  | { readonly op: 'srem'; readonly key: string; readonly members: readonly string[] }
  | { readonly op: 'expire'; readonly key: string; readonly ttl: number }

/**
 * Receives pub/sub messages; always called asynchronously, never inside publish(). A handler that
 * throws does not stop delivery to others; the error is reported as a process warning.
 */
export type MessageHandler = (message: string) => void

export interface Store {
  /** Which implementation this is ('memory' or 'redis'), for logs and /healthz. */
  readonly kind: 'memory' | 'redis'

  /**
   * Connect (Redis) or load the persisted snapshot (memory). Constructors do no I/O, and other
   * methods reject until connect() has succeeded. Redis down: AppError('UNAVAILABLE'); a corrupt
   * snapshot: an Error naming the file.
   */
  connect(): Promise<void>
  /**
   * Ends connections and timers (memory: after writes in flight are on disk). Idempotent; later
   * calls reject with AppError('UNAVAILABLE').
   */
  close(): Promise<void>
  /** Round trip to check the store answers; throws when it does not. */
  ping(): Promise<void>

  get(key: string): Promise<string | null>
  /**
   * Reads several keys at once. On a Redis Cluster keys of different hash slots are read slot by
   * slot: what a batch wrote together (one slot) is seen whole, unrelated keys are no snapshot.
   */
  mget(keys: readonly string[]): Promise<(string | null)[]>
  /** Returns false only when `nx` was given and the key already existed. */
  set(key: string, value: string, opts?: SetOptions): Promise<boolean>
  /**
   * Deletes the keys; returns how many existed. On a Redis Cluster keys of different hash slots
   * are deleted slot by slot, so only keys of one slot disappear at the same instant.
   */
  del(...keys: string[]): Promise<number>
  /** Sets a key's time to live in whole seconds (> 0); returns false when the key does not exist. */
  expire(key: string, ttl: number): Promise<boolean>
  /** Remaining time to live in seconds: -1 without one, -2 when the key does not exist. */
  ttl(key: string): Promise<number>
  /** Atomically adds 1 (a missing key counts as 0; the TTL is kept) and returns the new value. */
  incr(key: string): Promise<number>

  hget(key: string, field: string): Promise<string | null>
  hgetall(key: string): Promise<Record<string, string>>
  hset(key: string, fields: Readonly<Record<string, string>>): Promise<void>
  hdel(key: string, ...fields: string[]): Promise<number>

  sadd(key: string, ...members: string[]): Promise<number>
  srem(key: string, ...members: string[]): Promise<number>
  smembers(key: string): Promise<string[]>

  /** Lists keys that start with a prefix, sorted (for administration and tests, not hot paths). */
  keys(prefix: string): Promise<string[]>

  /**
   * Applies the writes all together; no reader sees half of them. On a Redis Cluster the keys
   * (and the watched ones) must share one hash slot (shared/store/redis-cluster-keys.ts); a batch
   * across slots rejects with an Error naming two of its keys.
   * With `ifUnchanged`, the batch is applied only if none of those keys changed since
   * `watch` read them (optimistic concurrency); returns false when it was not applied.
   * An op on a key of the wrong type rejects with WRONGTYPE; the memory store then undoes the
   * batch, Redis (which has no rollback) keeps the writes that succeeded, so avoid relying on it.
   */
  batch(ops: readonly WriteOp[], ifUnchanged?: WatchToken): Promise<boolean>
  /**
   * Reads keys and remembers their state for a later conditional batch. For string keys only:
   * the check compares values (so a change and change back goes unnoticed), and a watched key
   * of another type makes the conditional batch reject with WRONGTYPE.
   */
  watch(keys: readonly string[]): Promise<WatchToken>

  publish(channel: string, message: string): Promise<void>
  /**
   * Calls the handler for every message on the channel until the returned function is called
   * (once its promise resolves, no further message reaches the handler; calling it twice is harmless).
   */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>
}

/** Opaque token from Store#watch: the watched keys and their values at read time. */
export interface WatchToken {
  readonly keys: readonly string[]
  readonly values: readonly (string | null)[]
}
