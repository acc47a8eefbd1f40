/**
 * Rendering a large row selection piece by piece, so memory stays bounded whatever its size: the
 * rows are fetched PIECE_ROWS at a time (from a kept result in the Store, a cached table or a
 * result in memory), rendered, and let go before the next piece is fetched. The bytes are the
 * same as renderResult's for the same rows; only the chunking differs.
 *
 * Formats that need a whole column or every cell first read the pieces more than once: text
 * measures column widths in a first pass, and column-major JSON (`json`) writes one column per
 * pass. That trades repeated reads for memory that does not grow with the result.
 */
import type { ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { htmlTableRows, htmlTableStart, HTML_TABLE_END } from './html-table.js'
import { PAGE_END, pageStart, paragraph, rowCountText } from './html-page.js'
import { jsonColumnKey, jsonColumnValues, jsonKeyedBody, jsonRowsBody, jsonRowsStart, JSON_ROWS_END } from './json.js'
import { checkTextSize, measureRows, textHeader, textLayout, textRows } from './text.js'
import { csvHeader, csvRows } from './csv.js'
import { binaryChunks } from './export/index.js'
import type { Format, PageInfo, Rendered } from './types.js'
import { contentType } from './types.js'
import { nextTurn } from '../../shared/turns.js'

/** Rows fetched and rendered at a time: one chunk of a kept result (gateway/query/results/store/). */
export const PIECE_ROWS = 4096

/** A selection of rows that can be read in parts, as often as needed. */
export interface PagedRows {
  readonly cols: readonly ColumnMeta[]
  /** Rows in the selection. */
  readonly rowCount: number
  /** Rows [from, to) of the selection, numbered from 0 within it. */
  read(from: number, to: number): Promise<ResultSet>
}

/** Every piece of the selection in order; throws when the source answers fewer rows than asked. */
async function* pieces(rows: PagedRows): AsyncGenerator<ResultSet> {
  for (let from = 0; from < rows.rowCount; from += PIECE_ROWS) {
    const to = Math.min(rows.rowCount, from + PIECE_ROWS)
    const piece = await rows.read(from, to)
    if (piece.rowCount !== to - from) throw new Error(`rows ${from}-${to} of a streamed result came back as ${piece.rowCount} rows`)
    yield piece
    await nextTurn()
  }
}

/**
 * Chunks of a synchronous generator, with a turn of the event loop after each (each is bounded
 * work, see chunks.ts) and without the empty ones (they only asked for that pause).
 */
async function* paced(chunks: Iterable<string>): AsyncGenerator<string> {
  for (const chunk of chunks) {
    if (chunk !== '') yield chunk
    await nextTurn()
  }
}

async function* columnMajor(rows: PagedRows): AsyncGenerator<string> {
  let out = '{'
  for (let c = 0; c < rows.cols.length; c++) {
    yield out + jsonColumnKey(rows.cols, c)
    let continued = false
    for await (const piece of pieces(rows)) {
      yield* paced(jsonColumnValues(piece.columns[c], { from: 0, to: piece.rowCount }, continued))
      continued = true
    }
    out = ']'
  }
  yield out + '}'
}

async function* rowMajor(rows: PagedRows, keyed: boolean): AsyncGenerator<string> {
  yield keyed ? '[' : jsonRowsStart(rows.cols)
  let continued = false
  for await (const piece of pieces(rows)) {
    const range = { from: 0, to: piece.rowCount }
    yield* paced(keyed ? jsonKeyedBody(piece, range, continued) : jsonRowsBody(piece, range, continued))
    continued = true
  }
  yield keyed ? ']' : JSON_ROWS_END
}

async function* textTable(rows: PagedRows, first: ResultSet): AsyncGenerator<string> {
  const layout = textLayout(first)
  for await (const piece of pieces(rows)) for (const _ of measureRows(piece, { from: 0, to: piece.rowCount }, layout)) await nextTurn()
  checkTextSize(layout, rows.rowCount)
  yield* paced(textHeader(layout))
  for await (const piece of pieces(rows)) yield* paced(textRows(piece, { from: 0, to: piece.rowCount }, layout))
}

async function* csvTable(rows: PagedRows): AsyncGenerator<string> {
  yield csvHeader(rows.cols)
  for await (const piece of pieces(rows)) yield* paced(csvRows(piece, { from: 0, to: piece.rowCount }))
}

async function* htmlPage(rows: PagedRows, first: ResultSet, page?: PageInfo): AsyncGenerator<string> {
  yield pageStart(page, 'Result') + paragraph(rowCountText(rows.rowCount)) + htmlTableStart(first)
  for await (const piece of pieces(rows)) yield* paced(htmlTableRows(piece, { from: 0, to: piece.rowCount }))
  yield HTML_TABLE_END + PAGE_END
}

/**
 * The chunks of a rendering. The first piece is read before anything is produced, so a source
 * that fails at once fails before the response has begun (and gets a proper error status).
 */
async function* paged(rows: PagedRows, format: Format, page?: PageInfo): AsyncGenerator<string | Uint8Array> {
  const first = await rows.read(0, Math.min(rows.rowCount, 1))
  switch (format) {
    case 'json':
      return yield* columnMajor(rows)
    case 'json.rows':
      return yield* rowMajor(rows, false)
    case 'json.keyed':
      return yield* rowMajor(rows, true)
    case 'text':
      return yield* textTable(rows, first)
    case 'html':
      return yield* htmlPage(rows, first, page)
    case 'csv':
      return yield* csvTable(rows)
    case 'arrow':
    case 'parquet':
      return yield* binaryChunks(format, first, pieces(rows))
  }
}

/**
 * Render a selection as a stream, the same bytes renderResult gives for the same rows (the HTML
 * page says "N rows", as renderResult does without a range). Each iteration renders afresh.
 */
export function renderPaged(rows: PagedRows, format: Format, page?: PageInfo): Rendered {
  return { type: contentType(format), body: { [Symbol.asyncIterator]: () => paged(rows, format, page) } }
}
