/** What the upload page's file readers (upload-formats.ts) hand it: one upload_chunk request each. */
/** One upload_chunk request: CSV text with its header line (sent as the body), or JSON rows (`data`). */
export interface UploadChunk {
  readonly csv?: string
  readonly data?: unknown
  /** The fraction of the file read once this chunk is sent (0–1): what the progress bar shows. */
  readonly done: number
  /** CSV: the line of the file the chunk's rows start at. */
  readonly firstLine?: number
  /** JSON: the row of the file the chunk's rows start at (from 1). */
  readonly firstRow?: number
}
