/**
 * Store#batch for the embedded store: argument checks, the optional watch condition, and
 * all-or-nothing application of the writes.
 */
import type { WatchToken, WriteOp } from '../types.js'
import { checkTtl, cloneEntry } from './entry.js'
import type { Entry } from './entry.js'
import type { Keyspace } from './keyspace.js'

type Applier<K extends WriteOp['op']> = (keyspace: Keyspace, op: Extract<WriteOp, { readonly op: K }>) => void

/** How each kind of op is applied; the one list of ops, so the check and the application cannot drift apart. */
const APPLIERS: { readonly [K in WriteOp['op']]: Applier<K> } = {
  set: (keyspace, op) => keyspace.setString(op.key, op.value, op.ttl),
  del: (keyspace, op) => void keyspace.remove(op.key),
  hset: (keyspace, op) => keyspace.hset(op.key, op.fields),
  hdel: (keyspace, op) => void keyspace.hdel(op.key, op.fields),
  sadd: (keyspace, op) => void keyspace.sadd(op.key, op.members),
  srem: (keyspace, op) => void keyspace.srem(op.key, op.members),
  expire: (keyspace, op) => void keyspace.expire(op.key, op.ttl),
}
const KNOWN_OPS: ReadonlySet<unknown> = new Set(Object.keys(APPLIERS))

/**
 * Runs a batch synchronously: returns false (writing nothing) when `ifUnchanged` no longer holds.
 * Arguments are checked first, like the Redis store, so a bad op fails the same way whatever the condition.
 */
export function runBatch(keyspace: Keyspace, ops: readonly WriteOp[], ifUnchanged?: WatchToken): boolean {
  checkOps(ops)
  if (ifUnchanged && !unchanged(keyspace, ifUnchanged)) return false
  applyAll(keyspace, ops)
  return true
}

/** Rejects bad TTLs and unknown operations before anything is applied. */
function checkOps(ops: readonly WriteOp[]): void {
  for (const op of ops) {
    if (op.op === 'expire' || (op.op === 'set' && op.ttl !== undefined)) checkTtl(op.ttl!)
    else if (!KNOWN_OPS.has(op.op)) throw new TypeError(`Unknown batch operation ${JSON.stringify(op.op)}.`)
  }
}

/** The check of a conditional batch: GET semantics, so a watched key of another type fails loudly. */
function unchanged(keyspace: Keyspace, token: WatchToken): boolean {
  if (token.keys.length !== token.values.length) throw new TypeError('Malformed watch token: keys and values differ in length.')
  return token.keys.every((key, i) => keyspace.getString(key) === token.values[i])
}

/**
 * Applies all ops or none (arguments were checked by checkOps): a failure while applying (a key
 * of the wrong type) restores every touched key, which is stronger than Redis, whose transactions keep
 * the writes that succeeded.
 */
function applyAll(keyspace: Keyspace, ops: readonly WriteOp[]): void {
  const saved = new Map<string, Entry | undefined>()
  for (const op of ops) if (!saved.has(op.key)) saved.set(op.key, cloneEntry(keyspace.lookup(op.key)))
  try {
    for (const op of ops) (APPLIERS[op.op] as Applier<WriteOp['op']>)(keyspace, op)
  } catch (err) {
    for (const [key, entry] of saved) keyspace.restore(key, entry)
    throw err
  }
}
