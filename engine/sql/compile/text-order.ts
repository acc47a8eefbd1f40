/**
 * Whether the engine's order of some text is SQLite's. The engine orders text as JavaScript
 * compares strings, by UTF-16 code units; SQLite's BINARY collation compares UTF-8 bytes. The two
 * orders agree for every text without a code unit from 0xD800 up (surrogates, private use and
 * the last block of the BMP): such text makes a compiled query that orders text run on sql.js.
 */
import type { SharedDictionary } from '../../../shared/protocol.js'

const checked = new WeakMap<SharedDictionary, boolean>()

const FIRST_UNSAFE = 0xd800

/** True when no entry of the dictionary holds a code unit at or above 0xD800 (cached per dictionary). */
export function ordersAsSqlite(d: SharedDictionary): boolean {
  const known = checked.get(d)
  if (known !== undefined) return known
  const units = new Uint16Array(d.units)
  let safe = true
  for (let i = 0; i < units.length; i++) {
    if (units[i] >= FIRST_UNSAFE) {
      safe = false
      break
    }
  }
  checked.set(d, safe)
  return safe
}

/** The same for a text written in the query. */
export const textOrdersAsSqlite = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= FIRST_UNSAFE) return false
  return true
}
