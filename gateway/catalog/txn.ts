/**
 * Atomic catalog changes: optimistic concurrency over the Store. A change reads the keys it
 * depends on under watch, plans its writes from what it read (and may read more), and commits
 * them in one batch that applies only if none of the watched keys changed meanwhile; otherwise
 * it starts again from fresh reads. Two gateways changing the same object therefore never
 * interleave, and a reader never sees half a change.
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'

export interface TxnPlan<T> {
  readonly ops: readonly WriteOp[]
  readonly result: T
}

/** The watched keys' values, by key, as they were when the attempt began. */
export type Watched = ReadonlyMap<string, string | null>

const MAX_ATTEMPTS = 25

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs `plan` until its batch commits. `keys` is asked again on every attempt, so a change whose
 * key set depends on the catalog (dropping a folder tree) watches what is there now. Errors
 * thrown by `plan` (validation, permissions) end the change with nothing written.
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
    if (ops.length === 0 || (await store.batch(ops, token))) return result
    // Someone else changed what this change read: back off a little (with jitter) and redo it.
    await pause(Math.random() * Math.min(50, 2 ** attempt))
  }
  throw new AppError('UNAVAILABLE', 'The catalog is busy with other changes to the same objects; try again.')
}
