/**
 * The embedded store: every key lives in this process's memory, for a single gateway without Redis.
 *
 * Atomicity comes for free: each operation (and each batch as a whole) reads and writes the maps
 * synchronously, with no await in between, so no other call can observe or interleave with half
 * of it. Only the wait for the disk happens afterwards.
 *
 * Durability: keys for which isDurableKey holds (the catalog, never-reused counters) are also kept
 * in `${dataDir}/store.json`. A write that changed one resolves only once a snapshot containing
 * the change is on disk, so an acknowledged catalog change or counter value survives a crash.
 * Everything else (sessions, instance state, signals) is deliberately lost on restart.
 */
import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { AppError } from '../errors.js'
import { isDurableKey } from './types.js'
import type { MessageHandler, SetOptions, Store, WatchToken, WriteOp } from './types.js'

/** The snapshot file inside dataDir. */
const SNAPSHOT_NAME = 'store.json'
/** Bumped when the snapshot layout changes, so an old binary refuses a newer file instead of misreading it. */
const SNAPSHOT_VERSION = 1
/** How often expired keys nobody reads are dropped; lazy expiry handles the ones that are read. */
const SWEEP_INTERVAL_MS = 1000

interface StringEntry { readonly type: 'string'; readonly value: string; expiresAt: number | null }
interface HashEntry { readonly type: 'hash'; readonly value: Map<string, string>; expiresAt: number | null }
interface SetEntry { readonly type: 'set'; readonly value: Set<string>; expiresAt: number | null }
/** One key's value; expiresAt is a Date.now() timestamp in milliseconds, null for no expiry. */
type Entry = StringEntry | HashEntry | SetEntry

/**
 * Creates the embedded store. With `dataDir`, durable keys are persisted there (the folder is
 * created on connect); without it (tests, throwaway instances) nothing touches the disk.
 */
export function createMemoryStore(opts: { dataDir?: string | null } = {}): Store {
  const keyspace = new Keyspace()
  const pubsub = new LocalPubSub()
  const snapshot = opts.dataDir ? new SnapshotFile(join(opts.dataDir, SNAPSHOT_NAME), () => keyspace.renderDurable()) : null
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

    batch: (ops, ifUnchanged) =>
      write(() => {
        // Arguments first, like the Redis store, so a bad op fails the same way whatever the condition.
        checkOps(ops)
        if (ifUnchanged && !keyspace.unchanged(ifUnchanged)) return false
        keyspace.applyAll(ops)
        return true
      }),
    watch: (keys) => read((): WatchToken => ({ keys: [...keys], values: keys.map((key) => keyspace.getStringOrNull(key)) })),

    publish: (channel, message) => read(() => pubsub.publish(channel, message)),
    subscribe: (channel, handler) =>
      read(() => {
        const unsubscribe = pubsub.subscribe(channel, handler)
        return async () => unsubscribe()
      }),
  }
}

/** The data itself: typed entries with expiry, and the Redis semantics of each operation. */
class Keyspace {
  private readonly entries = new Map<string, Entry>()
  /** Keys that carry an expiry, so the sweep does not walk every key. */
  private readonly expiring = new Set<string>()
  /** Set by any change to a durable key; write() resets it and waits for the disk when it is set. */
  durableChanged = false

