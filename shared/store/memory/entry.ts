/**
 * What the embedded store keeps per key, and the rules every operation on it shares: typed
 * values, expiry timestamps, the TTL argument rule and Redis's error for a key of the wrong type.
 */

interface StringEntry {
  readonly type: 'string'
  readonly value: string
  expiresAt: number | null
}
interface HashEntry {
  readonly type: 'hash'
  readonly value: Map<string, string>
  expiresAt: number | null
}
interface SetEntry {
  readonly type: 'set'
  readonly value: Set<string>
  expiresAt: number | null
}
/** One key's value; expiresAt is a Date.now() timestamp in milliseconds, null for no expiry. */
export type Entry = StringEntry | HashEntry | SetEntry

/** A copy that later in-place changes (hset, sadd) cannot reach; used to undo a failed batch. */
export function cloneEntry(entry: Entry | undefined): Entry | undefined {
  if (!entry) return undefined
  switch (entry.type) {
    case 'string':
      return { ...entry }
    case 'hash':
      return { ...entry, value: new Map(entry.value) }
    case 'set':
      return { ...entry, value: new Set(entry.value) }
  }
}

/** The same rule as the Redis store, so callers see identical behaviour: whole seconds, above 0. */
export function checkTtl(ttl: number): void {
  if (!Number.isInteger(ttl) || ttl <= 0) throw new RangeError(`A TTL must be a whole number of seconds above 0 (got ${ttl}).`)
}

/** The expiresAt of a key given a (checked) TTL in seconds from now. */
export function expiryFor(ttl: number): number {
  return Date.now() + ttl * 1000
}

/** Redis's own message, so code and logs read the same whichever store is behind them. */
export function wrongType(): Error {
  return new Error('WRONGTYPE Operation against a key holding the wrong kind of value')
}
