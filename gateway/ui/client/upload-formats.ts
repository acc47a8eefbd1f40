/**
 * The files the upload page takes, by extension: how to read a file's column names (for the
 * choice of types) and how to cut it into upload_chunk requests. Adding a format is one entry
 * here (and its reader); the page's file picker and hint follow this list.
 */
import { csvChunks, csvColumns } from './upload-csv.js'
import { jsonChunks, jsonColumns } from './upload-json.js'

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

export interface FileFormat {
  /** The extension, lower case, without the dot. */
  readonly ext: string
  readonly label: string
  readonly columns: (file: File) => Promise<string[]>
  readonly chunks: (file: File, chunkBytes: number) => AsyncIterable<UploadChunk>
}

export const FORMATS: readonly FileFormat[] = [
  { ext: 'csv', label: 'CSV (first line names the columns)', columns: csvColumns, chunks: csvChunks },
  { ext: 'json', label: 'JSON (row objects or columns)', columns: jsonColumns, chunks: jsonChunks },
]

export function formatOf(fileName: string): FileFormat | null {
  const dot = fileName.lastIndexOf('.')
  const ext = dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase()
  return FORMATS.find((f) => f.ext === ext) ?? null
}