  /** The live entry; an expired one is dropped here (lazy expiry) and reads as missing. */
  lookup(key: string): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.drop(key)
      return undefined
    }
    return entry
  }

  getString(key: string): string | null {
    const entry = this.lookup(key)
    if (!entry) return null
    if (entry.type !== 'string') throw wrongType()
    return entry.value
  }

  /** Like MGET: a key of another type reads as null instead of failing. */
  getStringOrNull(key: string): string | null {
    const entry = this.lookup(key)
    return entry?.type === 'string' ? entry.value : null
  }

  /** Like SET: replaces a value of any type and clears an older expiry unless a ttl is given. */
  setString(key: string, value: string, ttl?: number): void {
    this.put(key, { type: 'string', value, expiresAt: ttl === undefined ? null : expiryFor(ttl) })
  }

  remove(key: string): boolean {
    if (!this.lookup(key)) return false
    this.drop(key)
    this.changed(key)
    return true
  }

  expire(key: string, ttl: number): boolean {
    const entry = this.lookup(key)
    if (!entry) return false
    entry.expiresAt = expiryFor(ttl)
    this.expiring.add(key)
    this.changed(key)
    return true
  }

  /** Rounded to the nearest second, as Redis does. */
  ttl(key: string): number {
    const entry = this.lookup(key)
    if (!entry) return -2
    if (entry.expiresAt === null) return -1
    return Math.floor((entry.expiresAt - Date.now() + 500) / 1000)
  }

  /** Like INCR: keeps the key's expiry; refuses values that are not whole numbers. */
  incr(key: string): number {
    const entry = this.lookup(key)
    if (entry && entry.type !== 'string') throw wrongType()
    const current = entry ? parseInteger(entry.value) : 0
    if (current >= Number.MAX_SAFE_INTEGER) throw new Error('ERR increment or decrement would overflow')
    const next = current + 1
    this.put(key, { type: 'string', value: String(next), expiresAt: entry?.expiresAt ?? null })
    return next
  }

  hash(key: string): Map<string, string> | undefined {
    const entry = this.lookup(key)
    if (entry && entry.type !== 'hash') throw wrongType()
    return entry?.value
  }

  hset(key: string, fields: Readonly<Record<string, string>>): void {
    const names = Object.keys(fields)
    if (names.length === 0) return
    let map = this.hash(key)
    if (!map) {
      map = new Map()
      this.put(key, { type: 'hash', value: map, expiresAt: null })
    }
    for (const name of names) map.set(name, fields[name])
    this.changed(key)
  }

  /** Like HDEL; a hash left empty disappears, as in Redis. */
  hdel(key: string, fields: readonly string[]): number {
    const map = this.hash(key)
    if (!map) return 0
    const removed = fields.filter((field) => map.delete(field)).length
    this.afterRemoval(key, map.size, removed)
    return removed
  }

  set(key: string): Set<string> | undefined {
    const entry = this.lookup(key)
    if (entry && entry.type !== 'set') throw wrongType()
    return entry?.value
  }

  sadd(key: string, members: readonly string[]): number {
    if (members.length === 0) return 0
    let set = this.set(key)
    if (!set) {
      set = new Set()
      this.put(key, { type: 'set', value: set, expiresAt: null })
    }
    const before = set.size
    for (const member of members) set.add(member)
    this.changed(key)
    return set.size - before
  }

  /** Like SREM; a set left empty disappears, as in Redis. */
  srem(key: string, members: readonly string[]): number {
    const set = this.set(key)
    if (!set) return 0
    const removed = members.filter((member) => set.delete(member)).length
    this.afterRemoval(key, set.size, removed)
    return removed
  }

  /** Live keys starting with prefix, sorted so callers and tests get a stable order. */
  keys(prefix: string): string[] {
    const found: string[] = []
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(prefix) && this.lookup(key)) found.push(key)
    }
    return found.sort()
  }

  /** The check of a conditional batch: GET semantics, so a watched key of another type fails loudly. */
  unchanged(token: WatchToken): boolean {
    if (token.keys.length !== token.values.length) throw new TypeError('Malformed watch token: keys and values differ in length.')
    return token.keys.every((key, i) => this.getString(key) === token.values[i])
  }

  /**
   * Applies all ops or none (arguments were checked by checkOps): a failure while applying (a key
   * of the wrong type) restores every touched key, which is stronger than Redis, whose transactions keep
   * the writes that succeeded.
   */
  applyAll(ops: readonly WriteOp[]): void {
    const saved = new Map<string, Entry | undefined>()
    for (const op of ops) if (!saved.has(op.key)) saved.set(op.key, cloneEntry(this.lookup(op.key)))
    try {
      for (const op of ops) this.apply(op)
    } catch (err) {
      for (const [key, entry] of saved) this.restore(key, entry)
      throw err
    }
  }

  private apply(op: WriteOp): void {
    switch (op.op) {
      case 'set': return this.setString(op.key, op.value, op.ttl)
      case 'del': return void this.remove(op.key)
      case 'hset': return this.hset(op.key, op.fields)
      case 'hdel': return void this.hdel(op.key, op.fields)
      case 'sadd': return void this.sadd(op.key, op.members)
      case 'srem': return void this.srem(op.key, op.members)
      case 'expire': return void this.expire(op.key, op.ttl)
      default: throw new TypeError(`Unknown batch operation ${JSON.stringify((op as { op: unknown }).op)}.`)
    }
  }

  /** Puts an entry back as it was (snapshot load, batch rollback); undefined means absent. */
  restore(key: string, entry: Entry | undefined): void {
    if (entry) this.put(key, entry)
    else if (this.entries.has(key)) {
      this.drop(key)
      this.changed(key)
    }
  }

  /** Drops expired keys nobody has read, so abandoned sessions do not pile up in memory. */
  sweep(): void {
    for (const key of [...this.expiring]) this.lookup(key)
  }

  /** The snapshot text: every live durable key. Non-durable keys never reach the disk. */
  renderDurable(): string {
    const records: SnapshotRecord[] = []
    for (const key of [...this.entries.keys()]) {
      if (!isDurableKey(key)) continue
      const entry = this.lookup(key)
      if (entry) records.push(toRecord(key, entry))
    }
    return JSON.stringify({ version: SNAPSHOT_VERSION, entries: records })
  }

  private put(key: string, entry: Entry): void {
    this.entries.set(key, entry)
    if (entry.expiresAt === null) this.expiring.delete(key)
    else this.expiring.add(key)
    this.changed(key)
  }

  private drop(key: string): void {
    this.entries.delete(key)
    this.expiring.delete(key)
  }

  private afterRemoval(key: string, sizeLeft: number, removed: number): void {
    if (removed === 0) return
    if (sizeLeft === 0) this.drop(key)
    this.changed(key)
  }

  private changed(key: string): void {
    if (isDurableKey(key)) this.durableChanged = true
  }
}

