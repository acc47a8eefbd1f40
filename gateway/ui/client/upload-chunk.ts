/** What the upload page's file readers (upload-formats.ts) hand it: one upload_chunk request each. */
import type { RequestBody } from './admin-dbm.js'

/**
 * One upload_chunk request: rows the service reads from the request's body (CSV text with its
 * header line), or JSON rows sent as its `data` parameter.
 */
export interface UploadChunk {
  readonly body?: RequestBody
  readonly data?: unknown
  /** The fraction of the file read once this chunk is sent (0–1): what the progress bar shows. */
  readonly done: number
  /** CSV: the line of the file the chunk's rows start at. */
  readonly firstLine?: number
  /** JSON: the row of the file the chunk's rows start at (from 1). */
  readonly firstRow?: number
}
