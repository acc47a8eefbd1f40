/**
 * Splits a CSV stream into chunks of whole records, each one starting with the header line, so
 * the service can read every chunk on its own (upload_chunk). Only the current chunk is held in
 * memory. Record boundaries are line breaks outside double quotes (RFC 4180: a quoted field may
 * hold line breaks; a doubled quote inside one toggles twice and changes nothing).
 */

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

const QUOTE = 34
const LF = 10
const CR = 13

/** The header line of a CSV (without its line break), and what follows it. */
export async function* csvChunks(input: AsyncIterable<Buffer | string>, opts: ChunkOptions, onHeader?: (header: string) => void): AsyncGenerator<CsvChunk> {
  const decoder = new TextDecoder('utf-8')
  let header: string | null = null
  let buf = ''
  let scan = 0 // next index of buf to look at
  let inQuotes = false
  let boundary = 0 // end of the last whole record in buf
  let rows = 0 // whole records in buf[0, boundary)
  let bytesRead = 0
  const maxRows = opts.maxRows ?? Infinity

  const take = (): CsvChunk => {
    const chunk = { csv: `${header}\n${buf.slice(0, boundary)}`, rows, bytesRead }
    buf = buf.slice(boundary)
    scan -= boundary
    boundary = 0
    rows = 0
    return chunk
  }

  for await (const piece of input) {
    bytesRead += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length
    buf += typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true })
    for (; scan < buf.length; scan++) {
      const c = buf.charCodeAt(scan)
      if (c === QUOTE) inQuotes = !inQuotes
      else if (c === LF && !inQuotes) {
        if (header === null) {
          // The header: its line without the line break (and a CR before it), BOM removed.
          header = buf.slice(0, scan > 0 && buf.charCodeAt(scan - 1) === CR ? scan - 1 : scan).replace(/^\uFEFF/, '')
          onHeader?.(header)
          buf = buf.slice(scan + 1)
          scan = -1
          continue
        }
        boundary = scan + 1
        rows++
        if (rows >= maxRows) yield take()
      }
    }
    if (header !== null && boundary >= opts.maxChars) yield take()
  }
  buf += decoder.decode()
  if (header === null) {
    // A file of one line: the header alone, or nothing.
    header = buf.replace(/^\uFEFF/, '').replace(/\r?\n?$/, '')
    if (header !== '') onHeader?.(header)
    buf = ''
    scan = 0
  }
  if (inQuotes) throw new Error('The CSV ends inside a quoted field (a " is not closed).')
  // A last record without a line break.
  if (buf.slice(boundary).trim() !== '') {
    buf += '\n'
    boundary = buf.length
    rows++
  }
  if (rows > 0 && header !== '') yield take()
}