/** In-process pub/sub. Delivery is always asynchronous so a publisher never runs subscriber code. */
class LocalPubSub {
  /** One object per subscribe call, so the same function subscribed twice is two subscriptions. */
  private readonly channels = new Map<string, Set<{ readonly handler: MessageHandler }>>()

  publish(channel: string, message: string): void {
    const subs = this.channels.get(channel)
    if (!subs || subs.size === 0) return
    const recipients = [...subs]
    queueMicrotask(() => {
      for (const sub of recipients) {
        // Checked at delivery, so nothing arrives after unsubscribe (or close) has returned.
        if (this.channels.get(channel)?.has(sub)) deliver(channel, sub.handler, message)
      }
    })
  }

  /** Returns the function that ends this subscription (idempotent). */
  subscribe(channel: string, handler: MessageHandler): () => void {
    const sub = { handler }
    let subs = this.channels.get(channel)
    if (!subs) this.channels.set(channel, (subs = new Set()))
    subs.add(sub)
    return () => {
      const current = this.channels.get(channel)
      if (!current?.delete(sub)) return
      if (current.size === 0) this.channels.delete(channel)
    }
  }

  clear(): void {
    this.channels.clear()
  }
}

/**
 * Calls a subscriber. A handler that throws must not stop delivery to the others nor crash the
 * service from inside the store; it is reported as a process warning (printed on stderr).
 */
function deliver(channel: string, handler: MessageHandler, message: string): void {
  try {
    handler(message)
  } catch (err) {
    process.emitWarning(`A store subscriber for channel "${channel}" threw: ${err instanceof Error ? err.stack : String(err)}`, 'StoreSubscriberWarning')
  }
}

/** One key in store.json. Hash fields are pairs, not an object, so no field name can clash with Object.prototype. */
type SnapshotRecord =
  | { key: string; type: 'string'; value: string; expiresAt?: number }
  | { key: string; type: 'hash'; value: [string, string][]; expiresAt?: number }
  | { key: string; type: 'set'; value: string[]; expiresAt?: number }

function toRecord(key: string, entry: Entry): SnapshotRecord {
  const expiry = entry.expiresAt === null ? {} : { expiresAt: entry.expiresAt }
  switch (entry.type) {
    case 'string': return { key, type: 'string', value: entry.value, ...expiry }
    case 'hash': return { key, type: 'hash', value: [...entry.value], ...expiry }
    case 'set': return { key, type: 'set', value: [...entry.value], ...expiry }
  }
}

/**
 * store.json: loading, and atomic, coalesced rewriting.
 *
 * At most one write is in flight. A flush requested meanwhile waits for the next write, whose
 * snapshot is rendered when it starts and therefore carries every change made in between: many
 * concurrent writers cost two disk writes, not one each, and two renames never race.
 */
class SnapshotFile {
  private inFlight: Promise<void> | null = null
  private next: Deferred | null = null
  private tempCounter = 0

  constructor(readonly path: string, private readonly render: () => string) {}

  /** Creates the folder, removes temp files a crash left behind, and reads the entries. */
  async load(): Promise<[string, Entry][]> {
    const dir = dirname(this.path)
    await mkdir(dir, { recursive: true })
    for (const name of await readdir(dir)) {
      if (name.startsWith(`${SNAPSHOT_NAME}.`) && name.endsWith('.tmp')) await unlink(join(dir, name)).catch(() => undefined)
    }
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    return parseSnapshot(text, this.path)
  }

  /** Resolves once a snapshot rendered after this call is on disk. */
  flush(): Promise<void> {
    if (this.next) return this.next.promise
    const next = (this.next = deferred())
    if (!this.inFlight) this.startWrite()
    return next.promise
  }

