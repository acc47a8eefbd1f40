/**
 * The table writer's thread entry (gateway/queries/table-writer.ts). Encoding text dictionaries,
 * building the SQLite image (sql.js) and writing the files of a large table take seconds of CPU;
 * on the gateway's thread they would stall every other request for as long. Here they run beside
 * it. Errors cross back as plain payloads, as the engine worker's do.
 */
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import type { TableMeta } from '../../shared/table.js'
import type { CellLimits } from './cell-limits.js'
import { writeTableVersion, type TableInput } from './write.js'
import { isVolumeFull, volumeFull } from './volume-full.js'

export interface WriteTask {
  readonly dataDir: string
  readonly input: TableInput
  readonly limits?: CellLimits
}

export type WriteOutcome = { readonly ok: true; readonly meta: TableMeta } | { readonly ok: false; readonly error: ErrorPayload }

export default async function writeTask(task: WriteTask): Promise<WriteOutcome> {
  try {
    return { ok: true, meta: await writeTableVersion(task.dataDir, task.input, task.limits) }
  } catch (err) {
    const e = err instanceof AppError ? err : isVolumeFull(err) ? volumeFull(err) : new AppError('INTERNAL', 'The table could not be written.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
