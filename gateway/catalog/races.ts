/**
 * What a change built from one table version does when it loses the race to commit (an append, an
 * upload appended in chunks). On one gateway such changes to one table take turns, so they never
 * race each other at all. Across gateways, a loser starts again from the new version after a pause
 * that grows and is random, so writers stop colliding; and when it still loses after its last
 * attempt, it says what changed, as 409 `conflict`, rather than a 503 that reads like an outage.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { KEYS, parseRecord, type TableRecord } from './records.js'

/** The last change queued for each table path on this gateway. */
const queues = new Map<string, Promise<unknown>>()

/** Runs `work` after every change to `path` queued on this gateway before it has settled. */
export function inTurn<T>(path: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(path) ?? Promise.resolve()
  const mine = before.then(work, work)
  const settled = mine.then(
    () => undefined,
    () => undefined,
  )
  queues.set(path, settled)
  // The last in the queue removes it, so the map holds only tables being written now.
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path)
  })
  return mine
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Before attempt `attempt + 1`: up to 10, 20, 40 … ms, at most 500. */
export function raceBackoff(attempt: number): Promise<void> {
  return pause(Math.random() * Math.min(500, 10 * 2 ** (attempt - 1)))
}

/** The 409 for a change to `path` that started from `started` and kept losing to other writers. */
export async function keptChanging(store: Store, path: string, started: TableRecord | null, retry: string): Promise<AppError> {
  const now = parseRecord<TableRecord>(await store.get(KEYS.table(path)))
  const was = started ? `version ${started.version} (${started.rows} rows)` : 'absent'
  const is = now ? `version ${now.version} (${now.rows} rows, updated ${now.updated})` : 'dropped'
  return new AppError(
    'CONFLICT',
    `The table "${path}" kept changing while this change was being saved: it was ${was} when the change began and is now ${is}, after other writers changed it each time this one tried; nothing was saved; ${retry}.`,
    { table: path, startedFrom: started?.version ?? null, now: now?.version ?? null },
  )
}
