/**
 * Turning a chunk generator into a response body. Every renderer is written once, as a lazy
 * generator of chunks; small outputs are joined into one string and large ones are handed out
 * chunk by chunk with a pause for the event loop in between. Because both paths read the same
 * generator, the bytes are identical either way.
 */
import type { Rendered, RowRange } from './types.js'

/** Rows per chunk: large enough to keep per-chunk overhead small, small enough to stay snappy. */
export const CHUNK_ROWS = 500

/** Selected row counts above this are streamed instead of joined into one string. */
export const STREAM_THRESHOLD = 2000

/**
 * A chunk also ends once it holds this many characters, whatever its rows: 500 rows of large
 * cells would otherwise make one string past V8's limit (about 512 Mi characters) and fail.
 */
export const CHUNK_CHARS = 8 * 1024 * 1024

/** Whether a chunk of `rows` rows (counted from its range's start) holding `out` should be handed out now. */
export const chunkDone = (rows: number, out: string): boolean => rows % CHUNK_ROWS === 0 || out.length >= CHUNK_CHARS

/**
 * A rendering joined into one string stops at this length and streams instead: few rows can
 * still make a large answer (700 rows of 900 KB were a 500 past V8's string limit), and a body
 * this size gains nothing from being one string.
 */
export const JOIN_LIMIT_CHARS = 64 * 1024 * 1024

/** Makes a fresh chunk generator each time it is called. Empty chunks are allowed (see paced). */
export type ChunkSource = () => Iterable<string>

/** Whether a rendering of this many rows should stream. */
export function shouldStream(range: RowRange): boolean {
  return range.to - range.from > STREAM_THRESHOLD
}

/** Let timers and I/O run; setImmediate (not a microtask) so pending I/O really gets a turn. */
function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * Yield the chunks of a source, pausing for the event loop before each one after the first.
 * Empty chunks are not passed on: generators yield '' during long work that produces no output
 * (like measuring column widths) only to get such a pause.
 */
async function* paced(source: ChunkSource): AsyncGenerator<string> {
  let first = true
  for (const chunk of source()) {
    if (!first) await breathe()
    first = false
    if (chunk !== '') yield chunk
  }
}

/** Join every chunk of a source into one string. */
export function joinChunks(source: ChunkSource): string {
  let out = ''
  for (const chunk of source()) out += chunk
  return out
}

/** Join the chunks of a source into one string, or null as soon as it would pass `limit` characters. */
function joinWithin(source: ChunkSource, limit: number): string | null {
  let out = ''
  for (const chunk of source()) {
    if (out.length + chunk.length > limit) return null
    out += chunk
  }
  return out
}

/**
 * Wrap a chunk source as a Rendered: one string, or (when streaming) an async iterable that can
 * be iterated more than once, each time rendering afresh.
 */
export function toRendered(type: string, source: ChunkSource, stream: boolean): Rendered {
  const joined = stream ? null : joinWithin(source, JOIN_LIMIT_CHARS)
  if (joined !== null) return { type, body: joined }
  return { type, body: { [Symbol.asyncIterator]: () => paced(source) } }
}

/** The whole body of a Rendered as one string (for tests and for small consumers). */
export async function collectBody(rendered: Rendered): Promise<string> {
  if (typeof rendered.body === 'string') return rendered.body
  let out = ''
  for await (const chunk of rendered.body) out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
  return out
}

/** The whole body of a Rendered as bytes (for tests of the binary formats). */
export async function collectBytes(rendered: Rendered): Promise<Buffer> {
  if (typeof rendered.body === 'string') return Buffer.from(rendered.body)
  const parts: Buffer[] = []
  for await (const chunk of rendered.body)
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  return Buffer.concat(parts)
}

/** Clip a range to [0, rowCount]; callers clip already, but reading past a typed array is silent. */
export function clipRange(range: RowRange | undefined, rowCount: number): RowRange {
  if (range === undefined) return { from: 0, to: rowCount }
  const from = Math.max(0, Math.min(range.from, rowCount))
  return { from, to: Math.max(from, Math.min(range.to, rowCount)) }
}
