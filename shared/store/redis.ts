/**
 * The Redis store (ioredis 5), for running several gateways against one shared state.
 *
 * Failure policy: a request must fail fast with UNAVAILABLE when Redis is down, never queue
 * forever. Hence no offline queue (commands are refused while disconnected), one retry per
 * request, bounded connect and command timeouts, and every connection-level error mapped to
 * AppError('UNAVAILABLE'). Reply errors (WRONGTYPE and the like) are bugs and pass through unchanged.
 * ioredis keeps reconnecting in the background after a drop, so the store recovers by itself.
 */
import { Redis, ReplyError } from 'ioredis'
import type { Cluster, RedisOptions } from 'ioredis'
import { AppError } from '../errors.js'
import type { MessageHandler, SetOptions, Store, WatchToken, WriteOp } from './types.js'
import type { RedisTarget } from './redis-target.js'
import { withReplicaAck, type ReplicaAck } from './redis-durability.js'
import { sentinelClient } from './redis-sentinel.js'
import { clusterName, keyOfClusterName } from './redis-cluster-keys.js'
import {
  checkOneSlot,
  CrossSlotError,
  delBySlot,
  isSlotMoving,
  mgetBySlot,
  newClusterClient,
  publishInOrder,
  retryWhileMoving,
  scanEveryMaster,
} from './redis-cluster.js'

/** Upper bound for connecting and for any single command: long enough for a busy server, short enough for a request. */
const TIMEOUT_MS = 5000

/** Arguments per command in a batch; keeps Lua's unpack() far below its stack limit for big hsets. */
const MAX_ARGS_PER_COMMAND = 1000

const CLIENT_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: TIMEOUT_MS,
  commandTimeout: TIMEOUT_MS,
  // Reconnect in the background after a drop, quickly at first, then every 2 s.
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
}

/** A connection to one server (or the master Sentinel names), or a cluster client: both speak the commands used here. */
type Client = Redis | Cluster

/** The main connection for a target; the subscriber connection is duplicated from it. */
function newClient(target: RedisTarget): Client {
  switch (target.kind) {
    case 'single':
      return new Redis(target.url, CLIENT_OPTIONS)
    case 'sentinel':
      return sentinelClient(target, CLIENT_OPTIONS)
    case 'cluster':
      // Per node: the same bounds as one server; the cluster client does the reconnecting.
      return newClusterClient(target.nodes, target.password, {
        connectTimeout: TIMEOUT_MS,
        commandTimeout: TIMEOUT_MS,
        maxRetriesPerRequest: 1,
      })
  }
}

/**
 * Conditional batch: applies the writes only if every watched key still holds the value seen by
 * watch (nil and string compared exactly). Running as one script makes check and writes atomic.
 * KEYS: the n watched keys, then one key per command.
 * ARGV: n; per watched key a flag ('1' present, '0' nil) and the value; per command its name,
 * argument count and arguments.
 */
const CONDITIONAL_BATCH_LUA = `
local n = tonumber(ARGV[1])
local a = 2
for i = 1, n do
  local current = redis.call('GET', KEYS[i])
  if ARGV[a] == '1' then
    if current ~= ARGV[a + 1] then return 0 end
  elseif current then
    return 0
  end
  a = a + 2
end
local k = n + 1
while a <= #ARGV do
  local argc = tonumber(ARGV[a + 1])
  redis.call(ARGV[a], KEYS[k], unpack(ARGV, a + 2, a + 1 + argc))
  a = a + 2 + argc
  k = k + 1
end
return 1
`

/** Retry-After on a 503 while Redis is unreachable: reconnection attempts back off to 2 s. */
const UNAVAILABLE_RETRY_SECONDS = 2
/**
 * Reply errors that mean "the server cannot serve now" rather than "the caller is wrong"; on a
 * cluster also the redirections and TRYAGAIN of a slot that kept moving beyond the retries.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|READONLY|MISCONF|OOM|NOREPLICAS|UNBLOCKED|ASK|MOVED|CLUSTERDOWN)\b/

/** One Redis command of a batch: name, unprefixed key, further arguments. */
type Command = readonly [name: string, key: string, args: readonly (string | number)[]]

/**
 * Creates a Redis-backed store. The constructor does no I/O; connect() connects and pings.
 * `keyPrefix` is prepended to every key and channel (and stripped from keys()), so several
 * deployments or parallel test runs can share one Redis without seeing each other.
 */
