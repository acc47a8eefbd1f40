/**
 * A CSV file cut into upload_chunk bodies in the browser: the file is read a slice at a time
 * (Blob.slice, so only one chunk is in memory), decoded as UTF-8, and cut where the service's
 * reader ends records (shared/csv/records.ts): a quoted field may hold line breaks. Every chunk
 * starts with the header line, so the service reads each on its own, and knows at which line
 * of the file its rows start, so a message about "line 5 of the CSV" can name the file's line.
 */
import { lineBreaks } from '../../../shared/csv/grammar.js'
import { readCsv } from '../../../shared/csv/read.js'
import { recordEnd, recordText } from '../../../shared/csv/records.js'
import type { UploadChunk } from './upload-chunk.js'

const BOM = /^\uFEFF/
const CSV_TYPE = 'text/csv; charset=utf-8'
/** Enough of the file to find its header line in. */
const HEADER_BYTES = 1 << 20

/** The header record of `text` (empty lines before it skipped): its text and where it ends; null when not whole yet. */
function headerOf(text: string, final: boolean): { line: string; end: number } | null {
  let at = 0
  for (;;) {
    const end = recordEnd(text, at, final)
    if (end < 0 || end === at) return null
    const line = recordText(text, at, end)
    if (line.trim() !== '') return { line: line.replace(BOM, ''), end }
    at = end
  }
}

/** The column names of the file's header line. */
export async function csvColumns(file: Blob): Promise<string[]> {
  const text = await file.slice(0, HEADER_BYTES).text()
  const header = headerOf(text, file.size <= HEADER_BYTES)
  if (header === null) throw new Error('The file has no header line (in its first megabyte): its first line must name the columns.')
  return readCsv(header.line).header
}

/** The chunks of a CSV file, each about `chunkBytes` of records (or one record, when longer). */
export async function* csvChunks(file: Blob, chunkBytes: number): AsyncGenerator<UploadChunk> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let offset = 0
  let text = ''
  let header: string | null = null
  /** The line of the file at which `text` starts. */
  let line = 1
  for (;;) {
    const final = offset >= file.size
    try {
      if (final) text += decoder.decode()
      else {
        const piece = await file.slice(offset, offset + chunkBytes).arrayBuffer()
        offset += piece.byteLength
        text += decoder.decode(piece, { stream: true })
      }
    } catch {
      throw new Error(`The file is not UTF-8 text (near byte ${offset}); save it as UTF-8 CSV.`)
    }
    if (header === null) {
      const found = headerOf(text, final)
      if (found === null) {
        if (final) return
        continue
      }
      header = found.line
      line += lineBreaks(text.slice(0, found.end))
      text = text.slice(found.end)
    }
    // Whole records only: the rest waits for the next slice.
    let at = 0
    for (;;) {
      const end = recordEnd(text, at, final)
      if (end < 0 || end === at) break
      at = end
    }
    if (final && text.slice(at).trim() !== '') {
      throw new Error(`The file ends inside a quoted field: a " that opens a field after line ${line} is never closed.`)
    }
    const records = text.slice(0, at)
    const firstLine = line
    line += lineBreaks(records)
    text = text.slice(at)
    // Empty lines are no rows (the service's reader skips them too): nothing to send.
    if (records.trim() !== '') yield { body: { type: CSV_TYPE, bytes: `${header}\n${records}` }, done: offset / Math.max(1, file.size), firstLine }
    if (final) return
  }
}
