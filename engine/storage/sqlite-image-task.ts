/**
 * The table writer's thread entry for adding a version's SQLite image (sqlite-image-add.ts). The
 * build holds sql.js's memory for the whole image and inserts row by row for seconds per million
 * rows: on the gateway's thread it would stall every request, on a query worker it would keep
 * that memory for good (WebAssembly memory never shrinks). The writer's threads end when idle.
 */
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import { addSqliteImage } from './sqlite-image-add.js'

export interface SqliteImageTask {
  readonly dataDir: string
  readonly version: string
}

export type SqliteImageOutcome = { readonly ok: true; readonly built: boolean } | { readonly ok: false; readonly error: ErrorPayload }

export default async function sqliteImageTask(task: SqliteImageTask): Promise<SqliteImageOutcome> {
  try {
    return { ok: true, built: await addSqliteImage(task.dataDir, task.version) }
  } catch (err) {
    // A version removed meanwhile fails here too; the gateway tells that apart (version-gone.ts).
    const e =
      err instanceof AppError
        ? err
        : new AppError('INTERNAL', `The SQLite image of table version ${task.version} could not be built.`, { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
