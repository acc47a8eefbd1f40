/**
 * The order of an upload's chunks when the client numbers them (`seq`): a chunk sent before the
 * one ahead of it is answered waits for its turn, as long as every chunk ahead of it is on its
 * way (marked in flight, on any gateway); one that skipped a chunk is refused.
 */
import { AppError } from '../../../shared/errors.js'
import { LOCK_WAIT_MS } from './lock.js'
import { readState, type UploadAccess } from './state.js'

/** Set while a request carries chunk `seq` of the upload (see awaitTurn). */
export const inFlightKey = (id: string, seq: number): string => `upload-chunk:${id}:${seq}`

/**
 * Waits until chunk `seq` is the next to apply, while every chunk before it is on its way (marked
 * in flight by the request carrying it, on any gateway). A chunk before it that is neither applied
 * nor on its way is refused at once: the client skipped it.
 */
export async function awaitTurn(access: UploadAccess, id: string, seq: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    const state = await readState(access, id)
    if (seq <= state.chunks + 1) return
    for (let before = state.chunks + 1; before < seq; before++) {
      if ((await access.store.get(inFlightKey(id, before))) !== null) continue
      // Applied meanwhile? Then look again from the new state.
      if ((await readState(access, id)).chunks >= before) break
      throw new AppError(
        'INVALID_PARAMETER',
        `Chunk ${seq} of upload "${id}" came before chunk ${before}, which was not sent or was refused; send the chunks in order.`,
        { parameter: 'seq' },
      )
    }
    if (Date.now() > deadline || signal.aborted) {
      throw new AppError('TOO_MANY_REQUESTS', `Upload "${id}" is busy with the chunks before chunk ${seq}; send fewer chunks at once.`, {
        upload: id,
        retryAfter: 1,
      })
    }
    await new Promise((r) => setTimeout(r, 10))
  }
}
