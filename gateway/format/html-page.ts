/**
 * The HTML page shell shared by every HTML rendering: a complete HTML5 document (no scripts,
 * nothing from another server) with a title, the caller's links and a one-line summary.
 */
import { escapeHtml } from './escape.js'
import type { PageInfo, RowRange } from './types.js'

/**
 * Styles come from the workbench's stylesheet: the Content-Security-Policy (gateway/ui/headers.ts)
 * refuses inline styles, and one file keeps these pages and the workbench alike.
 */
const HEAD_LINKS = '<link rel="icon" href="/ui/favicon.svg" type="image/svg+xml">\n<link rel="stylesheet" href="/ui/workbench.css">\n'

/** "1 row", "3 rows". */
export function rowsText(count: number): string {
  return `${count} ${count === 1 ? 'row' : 'rows'}`
}

/** "N rows" plus, when a range was asked for, which rows are shown (inclusive, from 0). */
export function rowCountText(rowCount: number, range?: RowRange): string {
  const total = rowsText(rowCount)
  if (range === undefined) return total
  if (range.to <= range.from) return `${total}, showing none`
  if (range.to - range.from === 1) return `${total}, showing row ${range.from}`
  return `${total}, showing rows ${range.from}\u2013${range.to - 1}`
}

/** The document up to and including the heading and links; content follows. */
export function pageStart(page: PageInfo | undefined, fallbackTitle: string): string {
  const title = escapeHtml(page?.title ?? fallbackTitle)
  const links = page?.links ?? []
  const nav = links.length === 0 ? '' : '<nav>' + links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join('') + '</nav>\n'
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' + `<title>${title}</title>\n${HEAD_LINKS}</head>\n<body>\n<h1>${title}</h1>\n${nav}`
  )
}

/** A paragraph of plain text. */
export function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>\n`
}

/** The end of the document. */
export const PAGE_END = '</body>\n</html>\n'
