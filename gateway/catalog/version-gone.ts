/**
 * A query can name a table version that is gone: a kept recipe re-run after its table was
 * dropped or replaced (retired versions are removed as soon as nothing reads them, retired.ts),
 * or a query that resolved a table in the instant before a drop. That is not damage (500): the
 * caller is told to run the query again, which reads the tables as they are now.
 */
import { stat } from 'node:fs/promises'
import { AppError } from '../../shared/errors.js'
import { versionDir } from '../../engine/index.js'

export async function versionGoneOr(dataDir: string, version: string, err: unknown): Promise<unknown> {
  const exists = await stat(versionDir(dataDir, version)).then(
    () => true,
    (e: NodeJS.ErrnoException) => e.code !== 'ENOENT',
  )
  if (exists) return err
  return new AppError(
    'UNKNOWN_TABLE',
    'A table this query reads was dropped or replaced after the query was first run, and that version of it is gone; run the query again to read the tables as they are now.',
    { version },
  )
}
