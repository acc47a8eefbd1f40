/**
 * A full data volume (ENOSPC) or an exhausted quota (EDQUOT) is not a bug of the service: it is
 * answered 507 with what to do, instead of 500 "internal".
 */
import { AppError } from '../../shared/errors.js'

export function isVolumeFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

export function volumeFull(err: unknown): AppError {
  const code = (err as NodeJS.ErrnoException).code
  const why = code === 'EDQUOT' ? 'the disk quota of the data volume is used up' : 'the data volume is full'
  return new AppError('VOLUME_FULL', `Nothing was saved: ${why} (${code}); drop tables you no longer need or ask the operator to free space, then try again.`, {
    errno: code,
  })
}

/** Runs a write; a full volume becomes VOLUME_FULL, anything else passes unchanged. */
export async function mapVolumeFull<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    throw isVolumeFull(err) ? volumeFull(err) : err
  }
}
