/**
 * Atomic catalog changes: optimistic concurrency over the Store. A change reads the keys it
 * depends on under watch, plans its writes from what it read (and may read more), and commits
 * them in one batch that applies only if none of the watched keys changed meanwhile; otherwise
 * it starts again from fresh reads. Two gateways changing the same object therefore never
 * interleave, and a reader never sees half a change.
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WatchToken, WriteOp } from '../../shared/store/types.js'
import { isAppliedUnsaved } from '../../shared/store/unsaved.js'

export interface TxnPlan<T> {
  readonly ops: readonly WriteOp[]
  readonly result: T
}

/** The watched keys' values, by key, as they were when the attempt began. */
export type Watched = ReadonlyMap<string, string | null>

const MAX_ATTEMPTS = 25

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Marks an error of the commit itself as one whose outcome is unknown: the batch may have been
 * applied although its answer never arrived (Redis timed out or went away after receiving it; the
 * memory store applied it but could not write it to disk). Callers that undo side effects of a
 * failed change (deleting a table version written for it) must not do so on such an error
 * without first checking whether the change is there (see commitTable).
 */
export const OUTCOME_UNKNOWN = 'outcomeUnknown'

export function isOutcomeUnknown(err: unknown): err is AppError {
  // A change known to be in effect but not saved (shared/store/unsaved.ts) must not be undone either.
  return err instanceof AppError && (err.detail[OUTCOME_UNKNOWN] === true || isAppliedUnsaved(err))
}

/** Runs the batch; a store failure (UNAVAILABLE) during it comes back marked OUTCOME_UNKNOWN. */
async function commit(store: Store, ops: readonly WriteOp[], token: WatchToken): Promise<boolean> {
  try {
    return await store.batch(ops, token)
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'UNAVAILABLE' || isAppliedUnsaved(err)) throw err
    throw new AppError('UNAVAILABLE', err.message, { ...err.detail, [OUTCOME_UNKNOWN]: true }, { cause: err.cause ?? err })
  }
}

/**
 * Runs `plan` until its batch commits. `keys` is asked again on every attempt, so a change whose
 * key set depends on the catalog (dropping a folder tree) watches what is there now. Errors
 * thrown by `plan` (validation, permissions) end the change with nothing written; a store failure
 * while committing ends it with an error marked OUTCOME_UNKNOWN.
 */
export async function catalogTxn<T>(
  store: Store,
  keys: () => readonly string[] | Promise<readonly string[]>,
  plan: (watched: Watched) => TxnPlan<T> | Promise<TxnPlan<T>>,
): Promise<T> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const token = await store.watch([...new Set(await keys())])
    const watched = new Map(token.keys.map((k, i) => [k, token.values[i]]))
    const { ops, result } = await plan(watched)
    if (ops.length === 0 || (await commit(store, ops, token))) return result
    // Someone else changed what this change read: back off a little (with jitter) and redo it.
    await pause(Math.random() * Math.min(50, 2 ** attempt))
  }
  throw new AppError('UNAVAILABLE', 'The catalog is busy with other changes to the same objects; try again.')
}
