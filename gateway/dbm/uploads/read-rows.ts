/**
 * Reading a chunk's rows (CSV, JSON data, or a decoded Parquet or Arrow file) against the columns
 * the upload has settled so far, with the cell limits checked.
 */
import { checkCellLimits } from '../../../engine/index.js'
import { encodeChunkText } from '../../../shared/csv/chunk-text.js'
import type { ColumnType } from '../../../shared/table.js'
import { withFileTypes, type DecodedUpload } from '../../ingest/binary-tables.js'
import type { ReadChunk } from '../../ingest/chunk-read-task.js'
import { uploadInput } from '../../ingest/upload.js'
import { readChunkOffThread } from '../../tables/table-writer.js'
import type { DbmContext } from '../registry.js'
import type { UploadState } from './state.js'

/** A chunk's rows as sent: CSV (text, or the request's bytes), JSON data, or a decoded Parquet or Arrow file. */
export interface ChunkRows {
  readonly csv?: string | Uint8Array
  readonly data?: unknown
  readonly binary?: DecodedUpload | null
}

export type ReadingCols = { name: string; type?: ColumnType }[] | undefined

/** The columns a chunk is read against: names in order, and the types it must take. */
export function readingCols(state: UploadState): ReadingCols {
  return state.columns?.map((c) => ({
    name: c.name,
    // Text accepts every value as it is written, so a text column is read as text from then on.
    ...(c.type !== null && (c.declared || c.type === 'text') ? { type: c.type } : {}),
  }))
}

export const sameReading = (a: ReadingCols, b: ReadingCols): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * A chunk's rows read and typed against the upload's columns as `state` has them, with the cell
 * limits checked: CSV on a table writer's thread, JSON data here.
 */
export async function readRows(ctx: DbmContext, state: UploadState, rows: ChunkRows): Promise<{ cols: ReadingCols; read: ReadChunk }> {
  const cols = readingCols(state)
  const limits = { maxCellBytes: ctx.deps.config.maxCellBytes, maxRowBytes: ctx.deps.config.maxRowBytes }
  if (rows.csv !== undefined) return { cols, read: await readChunkOffThread({ csv: rows.csv, cols, limits }) }
  // A Parquet or Arrow file types its columns where the upload has not settled them yet.
  const input = rows.binary ? uploadInput({ cols: withFileTypes(rows.binary, cols), data: rows.binary.data }) : uploadInput({ cols, data: rows.data })
  checkCellLimits(input.columns, input.data, limits)
  const data = input.data.map((values, i) =>
    input.columns[i].type === 'text' ? encodeChunkText(values as readonly string[]) : (values as Int32Array | Float64Array),
  )
  return { cols, read: { columns: input.columns, data, rows: input.data[0]?.length ?? 0 } }
}
