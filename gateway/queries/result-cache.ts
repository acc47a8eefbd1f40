/**
 * Results are pure functions of a query and the table versions it read, so the gateway memoises
 * them by that recipe. The Store keeps only the recipe (small), so any gateway can serve
 * `!data` of a result computed elsewhere: from its own cache, or by computing it again.
 */
import { createHash } from 'node:crypto'
import type { ResultSet } from '../../shared/protocol.js'
import { LruCache } from '../lru.js'

/**
 * What an entry of the memo costs in the gateway's memory, so that its budget bounds memory and
 * not only column bytes. Measured with heap snapshots and process.memoryUsage() after collection
 * (2026-11-27, Node 20; test/gateway/cache-charges.test.ts keeps it honest): a result that came
 * from a worker takes about 650 bytes whatever its columns (the entry, the ResultSet, its arrays,
 * the 64-character key and the Map slot), and each column about 500 more (its object, its typed
 * array's object and backing store, its ColumnMeta and their strings). Charging only the column
 * data, as before, counted a one-row result at a sixth of its size, so a budget of 256 MiB let the
 * memo grow to gigabytes under distinct small queries.
 */
const ENTRY_OVERHEAD_BYTES = 640
const COLUMN_OVERHEAD_BYTES = 512
/** A string: its UTF-16 characters (one-byte strings take less), its header and its array slot. */
const stringsBytes = (strings: readonly string[]): number => strings.reduce((s, v) => s + 2 * v.length + 24, 0)

export function resultBytes(r: ResultSet): number {
  let n = ENTRY_OVERHEAD_BYTES
  for (const c of r.columns) {
    n += COLUMN_OVERHEAD_BYTES
    if (c.kind === 'text') n += stringsBytes(c.data)
    else if (c.kind === 'coded') n += c.codes.byteLength + stringsBytes(c.dict)
    else n += c.data.byteLength
  }
  for (const m of r.cols) n += 2 * (m.name.length + m.label.length + m.desc.length + m.format.length)
  return n
}

export const recipeKey = (recipe: unknown): string => createHash('sha256').update(JSON.stringify(recipe)).digest('hex')

export function createResultCache(budgetBytes: number): LruCache<ResultSet> {
  return new LruCache<ResultSet>(budgetBytes, resultBytes)
}
