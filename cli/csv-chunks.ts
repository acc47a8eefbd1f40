/**
 * Splits a CSV stream into chunks of whole records, each one starting with the header line, so
 * the service can read every chunk on its own (upload_chunk). Only the current chunk is held in
 * memory. Records are cut where the service's CSV reader ends them (shared/csv/records.ts): a
 * quoted field may hold line breaks, and records end with CRLF, LF or a lone CR.
 */
import { recordEnd, recordText } from '../shared/csv/records.js'

export interface CsvChunk {
  /** The header line, then whole records. */
  readonly csv: string
  /** Records in this chunk. */
  readonly rows: number
  /** Bytes of input consumed so far (for progress against a file's size). */
  readonly bytesRead: number
}

export interface ChunkOptions {
  /** A chunk is sent once it holds this many characters of records (about bytes). */
  readonly maxChars: number
  /** …or this many records, whichever comes first. */
  readonly maxRows?: number
}

/** The header line of a CSV (its first record that is not empty, without its line break), and what follows it. */
export async function* csvChunks(input: AsyncIterable<Buffer | string>, opts: ChunkOptions, onHeader?: (header: string) => void): AsyncGenerator<CsvChunk> {
  const decoder = new TextDecoder('utf-8')
  let header: string | null = null
  let buf = ''
  let boundary = 0 // end of the last whole record in buf
  let rows = 0 // records in buf[0, boundary)
  let bytesRead = 0
  const maxRows = opts.maxRows ?? Infinity

  const take = (): CsvChunk => {
    const chunk = { csv: `${header}\n${buf.slice(0, boundary)}`, rows, bytesRead }
    buf = buf.slice(boundary)
    boundary = 0
    rows = 0
    return chunk
  }

  /**
   * Takes in the whole lines from `boundary` on when no quote and no CR follows it: then every line
   * break ends a record (most files, and far faster than reading them record by record). Not with
   * a record limit, which must stop at an exact record.
   */
  const skim = (): void => {
    if (header === null || maxRows !== Infinity || buf.indexOf('"', boundary) >= 0 || buf.indexOf('\r', boundary) >= 0) return
    const last = buf.lastIndexOf('\n')
    for (let k = boundary; k <= last;) {
      const end = buf.indexOf('\n', k)
      // An empty line is no record.
      if (end > k) rows++
      k = end + 1
    }
    if (last >= boundary) boundary = last + 1
  }

  /** Takes in the whole records from `boundary` on; true when the chunk is full by its record count. */
  const scan = (final: boolean): boolean => {
    skim()
    for (;;) {
      const end = recordEnd(buf, boundary, final)
      if (end < 0 && final) throw new Error('The CSV ends inside a quoted field (a " is not closed).')
      if (end < 0 || end === boundary) return false
      const text = recordText(buf, boundary, end)
      // Blanks after the last line break are no record.
      if (final && end === buf.length && text.trim() === '') {
        buf = buf.slice(0, boundary)
        return false
      }
      if (header === null) {
        // Empty lines before the header are skipped, as the reader skips every empty line.
        if (text !== '') {
          header = text.replace(/^\uFEFF/, '')
          onHeader?.(header)
        }
        buf = buf.slice(end)
        continue
      }
      boundary = end
      if (text === '') continue
      rows++
      if (rows >= maxRows) return true
    }
  }

  for await (const piece of input) {
    bytesRead += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length
    buf += typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true })
    while (scan(false)) yield take()
    if (header !== null && boundary >= opts.maxChars) yield take()
  }
  buf += decoder.decode()
  while (scan(true)) yield take()
  if (rows > 0) yield take()
}
