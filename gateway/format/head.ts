/**
 * `!head`: the `!cols` dictionary, the total row count and the first rows, in one reply.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { clipRange, shouldStream, toRendered } from './chunks.js'
import { colsTable } from './cols.js'
import { PAGE_END, pageStart, paragraph, rowsText, rowCountText } from './html-page.js'
import { jsonColumns } from './json.js'
import { renderResult, tableChunks } from './result.js'
import { htmlTable } from './html-table.js'
import type { Format, PageInfo, Rendered, RowRange, TextFormat } from './types.js'
import { contentType, isExchangeFormat } from './types.js'

/** Rows `!head` shows (`!data?range_=0&to_=500`). Documented as subject to change upstream. */
export const HEAD_ROWS = 500

function* headJson(result: ResultSet, cols: ResultSet, format: TextFormat, range: RowRange): Generator<string> {
  yield '{"cols":'
  yield* jsonColumns(cols, clipRange(undefined, cols.rowCount))
  yield `,"rows":${result.rowCount},"data":`
  yield* tableChunks(result, format, range)
  yield '}'
}

function* headText(result: ResultSet, cols: ResultSet, range: RowRange): Generator<string> {
  yield* tableChunks(cols, 'text', clipRange(undefined, cols.rowCount))
  yield `\n${rowsText(result.rowCount)}\n\n`
  yield* tableChunks(result, 'text', range)
}

function* headHtml(result: ResultSet, cols: ResultSet, range: RowRange, page?: PageInfo): Generator<string> {
  yield pageStart(page, 'Head') + '<h2>Columns</h2>\n'
  yield* htmlTable(cols, clipRange(undefined, cols.rowCount))
  // Only mention the cut when rows were actually left out.
  const shown = range.to < result.rowCount ? range : undefined
  yield '<h2>Data</h2>\n' + paragraph(rowCountText(result.rowCount, shown))
  yield* htmlTable(result, range)
  yield PAGE_END
}

/**
 * Render `!head` of a result. JSON (any json* format): `{"cols": <!cols column-major>, "rows":
 * <total>, "data": <first rows in the requested JSON shape>}`. Text: the cols table, a blank line,
 * "N rows", a blank line, the data table. HTML: one page with all three (`page` gives its title
 * and links). CSV, Arrow and Parquet carry one table: the first rows, as `!data` would give them.
 */
export function renderHead(result: ResultSet, app: 'run' | 'sql', format: Format, limit: number = HEAD_ROWS, page?: PageInfo): Rendered {
  const range = clipRange({ from: 0, to: limit }, result.rowCount)
  if (isExchangeFormat(format)) return renderResult(result, format, { range })
  const cols = colsTable(result.cols, app)
  const source =
    format === 'text'
      ? () => headText(result, cols, range)
      : format === 'html'
        ? () => headHtml(result, cols, range, page)
        : () => headJson(result, cols, format, range)
  return toRendered(contentType(format), source, shouldStream(range))
}
