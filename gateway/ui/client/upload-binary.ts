/**
 * Parquet files and Arrow streams on the upload page. They carry their own column types, so the
 * page offers no type choice (no column names to list), and the file goes whole as one
 * upload_chunk body with its content type: the service reads it (gateway/ingest/binary-tables.ts),
 * within the request size limit. Cutting one into several chunks would mean decoding it in the
 * browser first; the CLI does that for Arrow (cli/transfer.ts).
 */
import type { UploadChunk } from './upload-chunk.js'

export const PARQUET_TYPE = 'application/vnd.apache.parquet'
export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream'

/** Nothing to choose: the file's own types are kept. */
export const typedFileColumns = async (): Promise<string[]> => []

/** The chunks of a self-typed file: the whole file, as a body of the given type. */
export function wholeFile(type: string) {
  return async function* (file: Blob): AsyncGenerator<UploadChunk> {
    if (file.size === 0) return
    yield { body: { type, bytes: file }, done: 1 }
  }
}
