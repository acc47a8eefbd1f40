/** The one error a missing or damaged table file gives: INTERNAL, naming the file (the catalog promised it). */
import { AppError } from '../../shared/errors.js'

export const damaged = (file: string, why: string, cause?: unknown): AppError =>
  new AppError('INTERNAL', `Table file ${file} is missing or damaged: ${why}`, { file }, { cause })

/** A file-system error in a few words. */
export function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  if (err?.code === 'ENOENT') return 'no such file'
  return err instanceof Error ? err.message : String(e)
}
