/**
 * Splits a CSV stream into chunks of whole records, each one starting with the header line, so
 * the service can read every chunk on its own (upload_chunk). Only the current chunk is held in
 * memory. Records are cut where the service's CSV reader ends them (shared/csv/records.ts): a
 * quoted field may hold line breaks, and records end with CRLF, LF or a lone CR.
 *
 * The chunks stay bytes, as read: most files have no quote and no CR, and then every LF ends a
 * record, so a chunk is cut at its last LF by a native search and never becomes a string here
 * (the service decodes it). Text with a quote or a CR in it, a record limit, and the end of the
 * input are cut by the grammar, over the decoded text.
 */
import { recordEnd, recordText } from '../shared/csv/records.js'
import { CR, LF, QUOTE } from '../shared/csv/grammar.js'

export interface CsvChunk {
  /** The header line, a line break, then whole records, as UTF-8: the body of an upload_chunk. */
  readonly csv: Buffer
  /** Bytes of input consumed so far (for progress against a file's size). */
  readonly bytesRead: number
}

export interface ChunkOptions {
  /** A chunk is sent once it holds this many bytes of records. */
  readonly maxChars: number
  /** …or this many records, whichever comes first. */
  readonly maxRows?: number
}

const NEWLINE = Buffer.from('\n')
const BOM = /^\uFEFF/

/** The end of the longest prefix of `buf` that is whole UTF-8 characters (it ends at an ASCII byte). */
function wholeCharacters(buf: Buffer): number {
  let end = buf.length
  while (end > 0 && buf[end - 1] >= 0x80) end--
  return end
}

/** Where the grammar ends whole records in `buf`: bytes taken, and the records (empty lines are none) among them. */
interface Cut {
  readonly end: number
  readonly rows: number
}

/**
 * Whole records from the start of `buf`, at most `maxRows` of them. `final`: `buf` is the rest of
 * the input (a last record may lack its line break; blanks after the last one are no record).
 */
function grammarCut(buf: Buffer, final: boolean, maxRows: number): Cut & { readonly first: string | null } {
  const text = buf.toString('utf8', 0, final ? buf.length : wholeCharacters(buf))
  let at = 0
  let rows = 0
  let first: string | null = null
  while (rows < maxRows) {
    const end = recordEnd(text, at, final)
    if (end < 0 && final) throw new Error('The CSV ends inside a quoted field (a " is not closed).')
    if (end < 0 || end === at) break
    const record = recordText(text, at, end)
    if (final && end === text.length && record.trim() === '') break
    at = end
    if (record === '') continue
    first ??= record
    rows++
  }
  return { end: Buffer.byteLength(text.slice(0, at)), rows, first }
}

/** Whole lines from the start of `buf` when it has no quote and no CR: to its last LF. Records: 1 when any line is not empty (not counted). */
function lineCut(buf: Buffer): Cut {
  const end = buf.lastIndexOf(LF) + 1
  let k = 0
  while (k < end && buf[k] === LF) k++
  return { end, rows: k < end ? 1 : 0 }
}

/** The header line of a CSV (its first record that is not empty, without its line break), and what follows it. */
export async function* csvChunks(input: AsyncIterable<Buffer | string>, opts: ChunkOptions, onHeader?: (header: string) => void): AsyncGenerator<CsvChunk> {
  const maxRows = opts.maxRows ?? Infinity
  let header: Buffer | null = null
  // The input not yet in a chunk, from a record's start; `plain` while it has no quote and no CR.
  let parts: Buffer[] = []
  let size = 0
  let plain = true
  let bytesRead = 0

  const joined = (): Buffer => {
    if (parts.length !== 1) parts = [Buffer.concat(parts, size)]
    return parts[0]
  }
  const keep = (rest: Buffer): void => {
    // A copy: the rest is small, and must not hold on to the whole chunk it was cut from.
    parts = rest.length === 0 ? [] : [Buffer.from(rest)]
    size = rest.length
    plain = rest.indexOf(QUOTE) < 0 && rest.indexOf(CR) < 0
  }

  /** Takes the header line off the input once it is whole; false until then. */
  const takeHeader = (final: boolean): boolean => {
    const buf = joined()
    const { end, first } = grammarCut(buf, final, 1)
    if (first === null) return false
    const line = first.replace(BOM, '')
    header = Buffer.from(line)
    onHeader?.(line)
    keep(buf.subarray(end))
    return true
  }

  /** The chunks the input so far makes; with `final`, every record left. */
  function* cut(final: boolean): Generator<CsvChunk> {
    for (;;) {
      if (!final && maxRows === Infinity && size < opts.maxChars) return
      const buf = joined()
      const { end, rows } = plain && !final && maxRows === Infinity ? lineCut(buf) : grammarCut(buf, final, maxRows)
      if (rows === 0 || end === 0) {
        // Only empty lines so far (or nothing whole): the reader would skip them too.
        if (final || end > 0) keep(buf.subarray(end))
        return
      }
      if (!final && rows < maxRows && end < opts.maxChars) return
      yield { csv: Buffer.concat([header!, NEWLINE, buf.subarray(0, end)]), bytesRead }
      keep(buf.subarray(end))
    }
  }

  for await (const piece of input) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece
    bytesRead += bytes.length
    parts.push(bytes)
    size += bytes.length
    if (plain && (bytes.indexOf(QUOTE) >= 0 || bytes.indexOf(CR) >= 0)) plain = false
    if (header === null && !takeHeader(false)) continue
    yield* cut(false)
  }
  if (header === null && !takeHeader(true)) return
  yield* cut(true)
}
