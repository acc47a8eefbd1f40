/**
 * A write that took effect but could not be made durable. The embedded store applies a change
 * to its maps first and writes store.json after (memory.ts): when that file cannot be written, the
 * change is already what every reader sees. Answering "try again later" (503) was untrue: a
 * client that retried a drop_table got unknown_table. Undoing the change is not possible either:
 * writes made meanwhile by others may build on it, and its effects on disk (a dropped version's
 * folder) may already be gone. So the answer says what happened: the change is in effect, not yet
 * saved, and saved with the next snapshot that fits (the store keeps trying). A full volume
 * (ENOSPC, EDQUOT) is 507 like every other full-volume answer; any other failure stays 503.
 */
import { AppError } from '../errors.js'

/** Marks an error whose change took effect in the store but is not on disk. */
const APPLIED_UNSAVED = 'appliedNotSaved'

export function isAppliedUnsaved(err: unknown): boolean {
  return err instanceof AppError && err.detail[APPLIED_UNSAVED] === true
}

/** Whether a file system error means the volume (or the quota on it) is full. */
export function isVolumeFullErrno(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/** Why a write failed, in words, with its errno. */
function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code
  if (code === 'EDQUOT') return 'the disk quota of the data volume is used up (EDQUOT)'
  if (code === 'ENOSPC') return 'the data volume is full (ENOSPC)'
  return `the disk write failed (${code ?? String((err as Error | null)?.message ?? err)})`
}

/** The answer to a change that is in effect but could not be written to `file`. */
export function appliedUnsaved(err: unknown, file: string): AppError {
  const full = isVolumeFullErrno(err)
  const code = (err as NodeJS.ErrnoException | null)?.code
  return new AppError(
    full ? 'VOLUME_FULL' : 'UNAVAILABLE',
    `The change was made and is in effect, but it could not be saved to disk: ${reason(err)}. Do not send it again. ` +
      'The service keeps trying to save it and does so as soon as there is room; if the service restarts before then, the change is lost. ' +
      (full ? 'Drop tables you no longer need, or ask the operator to free space.' : 'Ask the operator to check the data volume.'),
    { [APPLIED_UNSAVED]: true, ...(code !== undefined && { errno: code }), file },
    { cause: err },
  )
}

/**
 * For a step that is not the change itself (taking the next id from a durable counter) and failed
 * to save: the request stops there with nothing done that anyone can see, so its answer says
 * that nothing was saved, and to try again once there is room. The counter's new value is saved
 * with the next snapshot that fits, so an id is still never handed out twice.
 */
export function nothingSaved(err: AppError): AppError {
  const errno = typeof err.detail.errno === 'string' ? err.detail.errno : undefined
  const why = reason({ code: errno })
  return new AppError(
    err.code,
    err.code === 'VOLUME_FULL'
      ? `Nothing was saved: ${why}; drop tables you no longer need or ask the operator to free space, then try again.`
      : `Nothing was saved: ${why}; try again later.`,
    { ...(errno !== undefined && { errno }) },
    { cause: err },
  )
}

/** Runs a step of the kind nothingSaved describes, mapping its unsaved-write error. */
export async function beforeTheChange<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (err) {
    throw isAppliedUnsaved(err) ? nothingSaved(err as AppError) : err
  }
}