export function createRedisStore(target: RedisTarget | string, opts: { keyPrefix?: string; replicaAck?: ReplicaAck } = {}): Store {
  const prefix = opts.keyPrefix ?? ''
  const resolved: RedisTarget = typeof target === 'string' ? { kind: 'single', url: target } : target
  const cluster = resolved.kind === 'cluster'
  // A brace in the prefix would be the hash tag of every key: the whole deployment on one slot.
  if (cluster && /[{}]/.test(prefix)) throw new Error(`REDIS_KEY_PREFIX must not contain { or } on a Redis Cluster (got "${prefix}").`)
  /** The stored name of a key: on a cluster with the hash tag of its group (redis-cluster-keys.ts). */
  const k = cluster ? (key: string): string => prefix + clusterName(key) : (key: string): string => prefix + key
  const keyOf = cluster ? (name: string): string => keyOfClusterName(name.slice(prefix.length)) : (name: string): string => name.slice(prefix.length)
  const client = newClient(resolved)
  const clusterClient = cluster ? (client as Cluster) : null
  // Without a listener ioredis prints every failed reconnect; the failures reach callers as UNAVAILABLE instead.
  client.on('error', () => undefined)
  const subscriber = new Subscriber(client, prefix)
  /** Reads several keys; on a cluster per slot (redis-cluster.ts says what that means for snapshots). */
  const mgetNames = (names: string[]): Promise<(string | null)[]> => (clusterClient ? mgetBySlot(clusterClient, names) : client.mget(names))
  /** An atomic write; on a cluster refused across slots, and tried again while its slot moves. */
  const atomically = <T>(names: readonly string[], write: () => Promise<T>): Promise<T> => {
    if (!cluster) return write()
    checkOneSlot(names)
    return retryWhileMoving(write)
  }
  let state: 'new' | 'open' | 'closed' = 'new'

  /** Runs one round trip, translating connection failures to UNAVAILABLE. */
  async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (state === 'closed') throw new AppError('UNAVAILABLE', 'The store is closed.')
    if (state === 'new') throw new Error('The store is not connected; call connect() first.')
    try {
      return await fn()
    } catch (err) {
      throw translate(err)
    }
  }

  const store: Store = {
    kind: 'redis',

    async connect() {
      if (state === 'open') return
      if (state === 'closed') throw new Error('The store was closed; create a new one.')
      try {
        await client.connect()
        await client.ping()
      } catch (err) {
        // Stop the background reconnect loop: the caller decides whether to try again.
        client.disconnect()
        throw translate(err)
      }
      state = 'open'
    },

    async close() {
      if (state === 'closed') return
      state = 'closed'
      await subscriber.close()
      if (client.status === 'ready') await client.quit().catch(() => undefined)
      client.disconnect()
    },

    ping: () => run(async () => void (await client.ping())),

    get: (key) => run(() => client.get(k(key))),
    mget: (keys) => (keys.length === 0 ? run(async () => []) : run(() => mgetNames(keys.map(k)))),
    // Argument checks sit inside async functions so a bad TTL rejects instead of throwing synchronously.
    set: async (key, value, setOpts: SetOptions = {}) => {
      const { ttl, nx } = setOpts
      if (ttl !== undefined) checkTtl(ttl)
      return run(async () => {
        const reply =
          ttl !== undefined && nx
            ? await client.set(k(key), value, 'EX', ttl, 'NX')
            : ttl !== undefined
              ? await client.set(k(key), value, 'EX', ttl)
              : nx
                ? await client.set(k(key), value, 'NX')
                : await client.set(k(key), value)
        return reply === 'OK'
      })
    },
    del: (...keys) => (keys.length === 0 ? run(async () => 0) : run(() => (clusterClient ? delBySlot(clusterClient, keys.map(k)) : client.del(keys.map(k))))),
    expire: async (key, ttl) => {
      checkTtl(ttl)
      return run(async () => (await client.expire(k(key), ttl)) === 1)
    },
    ttl: (key) => run(() => client.ttl(k(key))),
    incr: (key) => run(() => client.incr(k(key))),

    hget: (key, field) => run(() => client.hget(k(key), field)),
    hgetall: (key) => run(async () => ({ ...(await client.hgetall(k(key))) })),
    hset: (key, fields) => (Object.keys(fields).length === 0 ? run(async () => undefined) : run(async () => void (await client.hset(k(key), fields)))),
    hdel: (key, ...fields) => (fields.length === 0 ? run(async () => 0) : run(() => client.hdel(k(key), ...fields))),

    sadd: (key, ...members) => (members.length === 0 ? run(async () => 0) : run(() => client.sadd(k(key), members))),
    srem: (key, ...members) => (members.length === 0 ? run(async () => 0) : run(() => client.srem(k(key), members))),
    smembers: (key) => run(() => client.smembers(k(key))),

    keys: (prefixOfKeys) =>
      run(async () => {
        // SCAN, never KEYS: KEYS blocks the whole server while it walks every key.
        if (clusterClient) {
          // Stored names carry a hash tag before the key: match anything there, then keep what decodes to the prefix.
          const names = await scanEveryMaster(clusterClient, escapeGlob(prefix) + '*' + escapeGlob(prefixOfKeys) + '*')
          const found = new Set([...names].filter((name) => name.startsWith(prefix)).map(keyOf))
          return [...found].filter((key) => key.startsWith(prefixOfKeys)).sort()
        }
        const pattern = escapeGlob(k(prefixOfKeys)) + '*'
        const found = new Set<string>() // SCAN may return a key more than once
        let cursor = '0'
        do {
          const [next, page] = await (client as Redis).scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
          for (const name of page) found.add(keyOf(name))
          cursor = next
        } while (cursor !== '0')
        return [...found].sort()
      }),

    batch: async (ops, ifUnchanged) => {
      const commands = ops.flatMap(toCommands)
      if (ifUnchanged) return run(() => conditionalBatch(commands, ifUnchanged))
      if (commands.length === 0) return run(async () => true)
      return run(() =>
        atomically(
          commands.map(([, key]) => k(key)),
          async () => {
            const multi = client.multi()
            for (const [name, key, args] of commands) multi.call(name, [k(key), ...args])
            const replies = await multi.exec()
            if (!replies) throw new Error('The Redis transaction was aborted.')
            // Redis does not roll back a transaction; a failed command is a bug (wrong key type), report it.
            const failed = replies.find(([err]) => err)
            if (failed) throw failed[0]
            return true
          },
        ),
      )
    },

    watch: (keys) =>
      run(async (): Promise<WatchToken> => ({
        keys: [...keys],
        values: keys.length === 0 ? [] : await mgetNames(keys.map(k)),
      })),

    publish: (channel, message) =>
      run(async () => void (clusterClient ? await publishInOrder(clusterClient, prefix + channel, message) : await client.publish(prefix + channel, message))),
    subscribe: (channel, handler) => run(() => subscriber.subscribe(channel, handler)),
  }
  // Durable writes resolve only once replicas have them (redis-durability.ts). Not on a cluster,
  // where WAIT would have to reach the master of each key (loadConfig refuses the combination).
  if (cluster && opts.replicaAck && opts.replicaAck.replicas > 0) throw new Error('REDIS_WAIT_REPLICAS is not supported with REDIS_CLUSTER_NODES; set it to 0.')
  return opts.replicaAck && !clusterClient ? withReplicaAck(store, client as Redis, opts.replicaAck, translate) : store

  async function conditionalBatch(commands: readonly Command[], token: WatchToken): Promise<boolean> {
    if (token.keys.length !== token.values.length) throw new TypeError('Malformed watch token: keys and values differ in length.')
    const keys = [...token.keys, ...commands.map(([, key]) => key)].map(k)
    const argv: (string | number)[] = [token.keys.length]
    for (const value of token.values) argv.push(value === null ? '0' : '1', value ?? '')
    for (const [name, , args] of commands) argv.push(name, args.length, ...args)
    // EVAL through call() with an array: a big batch must not become a huge spread argument list.
    const reply = await atomically(keys, () => client.call('EVAL', [CONDITIONAL_BATCH_LUA, keys.length, ...keys, ...argv]))
    return reply === 1
  }
}

