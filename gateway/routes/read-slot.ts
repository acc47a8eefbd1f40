/**
 * Reads of rows take query slots too. `!data` and `!head` of a kept result and a stored table's
 * rows (`api/{path}`) read, render and stream as much as a query answers, so they count against
 * MAX_QUERIES_PER_SESSION and MAX_QUERIES_PER_USER like queries: without this, one session read
 * the same large table eight times at once while its query slots stood empty. The slot is held
 * until the response has ended (its body streams after the route has returned), and a session or
 * user at the limit is answered 429 as a query would be.
 */
import type { Context } from 'koa'
import type { Deps } from '../deps.js'
import { authState } from '../auth/require-session.js'
import { acquireQuerySlot } from '../query/running/index.js'

/** The read methods that take a slot; `!cols` and `!rows` read metadata only. */
const READS_ROWS: ReadonlySet<string | undefined> = new Set(['data', 'head', undefined])

/**
 * Takes a slot of the session and of its user for the rest of the response when `method` reads
 * rows (`undefined`: a table's bare URL, which answers its rows). Call it once the result to read
 * is at hand: a recomputation on the way holds a slot of its own while it runs.
 */
export async function holdReadSlot(ctx: Context, deps: Pick<Deps, 'store' | 'config'>, method: string | undefined): Promise<void> {
  if (!READS_ROWS.has(method)) return
  const { session } = authState(ctx)
  const lease = await acquireQuerySlot(deps.store, session, { perSession: deps.config.maxQueriesPerSession, perUser: deps.config.maxQueriesPerUser })
  // 'close' comes once the response has ended, sent in full or cut off.
  ctx.res.once('close', () => void lease.release())
}
