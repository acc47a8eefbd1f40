/**
 * The HTML page shell shared by every HTML rendering: a complete, self-contained HTML5 document
 * (no scripts, no external resources) with a title, the caller's links and a one-line summary.
 */
import { escapeHtml } from './escape.js'
import type { PageInfo, RowRange } from './types.js'

const CSS = [
  'body{font:14px/1.4 system-ui,sans-serif;margin:1em;color:#222}',
  'h1{font-size:1.2em}h2{font-size:1.05em}',
  'nav a{margin-right:1em}',
  'table{border-collapse:collapse;margin:.5em 0}',
  'th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}',
  'th{background:#f2f2f2;text-align:left}',
  '.n{text-align:right}',
  'pre{background:#f7f7f7;padding:.5em}',
].join('')

/** "1 row", "3 rows". */
export function rowsText(count: number): string {
  return `${count} ${count === 1 ? 'row' : 'rows'}`
}

/** "N rows" plus, when a range was asked for, which rows are shown (inclusive, from 0). */
export function summaryText(rowCount: number, range?: RowRange): string {
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
  const nav = links.length === 0
    ? ''
    : '<nav>' + links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join('') + '</nav>\n'
  return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    + `<title>${title}</title>\n<style>${CSS}</style>\n</head>\n<body>\n<h1>${title}</h1>\n${nav}`
}

/** A paragraph of plain text. */
export function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>\n`
}

/** The end of the document. */
export const PAGE_END = '</body>\n</html>\n'