/**
 * The one subscriber connection, duplicated from the main client on the first subscribe: a Redis
 * connection in subscriber mode cannot run other commands. It multiplexes all channels; local
 * handlers are tracked here and the server subscription follows them (subscribe on the first
 * handler of a channel, unsubscribe after the last).
 */
class Subscriber {
  private readonly channels = new Map<string, Set<{ readonly handler: MessageHandler }>>()
  /** Channels currently subscribed on the server (unprefixed). */
  private readonly onServer = new Set<string>()
  private connection: Promise<Client> | null = null
  /** Server (un)subscriptions run one after another so they reach Redis in the order of local changes. */
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly main: Client,
    private readonly prefix: string,
  ) {}

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    const sub = { handler }
    let subs = this.channels.get(channel)
    if (!subs) this.channels.set(channel, (subs = new Set()))
    subs.add(sub)
    try {
      await this.reconcile(channel)
    } catch (err) {
      this.remove(channel, sub)
      throw err
    }
    return async () => {
      // Local removal alone guarantees no further delivery to this handler.
      if (!this.remove(channel, sub)) return
      // A failed UNSUBSCRIBE (Redis down) only leaves messages that nobody receives; the next
      // reconcile of the channel retries it, so the caller's cleanup need not handle an error.
      await this.reconcile(channel).catch(() => undefined)
    }
  }

  async close(): Promise<void> {
    this.channels.clear()
    const connection = await this.connection?.catch(() => null)
    connection?.disconnect()
  }

  private remove(channel: string, sub: { readonly handler: MessageHandler }): boolean {
    const subs = this.channels.get(channel)
    if (!subs?.delete(sub)) return false
    if (subs.size === 0) this.channels.delete(channel)
    return true
  }

  /** Brings the server subscription of one channel in line with the local handlers. */
  private reconcile(channel: string): Promise<void> {
    const step = this.queue.then(async () => {
      const wanted = this.channels.has(channel)
      if (wanted === this.onServer.has(channel)) return
      const connection = await this.connect()
      try {
        if (wanted) await connection.subscribe(this.prefix + channel)
        else await connection.unsubscribe(this.prefix + channel)
      } catch (err) {
        throw translate(err)
      }
      if (wanted) this.onServer.add(channel)
      else this.onServer.delete(channel)
    })
    this.queue = step.catch(() => undefined)
    return step
  }

  private connect(): Promise<Client> {
    this.connection ??= (async () => {
      const connection = this.main.duplicate()
      connection.on('error', () => undefined)
      connection.on('message', (channel: string, message: string) => this.dispatch(channel, message))
      try {
        await connection.connect()
        return connection
      } catch (err) {
        connection.disconnect()
        throw translate(err)
      }
    })().catch((err: unknown) => {
      // Forget the failed attempt so the next subscribe tries again.
      this.connection = null
      throw err
    })
    return this.connection
  }

  /** ioredis emits messages from its socket handler, so handlers never run inside publish(). */
  private dispatch(prefixedChannel: string, message: string): void {
    if (!prefixedChannel.startsWith(this.prefix)) return
    const channel = prefixedChannel.slice(this.prefix.length)
    const subs = this.channels.get(channel)
    if (!subs) return
    for (const sub of [...subs]) {
      if (!subs.has(sub)) continue // unsubscribed by an earlier handler of this same message
      try {
        sub.handler(message)
      } catch (err) {
        // A throwing handler must not break delivery to the others or the ioredis parser.
        process.emitWarning(`A store subscriber for channel "${channel}" threw: ${err instanceof Error ? err.stack : String(err)}`, 'StoreSubscriberWarning')
      }
    }
  }
}