  /** Resolves when no write is in flight or queued (used by close). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight
  }

  private startWrite(): void {
    const waiting = this.next!
    this.next = null
    const temp = `${this.path}.${process.pid}.${++this.tempCounter}.tmp`
    let text: string
    try {
      text = this.render()
    } catch (err) {
      // Only conceivable for a snapshot too big for one string; the waiters must hear of it, not hang.
      waiting.reject(err)
      return
    }
    this.inFlight = writeAtomically(this.path, temp, text)
      .then(waiting.resolve, (err: unknown) => waiting.reject(
        new AppError('UNAVAILABLE', `The store could not save ${this.path}; try again later.`, {}, { cause: err }),
      ))
      .finally(() => {
        this.inFlight = null
        if (this.next) this.startWrite()
      })
  }
}

/** Temp file in the same folder, fsync, rename over the target, fsync the folder (so the rename itself is durable). */
async function writeAtomically(path: string, temp: string, text: string): Promise<void> {
  try {
    const file = await open(temp, 'w', 0o600)
    try {
      await file.writeFile(text, 'utf8')
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, path)
  } catch (err) {
    await unlink(temp).catch(() => undefined)
    throw err
  }
  await syncFolder(dirname(path))
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } catch (err) {
    // Some platforms (Windows) cannot fsync a folder; there the rename is as durable as it gets.
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err
  } finally {
    await handle.close()
  }
}

/** Parses store.json strictly: a damaged catalog must stop the service, never look like an empty one. */
function parseSnapshot(text: string, path: string): [string, Entry][] {
  const corrupt = (why: string): Error =>
    new Error(`The store's data file ${path} is corrupt (${why}). Restore it from a backup, or move it away to start with an empty catalog.`)
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw corrupt(`not valid JSON: ${(err as Error).message}`)
  }
  if (!isObject(doc) || !Array.isArray(doc.entries)) throw corrupt('no "entries" list')
  if (doc.version !== SNAPSHOT_VERSION) throw corrupt(`unknown version ${JSON.stringify(doc.version)}`)
  const now = Date.now()
  const result: [string, Entry][] = []
  for (const [i, rec] of doc.entries.entries()) {
    if (!isObject(rec) || typeof rec.key !== 'string') throw corrupt(`entry ${i} has no key`)
    const expiresAt = rec.expiresAt ?? null
    if (expiresAt !== null && !Number.isFinite(expiresAt)) throw corrupt(`entry ${i} has a bad expiresAt`)
    const entry = toEntry(rec.type, rec.value, expiresAt as number | null)
    if (!entry) throw corrupt(`entry ${i} (${rec.key}) has a bad type or value`)
    if (!isDurableKey(rec.key) || (entry.expiresAt !== null && entry.expiresAt <= now)) continue
    result.push([rec.key, entry])
  }
  return result
}

function toEntry(type: unknown, value: unknown, expiresAt: number | null): Entry | null {
  const strings = (xs: unknown): xs is string[] => Array.isArray(xs) && xs.every((x) => typeof x === 'string')
  if (type === 'string' && typeof value === 'string') return { type, value, expiresAt }
  if (type === 'set' && strings(value)) return { type, value: new Set(value), expiresAt }
  if (type === 'hash' && Array.isArray(value) && value.every((pair) => strings(pair) && pair.length === 2)) {
    return { type, value: new Map(value as [string, string][]), expiresAt }
  }
  return null
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/** A copy that later in-place changes (hset, sadd) cannot reach; used to undo a failed batch. */
function cloneEntry(entry: Entry | undefined): Entry | undefined {
  if (!entry) return undefined
  switch (entry.type) {
    case 'string': return { ...entry }
    case 'hash': return { ...entry, value: new Map(entry.value) }
    case 'set': return { ...entry, value: new Set(entry.value) }
  }
}

/** The same rule as the Redis store, so callers see identical behaviour: whole seconds, above 0. */
function checkTtl(ttl: number): void {
  if (!Number.isInteger(ttl) || ttl <= 0) throw new RangeError(`A TTL must be a whole number of seconds above 0 (got ${ttl}).`)
}

/** Rejects bad TTLs and unknown operations before anything is applied. */
function checkOps(ops: readonly WriteOp[]): void {
  for (const op of ops) {
    if (op.op === 'expire' || (op.op === 'set' && op.ttl !== undefined)) checkTtl(op.ttl!)
    else if (!['set', 'del', 'hset', 'hdel', 'sadd', 'srem'].includes(op.op)) {
      throw new TypeError(`Unknown batch operation ${JSON.stringify(op.op)}.`)
    }
  }
}

function expiryFor(ttl: number): number {
  return Date.now() + ttl * 1000
}

/** Redis's own message, so code and logs read the same whichever store is behind them. */
function wrongType(): Error {
  return new Error('WRONGTYPE Operation against a key holding the wrong kind of value')
}

function parseInteger(value: string): number {
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) throw new Error('ERR value is not an integer or out of range')
  return n
}

interface Deferred {
  readonly promise: Promise<void>
  readonly resolve: () => void
  readonly reject: (err: unknown) => void
}

function deferred(): Deferred {
  let resolve!: () => void
  let reject!: (err: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
