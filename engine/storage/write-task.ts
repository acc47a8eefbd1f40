/**
 * The table writer's thread entry (gateway/tables/table-writer.ts). Encoding text dictionaries
 * and writing the files of a large table take seconds of CPU;
 * on the gateway's thread they would stall every other request for as long. Here they run beside
 * it. Text values arrive in slices over `port` (a structured copy of hundreds of megabytes of
 * strings in one message would itself stall the gateway for a second). Errors cross back as
 * plain payloads, as the engine worker's do.
 */
import type { MessagePort } from 'node:worker_threads'
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import type { ColumnSpec, TableMeta } from '../../shared/table.js'
import type { CellLimits } from './cell-limits.js'
import type { ColumnValues } from './types.js'
import { writeTableVersion } from './write.js'
import { isVolumeFull, volumeFull } from './volume-full.js'

export interface WriteTask {
  readonly dataDir: string
  readonly columns: readonly ColumnSpec[]
  /** Numbers as they are; text columns as null, their values come over `port`. */
  readonly data: readonly (Int32Array | Float64Array | null)[]
  readonly limits?: CellLimits
  /** TABLE_SEGMENT_ROWS: a longer table is stored in row segments (segments.ts). */
  readonly segmentRows?: number
  readonly port: MessagePort
}

/** One slice of a text column, or the end of the input. */
export type TextSlice = { readonly column: number; readonly values: readonly string[] } | { readonly done: true }

export type WriteOutcome = { readonly ok: true; readonly meta: TableMeta } | { readonly ok: false; readonly error: ErrorPayload }

/** Collects the text slices until the end mark. */
function receiveText(port: MessagePort, columns: number): Promise<string[][]> {
  const text: string[][] = Array.from({ length: columns }, () => [])
  return new Promise((resolve) => {
    port.on('message', (m: TextSlice) => {
      if ('done' in m) {
        port.close()
        resolve(text)
        return
      }
      const into = text[m.column]
      for (const v of m.values) into.push(v)
    })
  })
}

export default async function writeTask(task: WriteTask): Promise<WriteOutcome> {
  try {
    const text = await receiveText(task.port, task.columns.length)
    const data: ColumnValues[] = task.data.map((d, i) => d ?? text[i])
    return { ok: true, meta: await writeTableVersion(task.dataDir, { columns: task.columns, data }, task.limits, task.segmentRows) }
  } catch (err) {
    const e =
      err instanceof AppError
        ? err
        : isVolumeFull(err)
          ? volumeFull(err)
          : new AppError('INTERNAL', 'The table could not be written.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
