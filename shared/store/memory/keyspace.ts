/**
 * The embedded store's data: typed entries with expiry, and the Redis semantics of each operation.
 *
 * Expiry is lazy (an expired key is dropped when it is next looked up) plus a periodic sweep of
 * the keys that carry a TTL, so keys nobody reads again do not pile up.
 *
 * Evictable keys (kept results, isEvictableKey) are also bounded in bytes: past `cacheBytes`, the
 * oldest written are dropped, as Redis does under maxmemory. Without the bound, a client sending
 * distinct queries grew the process by every result kept for SESSION_TTL (an hour).
 */
import { isDurableKey, isEvictableKey } from '../types.js'
import { expiryFor, wrongType } from './entry.js'
import type { Entry } from './entry.js'

/** The entry of one type; the type parameter names it by its tag. */
type EntryOf<T extends Entry['type']> = Extract<Entry, { readonly type: T }>

/** What hdel and srem remove from: a hash's fields or a set's members. */
interface Members {
  delete(member: string): boolean
  readonly size: number
}

/** All keys of one embedded store. Every method is synchronous, which is what makes each call atomic. */
export class Keyspace {
  private readonly entries = new Map<string, Entry>()
  /** Keys that carry an expiry, so the sweep does not walk every key. */
  private readonly expiring = new Set<string>()
  /** Set by any change to a durable key; the store resets it and waits for the disk when it is set. */
  durableChanged = false
  /** Evictable string keys and their sizes in bytes, oldest written first. */
  private readonly evictable = new Map<string, number>()
  private evictableBytes = 0

  /** `cacheBytes`: what evictable keys may take in all (unbounded when omitted). */
  constructor(private readonly cacheBytes = Number.POSITIVE_INFINITY) {}

  /** Bytes the evictable keys take now (an estimate: two bytes a character). */
  get cachedBytes(): number {
    return this.evictableBytes
  }

  /** The live entry; an expired one is dropped here (lazy expiry) and reads as missing. */
  lookup(key: string): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.drop(key)
      return undefined
    }
    return entry
  }

  /** Like GET: WRONGTYPE for a key of another type. */
  getString(key: string): string | null {
    return this.typed(key, 'string')?.value ?? null
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
    const entry = this.typed(key, 'string')
    const current = entry ? parseInteger(entry.value) : 0
    if (current >= Number.MAX_SAFE_INTEGER) throw new Error('ERR increment or decrement would overflow')
    const next = current + 1
    this.put(key, { type: 'string', value: String(next), expiresAt: entry?.expiresAt ?? null })
    return next
  }

  hash(key: string): Map<string, string> | undefined {
    return this.typed(key, 'hash')?.value
  }

  hset(key: string, fields: Readonly<Record<string, string>>): void {
    const names = Object.keys(fields)
    if (names.length === 0) return
    const map = this.hash(key) ?? this.create(key, { type: 'hash', value: new Map(), expiresAt: null }).value
    for (const name of names) map.set(name, fields[name])
    this.changed(key)
  }

  /** Like HDEL; a hash left empty disappears, as in Redis. */
  hdel(key: string, fields: readonly string[]): number {
    return this.removeMembers(key, this.hash(key), fields)
  }

  set(key: string): Set<string> | undefined {
    return this.typed(key, 'set')?.value
  }

  sadd(key: string, members: readonly string[]): number {
    if (members.length === 0) return 0
    const set = this.set(key) ?? this.create(key, { type: 'set', value: new Set(), expiresAt: null }).value
    const before = set.size
    for (const member of members) set.add(member)
    this.changed(key)
    return set.size - before
  }

  /** Like SREM; a set left empty disappears, as in Redis. */
  srem(key: string, members: readonly string[]): number {
    return this.removeMembers(key, this.set(key), members)
  }

  /** Live keys starting with prefix, sorted so callers and tests get a stable order. */
  keys(prefix: string): string[] {
    return this.live((key) => key.startsWith(prefix))
      .map(([key]) => key)
      .sort()
  }

  /** The live entries whose key passes the filter, in insertion order (expired ones are dropped on the way). */
  live(filter: (key: string) => boolean): [string, Entry][] {
    const found: [string, Entry][] = []
    for (const key of [...this.entries.keys()]) {
      if (!filter(key)) continue
      const entry = this.lookup(key)
      if (entry) found.push([key, entry])
    }
    return found
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

  /** The live entry if it has the given type, undefined when absent; WRONGTYPE when it holds another type. */
  private typed<T extends Entry['type']>(key: string, type: T): EntryOf<T> | undefined {
    const entry = this.lookup(key)
    if (entry && entry.type !== type) throw wrongType()
    return entry as EntryOf<T> | undefined
  }

  /** Stores a new, empty container (a hash or set about to be filled) and returns it. */
  private create<E extends Entry>(key: string, entry: E): E {
    this.put(key, entry)
    return entry
  }

  /** HDEL and SREM: removes what is there, and the key itself once nothing is left. */
  private removeMembers(key: string, from: Members | undefined, members: readonly string[]): number {
    if (!from) return 0
    const removed = members.filter((member) => from.delete(member)).length
    if (removed === 0) return 0
    if (from.size === 0) this.drop(key)
    this.changed(key)
    return removed
  }

  private put(key: string, entry: Entry): void {
    this.entries.set(key, entry)
    if (entry.expiresAt === null) this.expiring.delete(key)
    else this.expiring.add(key)
    this.changed(key)
    if (isEvictableKey(key)) this.account(key, entry)
  }

  private drop(key: string): void {
    this.entries.delete(key)
    this.expiring.delete(key)
    this.forget(key)
  }

  /** Counts an evictable key as the newest, then drops the oldest while over the budget. */
  private account(key: string, entry: Entry): void {
    this.forget(key)
    const bytes = 2 * (key.length + (entry.type === 'string' ? entry.value.length : 0)) + 64
    this.evictable.set(key, bytes)
    this.evictableBytes += bytes
    for (const [oldest] of this.evictable) {
      if (this.evictableBytes <= this.cacheBytes || oldest === key) break
      this.drop(oldest)
    }
  }

  private forget(key: string): void {
    const bytes = this.evictable.get(key)
    if (bytes === undefined) return
    this.evictable.delete(key)
    this.evictableBytes -= bytes
  }

  private changed(key: string): void {
    if (isDurableKey(key)) this.durableChanged = true
  }
}

function parseInteger(value: string): number {
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) throw new Error('ERR value is not an integer or out of range')
  return n
}
