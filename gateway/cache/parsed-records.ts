/**
 * Catalog records parsed once per distinct stored text. Table records carry their column list,
 * so parsing them is a noticeable part of a small query; the text is still read from the Store
 * on every request (which version a name means must be fresh on every gateway), and only the
 * JSON.parse of a text seen before is skipped. The parse of a text never changes, so an entry
 * cannot be stale. Records are frozen because every caller now shares them.
 */
import { ClockCache } from './clock-cache.js'

/** Distinct record texts kept (a table record is a few KB at most). */
const MAX_RECORDS = 2000

const parsed = new ClockCache<object>(MAX_RECORDS, () => 1)

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** The record stored as `raw` (null when absent), shared and frozen. */
export function parseRecordOnce<T>(raw: string | null): T | null {
  if (raw === null) return null
  const hit = parsed.get(raw)
  if (hit !== undefined) return hit as T
  const record = deepFreeze(JSON.parse(raw) as object)
  parsed.set(raw, record)
  return record as T
}
