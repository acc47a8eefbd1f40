/** Copying a fresh result to the Store for other gateways, at most once per half TTL per key. */
import type { ResultSet } from '../../shared/protocol.js'
import type { Deps } from '../deps.js'

/**
 * Writes the result under its recipe key unless this gateway wrote it lately (RecentStoreCopies).
 * Runs in the background: a failed write only costs another gateway a recompute, and is retried
 * by the next request for the same result.
 */
export function copyToStoreOnce(deps: Deps, key: string, result: ResultSet): void {
  if (!deps.caches.storeCopies.claim(key)) return
  deps.resultStore.save(key, result).catch((err: unknown) => {
    deps.caches.storeCopies.forget(key)
    deps.log({ level: 'warn', msg: 'result not kept in the store', key, err: String(err) })
  })
}
