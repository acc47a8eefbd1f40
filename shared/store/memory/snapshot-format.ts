/**
 * The layout of store.json, in both directions. Reading is strict: a damaged catalog must stop
 * the service, never look like an empty one.
 */
import { isDurableKey } from '../types.js'
import type { Entry } from './entry.js'

/** Bumped when the snapshot layout changes, so an old binary refuses a newer file instead of misreading it. */
const SNAPSHOT_VERSION = 1

/** One key in store.json. Hash fields are pairs, not an object, so no field name can clash with Object.prototype. */
type SnapshotRecord =
  | { key: string; type: 'string'; value: string; expiresAt?: number }
  | { key: string; type: 'hash'; value: [string, string][]; expiresAt?: number }
  | { key: string; type: 'set'; value: string[]; expiresAt?: number }

/** The snapshot text for the given (live, durable) entries. */
export function renderSnapshot(entries: readonly (readonly [string, Entry])[]): string {
  return JSON.stringify({ version: SNAPSHOT_VERSION, entries: entries.map(([key, entry]) => toRecord(key, entry)) })
}

/**
 * Parses store.json, naming `path` in any error. Keys that are not durable or have already
 * expired are left out: they would not have been written, or are gone anyway.
 */
export function parseSnapshot(text: string, path: string): [string, Entry][] {
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

function toRecord(key: string, entry: Entry): SnapshotRecord {
  const expiry = entry.expiresAt === null ? {} : { expiresAt: entry.expiresAt }
  switch (entry.type) {
    case 'string':
      return { key, type: 'string', value: entry.value, ...expiry }
    case 'hash':
      return { key, type: 'hash', value: [...entry.value], ...expiry }
    case 'set':
      return { key, type: 'set', value: [...entry.value], ...expiry }
  }
}

/** The entry a record describes, or null when its type and value do not fit together. */
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