/** The Redis commands for one batch op; big argument lists are split, empty ones dropped (Redis rejects them). */
function toCommands(op: WriteOp): Command[] {
  switch (op.op) {
    case 'set':
      if (op.ttl !== undefined) checkTtl(op.ttl)
      return [['SET', op.key, op.ttl === undefined ? [op.value] : [op.value, 'EX', op.ttl]]]
    case 'del':
      return [['DEL', op.key, []]]
    case 'expire':
      checkTtl(op.ttl)
      return [['EXPIRE', op.key, [op.ttl]]]
    case 'hset':
      return chunk(Object.entries(op.fields).flat(), MAX_ARGS_PER_COMMAND).map((args) => ['HSET', op.key, args])
    case 'hdel':
      return chunk(op.fields, MAX_ARGS_PER_COMMAND).map((args) => ['HDEL', op.key, args])
    case 'sadd':
      return chunk(op.members, MAX_ARGS_PER_COMMAND).map((args) => ['SADD', op.key, args])
    case 'srem':
      return chunk(op.members, MAX_ARGS_PER_COMMAND).map((args) => ['SREM', op.key, args])
    default:
      throw new TypeError(`Unknown batch operation ${JSON.stringify((op as { op: unknown }).op)}.`)
  }
}

/** Splits into pieces of at most `size` (even, so hash field/value pairs stay together). */
function chunk<T>(items: readonly T[], size: number): T[][] {
  const pieces: T[][] = []
  for (let i = 0; i < items.length; i += size) pieces.push(items.slice(i, i + size))
  return pieces
}

/** SCAN MATCH is a glob; a prefix like "a*[" must match literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&')
}

/** The same rule as the memory store, so callers see identical behaviour: whole seconds, above 0. */
function checkTtl(ttl: number): void {
  if (!Number.isInteger(ttl) || ttl <= 0) throw new RangeError(`A TTL must be a whole number of seconds above 0 (got ${ttl}).`)
}

/**
 * Reply errors are the caller's bug and pass through (except the transient ones). Everything else
 * ioredis rejects with (refused or reset connection, "Stream isn't writeable", "Connection is
 * closed", max retries, command timeout) means Redis cannot be reached.
 */
function translate(err: unknown): unknown {
  if (err instanceof AppError || err instanceof RangeError || err instanceof TypeError || err instanceof CrossSlotError) return err
  const isReply = err instanceof ReplyError || (err instanceof Error && err.name === 'ReplyError')
  if (isReply && !TRANSIENT_REPLY.test((err as Error).message) && !isSlotMoving(err)) return err
  // Redis is retried every few hundred ms (see retryStrategy), so a client may come back soon.
  return new AppError(
    'UNAVAILABLE',
    'The store (Redis) is not reachable; try again in a few seconds.',
    { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS },
    { cause: err },
  )
}
