/**
 * The lock that lets one chunk (or the commit, or the abort) of an upload work at a time, on
 * whichever gateway it arrives: a key in the Store that the holder refreshes and releases.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../../shared/errors.js'
import type { Store } from '../../../shared/store/types.js'
import { readState, type UploadAccess, type UploadState } from './state.js'

const lockKey = (id: string): string => `upload-lock:${id}`

/** How long a chunk may hold the lock; a commit refreshes its own while it works. */
export const CHUNK_LOCK_SECONDS = 120
export const COMMIT_LOCK_SECONDS = 120
/** How long a chunk waits for the one before it (sent to another gateway) to finish. */
export const LOCK_WAIT_MS = 30_000

export interface Lock {
  release(): Promise<void>
  refresh(): Promise<boolean>
}

/**
 * Runs `work` on the upload's state read under its lock, which it holds until `work` is done.
 * The state is read once before too, so a missing (or someone else's) upload is refused at once
 * rather than after waiting for the lock.
 */
export async function withLockedUpload<T>(
  access: UploadAccess,
  id: string,
  lockSeconds: number,
  signal: AbortSignal,
  work: (state: UploadState, held: Lock) => Promise<T>,
): Promise<T> {
  await readState(access, id)
  const held = await lock(access.store, id, lockSeconds, signal)
  try {
    return await work(await readState(access, id), held)
  } finally {
    await held.release()
  }
}

/** Takes the upload's lock, waiting while another chunk (perhaps on another gateway) holds it. */
async function lock(store: Store, id: string, seconds: number, signal: AbortSignal): Promise<Lock> {
  const token = randomBytes(8).toString('hex')
  const deadline = Date.now() + LOCK_WAIT_MS
  while (!(await store.set(lockKey(id), token, { nx: true, ttl: seconds }))) {
    if (Date.now() > deadline || signal.aborted) {
      throw new AppError('TOO_MANY_REQUESTS', `Upload "${id}" is busy with another chunk or its commit; send its chunks one at a time.`, {
        upload: id,
        retryAfter: 1,
      })
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  return {
    refresh: () => store.expire(lockKey(id), seconds),
    async release() {
      // Only our own lock: one that expired and was taken by someone else stays theirs.
      const watched = await store.watch([lockKey(id)])
      if (watched.values[0] === token) await store.batch([{ op: 'del', key: lockKey(id) }], watched)
    },
  }
}
