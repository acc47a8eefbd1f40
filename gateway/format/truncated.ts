/**
 * A query result as answered to a request with `truncate_=1`, which may have been cut to its
 * first rows (MAX_RESULT_ROWS, MAX_RESULT_BYTES). The cut is stated in every format, never left
 * for the reader to notice: the JSON formats wrap the usual shape as
 * `{"truncated": bool, "total_rows": N, "rows": kept, "result": …}` (always, so the shape does
 * not depend on the size), text ends with `-- truncated: first K of N rows`, and the HTML page
 * shows a notice above the table. (The routes add the header `X-Truncated`.)
 */
import type { ResultSet } from '../../shared/protocol.js'
import { clipRange, shouldStream, toRendered } from './chunks.js'
import { escapeHtml } from './escape.js'
import { htmlTable } from './html-table.js'
import { PAGE_END, pageStart, paragraph, rowCountText } from './html-page.js'
import { renderResult, tableChunks } from './result.js'
import { textTable } from './text.js'
import type { Format, PageInfo, Rendered, TextFormat } from './types.js'
import { contentType, isExchangeFormat } from './types.js'

/** How a result relates to the whole one: whether rows were left out, how many there were and are. */
export interface TruncationInfo {
  readonly truncated: boolean
  readonly totalRows: number
  readonly rows: number
}

/** The closing line of a cut text table (and the notice of a cut HTML page). */
export function truncationText(t: TruncationInfo): string {
  return `truncated: first ${t.rows} of ${t.totalRows} rows`
}

function* wrappedJson(result: ResultSet, format: TextFormat, t: TruncationInfo): Generator<string> {
  yield `{"truncated":${t.truncated},"total_rows":${t.totalRows},"rows":${t.rows},"result":`
  yield* tableChunks(result, format, clipRange(undefined, result.rowCount))
  yield '}'
}

function* text(result: ResultSet, t: TruncationInfo): Generator<string> {
  yield* textTable(result, clipRange(undefined, result.rowCount))
  if (t.truncated) yield `-- ${truncationText(t)}\n`
}

function* page(result: ResultSet, t: TruncationInfo, info?: PageInfo): Generator<string> {
  yield pageStart(info, 'Result')
  if (t.truncated) {
    yield `<p class="error" role="status"><strong>Truncated:</strong> ${escapeHtml(`showing the first ${t.rows} of ${t.totalRows} rows; the rest is over the service's result limit.`)}</p>\n`
  }
  yield paragraph(rowCountText(result.rowCount))
  yield* htmlTable(result, clipRange(undefined, result.rowCount))
  yield PAGE_END
}

/** Renders a result for a request that passed truncate_=1. */
export function renderTruncatable(result: ResultSet, format: Format, t: TruncationInfo, info?: PageInfo): Rendered {
  // A table for other tools has no room for a notice: the header X-Truncated says it.
  if (isExchangeFormat(format)) return renderResult(result, format)
  const source = format === 'text' ? () => text(result, t) : format === 'html' ? () => page(result, t, info) : () => wrappedJson(result, format, t)
  return toRendered(contentType(format), source, shouldStream({ from: 0, to: result.rowCount }))
}
