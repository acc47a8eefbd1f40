/**
 * Turning a chunk generator into a response body. Every renderer is written once, as a lazy
 * generator of chunks; small outputs are joined into one string and large ones are handed out
 * chunk by chunk with a pause for the event loop in between. Because both paths read the same
 * generator, the bytes are identical either way.
 */
import type { Rendered, RowRange } from './types.js'
import { nextTurn } from '../../shared/turns.js'

/** Rows per chunk: large enough to keep per-chunk overhead small, small enough to stay snappy. */
export const CHUNK_ROWS = 500

/** Selected row counts above this are streamed instead of joined into one string. */
export const STREAM_THRESHOLD = 2000

/**
 * A chunk also ends once it holds this many characters, whatever its rows, so that building one
 * chunk (and turning it into bytes) is a few milliseconds of the event loop's time: 500 rows of
 * large cells would otherwise be one long stretch, or a string past V8's limit. Renderers check
 * it after every cell, and hand out longer cells in slices (long-cells.ts).
 */
export const CHUNK_CHARS = 256 * 1024

/** Whether a chunk of `rows` rows (counted from its range's start) holding `out` should be handed out now. */
export const chunkDone = (rows: number, out: string): boolean => rows % CHUNK_ROWS === 0 || out.length >= CHUNK_CHARS

/**
 * A rendering is joined into one string only when it is this short and is done within
 * JOIN_BUDGET_MS; otherwise it streams, chunk by chunk with the event loop running in between.
 * Joining runs the renderer on the event loop in one go, and the body is then encoded and
 * compressed in one go too, so only small bodies may take that path.
 */
export const JOIN_LIMIT_CHARS = 1024 * 1024

/** Milliseconds a rendering may take to be joined; one that takes longer streams from the start. */
export const JOIN_BUDGET_MS = 10

/** Makes a fresh chunk generator each time it is called. Empty chunks are allowed (see paced). */
export type ChunkSource = () => Iterable<string>

/** Whether a rendering of this many rows should stream. */
export function shouldStream(range: RowRange): boolean {
  return range.to - range.from > STREAM_THRESHOLD
}

/**
 * Yield the chunks of a source, pausing for the event loop before each one after the first.
 * Empty chunks are not passed on: generators yield '' during long work that produces no output
 * (like measuring column widths) only to get such a pause.
 */
async function* paced(source: ChunkSource): AsyncGenerator<string> {
  let first = true
  for (const chunk of source()) {
    if (!first) await nextTurn()
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

/**
 * Join the chunks of a source into one string, or null as soon as it would pass `limit`
 * characters or has taken JOIN_BUDGET_MS. Each chunk is bounded work, so this holds the event
 * loop for the budget and one chunk at most; what it rendered is thrown away when it gives up.
 */
function joinWithin(source: ChunkSource, limit: number): string | null {
  const deadline = performance.now() + JOIN_BUDGET_MS
  let out = ''
  for (const chunk of source()) {
    if (out.length + chunk.length > limit || performance.now() > deadline) return null
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
