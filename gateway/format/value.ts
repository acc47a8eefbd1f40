/**
 * renderValue: replies that are not result sets (a row count, `{tag}`, the login reply, a dbm
 * reply) in any output format.
 */
import { escapeHtml } from './escape.js'
import { PAGE_END, pageStart } from './html-page.js'
import { AppError } from '../../shared/errors.js'
import type { Format, PageInfo, Rendered } from './types.js'
import { contentType, isExchangeFormat } from './types.js'

/**
 * Refuses CSV, Arrow and Parquet for an answer that is not a table (a row count, a dbm reply,
 * widget changes): they hold rows of columns and nothing else. Routes with side effects call it
 * before acting, so a refused format changes nothing.
 */
export function refuseExchangeFormat(format: Format, what: string): void {
  if (!isExchangeFormat(format)) return
  throw new AppError(
    'INVALID_PARAMETER',
    `The format :${format} holds a table of rows, and ${what} is not one; ask for it as :json, :json.rows, :json.keyed, :text or :html.`,
    { suffix: format },
  )
}

/** JSON.stringify gives undefined for undefined (and functions); a body must be JSON. */
function json(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent) ?? 'null'
}

type Scalar = string | number | boolean | null

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

/** A plain object whose members are all scalars: shown as a definition list in HTML. */
function isFlatObject(value: unknown): value is Record<string, Scalar> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && Object.values(value).every(isScalar)
}

/** Text of a value: strings and numbers as themselves, anything else as indented JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return json(value)
  return json(value, 2)
}

function valueHtml(value: unknown): string {
  if (!isFlatObject(value)) return `<pre>${escapeHtml(valueText(value))}</pre>\n`
  const items = Object.entries(value).map(([k, v]) => {
    const shown = typeof v === 'string' ? v : json(v)
    return `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(shown)}</dd>\n`
  })
  return `<dl>\n${items.join('')}</dl>\n`
}

/**
 * Render a non-tabular value. json* → plain JSON (json.rows and json.keyed fall back to it);
 * text → a number or string as its text, anything else as indented JSON, plus a newline;
 * html → a page with a definition list for a flat object, `<pre>` otherwise.
 */
export function renderValue(value: unknown, format: Format, page?: PageInfo): Rendered {
  refuseExchangeFormat(format, 'this answer')
  const type = contentType(format)
  switch (format) {
    case 'text':
      return { type, body: valueText(value) + '\n' }
    case 'html':
      return { type, body: pageStart(page, 'Result') + valueHtml(value) + PAGE_END }
    default:
      return { type, body: json(value) }
  }
}
