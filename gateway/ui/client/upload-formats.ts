/**
 * The files the upload page takes, by extension: how to read a file's column names (for the
 * choice of types) and how to cut it into upload_chunk requests. Adding a format is one entry
 * here (and its reader); the page's file picker and hint follow this list.
 */
import { csvChunks, csvColumns } from './upload-csv.js'
import { jsonChunks, jsonColumns } from './upload-json.js'
import { ARROW_STREAM_TYPE, PARQUET_TYPE, typedFileColumns, wholeFile } from './upload-binary.js'
import type { UploadChunk } from './upload-chunk.js'

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
  { ext: 'parquet', label: 'Parquet (its own column types, sent whole)', columns: typedFileColumns, chunks: wholeFile(PARQUET_TYPE) },
  { ext: 'arrow', label: 'Arrow IPC stream (its own column types, sent whole)', columns: typedFileColumns, chunks: wholeFile(ARROW_STREAM_TYPE) },
]

export function formatOf(fileName: string): FileFormat | null {
  const dot = fileName.lastIndexOf('.')
  const ext = dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase()
  return FORMATS.find((f) => f.ext === ext) ?? null
}
