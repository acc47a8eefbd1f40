/**
 * The output renderers: pure functions from results and values to response bodies. Routes pick
 * the format from the URL suffix and hand the Rendered to Koa; nothing here knows about HTTP.
 */
import type { Format } from './types.js'
import { FORMATS } from './types.js'

export type { ExchangeFormat, Format, PageInfo, PageLink, Rendered, RowRange, TextFormat } from './types.js'
export { FORMATS, TEXT_FORMATS, contentType, isExchangeFormat } from './types.js'
export { escapeHtml } from './escape.js'
export { CHUNK_ROWS, STREAM_THRESHOLD, collectBody, collectBytes } from './chunks.js'
export { cellValue, displayCellReader } from './values.js'
export { displayFormatter, parseFormat, type DisplayColumn } from './display/index.js'
export { VALUES_PARAM, resultForValues, valuesMode, type ValuesMode } from './formatted-values.js'
export type { ResultOptions } from './result.js'
export { renderResult } from './result.js'
export type { PagedRows } from './paged.js'
export { PIECE_ROWS, renderPaged } from './paged.js'
export { refuseExchangeFormat, renderValue } from './value.js'
export type { WidgetStatus } from './widget-status.js'
export { renderWidgetStatus } from './widget-status.js'
export { colsTable } from './cols.js'
export { HEAD_ROWS, renderHead } from './head.js'
export { renderTruncatable, truncationText } from './truncated.js'
export type { TruncationInfo } from './truncated.js'

/**
 * The format named by a URL suffix (the part after `:`). No suffix means the browsable HTML;
 * an unrecognised suffix gives null so the caller can answer with an error.
 */
export function formatFromSuffix(suffix: string | null): Format | null {
  if (suffix === null) return 'html'
  return (FORMATS as readonly string[]).includes(suffix) ? (suffix as Format) : null
}
