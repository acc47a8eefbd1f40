/**
 * Hash tags for Redis Cluster: which keys must live in one slot, and how a key's name says so.
 *
 * In a cluster, a transaction (MULTI), a script (the conditional batch's EVAL) and a multi-key
 * command only work on keys of one hash slot, and Redis picks the slot from the part of the name
 * between the first `{` and the next `}` (the hash tag), or from the whole name without one. So
 * every group of keys the service changes together must share a tag, while unrelated data should
 * not, or one master would carry everything. This file is the one place that says which keys
 * belong together; the store applies it in cluster mode only, so a single Redis and the memory
 * store keep their key names (and the catalog's durable keys never need renaming).
 *
 * The groups, by the family before a key's first `:`:
 *
 *   cat:*  seq:*                    {cat}       catalog transactions span folders, tables, users,
 *                                               groups, roles and the object-id counter, so the
 *                                               whole catalog is one group (it is small and read
 *                                               far more than written; gateways cache it)
 *   sess:S  sessdata:S  sessinst:S  {s:S}       one session's record, state and instance list
 *   user-sess:U  userq:U  sessq:U:S {u:U}       a user's live-session pointer and query slots: a
 *                                               query takes a slot of its session and of its user
 *                                               in one compare-and-set, so the session's slot key
 *                                               carries the uid (gateway/query/running/session-slots.ts)
 *   inst:T instvars:T inststate:T
 *   instlock:T                      {i:T}       one instance's record, variables, state and lock
 *   res:K:…                         {r:K}       one kept result's meta and chunks
 *
 * Everything else (running markers, login throttle counters, uploads, locks) is only ever touched
 * one key at a time, or read together without needing a snapshot, and keeps no tag, so it spreads
 * over all slots. A key that already carries its own `{…}` keeps it (tests use that to group
 * arbitrary keys). What crosses groups in the gateway is written without a transaction on
 * purpose (a session's record and its user's pointer, an instance and its session's list) and the
 * call sites say why; a batch or conditional batch over keys of two slots is refused by the store
 * with an error naming the keys, never split.
 *
 * In cluster mode the stored name is `{tag}` + key (after the deployment's REDIS_KEY_PREFIX, which
 * therefore must not contain braces).
 */
import { createHash } from 'node:crypto'

/** The family (text before the first `:`) → the tag of a key of that family, from the rest. */
const RULES: Readonly<Record<string, (rest: string) => string>> = {
  cat: () => 'cat',
  seq: () => 'cat',
  sess: (sid) => `s:${sid}`,
  sessdata: (sid) => `s:${sid}`,
  sessinst: (sid) => `s:${sid}`,
  'user-sess': (uid) => `u:${uid}`,
  userq: (uid) => `u:${uid}`,
  // sessq:<uid>:<sid>; a sid is digits, so the uid is everything before the last colon.
  sessq: (rest) => `u:${rest.includes(':') ? rest.slice(0, rest.lastIndexOf(':')) : rest}`,
  inst: (tag) => `i:${tag}`,
  instvars: (tag) => `i:${tag}`,
  inststate: (tag) => `i:${tag}`,
  instlock: (tag) => `i:${tag}`,
  // res:<key>:meta and res:<key>:<gen>:<i>; result keys are hex digests without colons.
  res: (rest) => `r:${rest.includes(':') ? rest.slice(0, rest.indexOf(':')) : rest}`,
}

/** Whether a name carries a hash tag of its own: a `{` later followed by `}` with text between. */
export function ownHashTag(name: string): string | null {
  const open = name.indexOf('{')
  if (open < 0) return null
  const close = name.indexOf('}', open + 1)
  return close > open + 1 ? name.slice(open + 1, close) : null
}

/** The tag the store gives a key in cluster mode; null for a key hashed by its own name. */
export function clusterTagOf(key: string): string | null {
  if (ownHashTag(key) !== null) return null
  const colon = key.indexOf(':')
  const rule = colon > 0 ? RULES[key.slice(0, colon)] : undefined
  if (!rule) return null
  const tag = rule(key.slice(colon + 1))
  // Braces inside the tag would end it early; ids with braces (never made by the gateway) are hashed instead.
  return /[{}]/.test(tag) ? 'h:' + createHash('sha256').update(tag).digest('hex').slice(0, 24) : tag
}

/** The stored name of a key in cluster mode (without the deployment prefix). */
export function clusterName(key: string): string {
  const tag = clusterTagOf(key)
  return tag === null ? key : `{${tag}}${key}`
}

/** The key a stored name (without prefix) stands for; the inverse of clusterName. */
export function keyOfClusterName(name: string): string {
  if (name.startsWith('{')) {
    const close = name.indexOf('}')
    const key = name.slice(close + 1)
    if (close > 0 && clusterName(key) === name) return key
  }
  return name
}

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster takes modulo 16384 for a key's slot. */
const CRC_TABLE = (() => {
  const table = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let crc = i << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    table[i] = crc
  }
  return table
})()

/** The hash slot (0…16383) Redis Cluster stores a full stored name in. */
export function hashSlot(name: string): number {
  const bytes = Buffer.from(ownHashTag(name) ?? name, 'utf8')
  let crc = 0
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ byte) & 0xff]
  return crc % 16384
}
