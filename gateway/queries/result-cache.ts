/**
 * Results are pure functions of a query and the table versions it read, so the gateway memoises
 * them by that recipe. The Store keeps only the recipe (small), so any gateway can serve
 * `!data` of a result computed elsewhere: from its own cache, or by computing it again.
 */
import { createHash } from 'node:crypto'
import type { ResultSet } from '../../shared/protocol.js'
import { LruCache } from '../lru.js'

const stringsBytes = (strings: readonly string[]): number => strings.reduce((s, v) => s + 2 * v.length + 16, 0)

export function resultBytes(r: ResultSet): number {
  let n = 256
  for (const c of r.columns) {
    if (c.kind === 'text') n += stringsBytes(c.data)
    else if (c.kind === 'coded') n += c.codes.byteLength + stringsBytes(c.dict)
    else n += c.data.byteLength
  }
  return n
}

export const recipeKey = (recipe: unknown): string => createHash('sha256').update(JSON.stringify(recipe)).digest('hex')

export function createResultCache(budgetBytes: number): LruCache<ResultSet> {
  return new LruCache<ResultSet>(budgetBytes, resultBytes)
}
