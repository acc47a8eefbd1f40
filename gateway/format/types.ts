/**
 * The vocabulary shared by the renderers: which output formats exist, what a rendering produces
 * and how a caller selects rows. Kept apart so routes can import types without the renderers.
 */

/** Output formats, named after the URL suffix that selects them (`:json`, `:text`, …). */
export type Format = 'json' | 'json.rows' | 'json.keyed' | 'text' | 'html' | 'csv' | 'arrow' | 'parquet'

/** Every format, in a stable order (for validation and for tests). */
export const FORMATS: readonly Format[] = ['json', 'json.rows', 'json.keyed', 'text', 'html', 'csv', 'arrow', 'parquet']

/** The formats whose bodies are text (all but Arrow and Parquet). */
export const TEXT_FORMATS: readonly TextFormat[] = ['json', 'json.rows', 'json.keyed', 'text', 'html', 'csv']

/**
 * The exchange formats: a result's rows and nothing else (no page, no wrapper), for other tools
 * to read. Arrow and Parquet bodies are bytes.
 */
export type ExchangeFormat = 'csv' | 'arrow' | 'parquet'

export const isExchangeFormat = (format: Format): format is ExchangeFormat => format === 'csv' || format === 'arrow' || format === 'parquet'

/** The formats with a text body: every other renderer takes one of these. */
export type TextFormat = Exclude<Format, 'arrow' | 'parquet'>

/**
 * A rendered response. `body` is one string for small outputs and an async iterable of chunks
 * for large ones, so a big result never has to exist as one string in memory.
 */
export interface Rendered {
  readonly type: string
  /** Text, or chunks of text or (Arrow, Parquet) bytes. */
  readonly body: string | AsyncIterable<string | Uint8Array>
}

/** A half-open row range [from, to), numbered from 0 (the `range_`/`to_` parameters). */
export interface RowRange {
  readonly from: number
  readonly to: number
}

/** A link offered on an HTML page, e.g. to the same result as text or JSON. */
export interface PageLink {
  readonly label: string
  readonly href: string
}

/** What the caller knows about the page an HTML rendering sits in. Ignored by other formats. */
export interface PageInfo {
  readonly title?: string
  readonly links?: readonly PageLink[]
}

/** The content type sent with each format; always set, since proxies copy it through. */
export function contentType(format: Format): string {
  switch (format) {
    case 'text':
      return 'text/plain; charset=utf-8'
    case 'html':
      return 'text/html; charset=utf-8'
    case 'csv':
      return 'text/csv; charset=utf-8'
    case 'arrow':
      return 'application/vnd.apache.arrow.stream'
    case 'parquet':
      return 'application/vnd.apache.parquet'
    default:
      return 'application/json; charset=utf-8'
  }
}
