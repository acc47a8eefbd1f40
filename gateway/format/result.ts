/**
 * renderResult: a result set (or a row range of it) in any output format. The format decides the
 * chunk generator; chunks.ts decides whether the output is one string or a stream.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { clipRange, joinChunks, shouldStream, toRendered } from './chunks.js'
import { htmlTable } from './html-table.js'
import { PAGE_END, pageStart, paragraph, rowCountText } from './html-page.js'
import { jsonColumns, jsonKeyed, jsonRows } from './json.js'
import { textTable } from './text.js'
import { csvTable } from './csv.js'
import { binaryChunks, resultPieces } from './export/index.js'
import { PIECE_ROWS } from './paged.js'
import type { Format, PageInfo, Rendered, RowRange, TextFormat } from './types.js'
import { contentType } from './types.js'

export type { PageInfo } from './types.js'

/** Options of renderResult. */
export interface ResultOptions {
  /** Rows to render, half-open; default all rows. */
  readonly range?: RowRange
  /** Title and links of the HTML page. */
  readonly page?: PageInfo
  /**
   * Force (true) or forbid (false) streaming; by default only large ranges stream, and small ones
   * that take long to render. Forbidden, the whole body is rendered in one go: for tests and
   * small consumers, never for an answer of the service.
   */
  readonly stream?: boolean
}

/**
 * The rows of a result as a table-like chunk generator in one format. For HTML this is only the
 * table, not the page, so composite pages (!head) can reuse it.
 */
export function* tableChunks(result: ResultSet, format: TextFormat, range: RowRange): Generator<string> {
  switch (format) {
    case 'json':
      return yield* jsonColumns(result, range)
    case 'json.rows':
      return yield* jsonRows(result, range)
    case 'json.keyed':
      return yield* jsonKeyed(result, range)
    case 'text':
      return yield* textTable(result, range)
    case 'html':
      return yield* htmlTable(result, range)
    case 'csv':
      return yield* csvTable(result, range)
  }
}

function* resultPage(result: ResultSet, range: RowRange, opts: ResultOptions): Generator<string> {
  // Report the range only when one was asked for: "10 rows" alone means all are shown.
  const rowsLine = rowCountText(result.rowCount, opts.range === undefined ? undefined : range)
  yield pageStart(opts.page, 'Result') + paragraph(rowsLine)
  yield* htmlTable(result, range)
  yield PAGE_END
}

/**
 * Render a result set. The range (default all rows) is clipped to the result. Outputs of more
 * than STREAM_THRESHOLD rows come as an async iterable of chunks, smaller ones as one string;
 * the bytes are the same either way. Arrow and Parquet always come as chunks of bytes.
 */
export function renderResult(result: ResultSet, format: Format, opts: ResultOptions = {}): Rendered {
  const range = clipRange(opts.range, result.rowCount)
  // Bytes always stream: pieces are encoded one at a time (export/index.ts).
  if (format === 'arrow' || format === 'parquet')
    return { type: contentType(format), body: { [Symbol.asyncIterator]: () => binaryChunks(format, result, resultPieces(result, range, PIECE_ROWS)) } }
  const source = format === 'html' ? () => resultPage(result, range, opts) : () => tableChunks(result, format, range)
  if (opts.stream === false) return { type: contentType(format), body: joinChunks(source) }
  return toRendered(contentType(format), source, opts.stream ?? shouldStream(range))
}
