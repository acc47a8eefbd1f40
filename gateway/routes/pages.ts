/**
 * Minimal HTML forms for the endpoints that take a query, shown when a browser opens them
 * without one (SPEC §4.1: the user interface offers an editor box and a Submit button).
 */
import { escapeHtml, type Rendered } from '../format/index.js'
import { PAGE_END, pageStart } from '../format/html-page.js'
import type { ParsedPath } from '../path.js'

function queryForm(route: ParsedPath, app: string, param: string, label: string, text: string): Rendered {
  const action = `/${route.version}/api/${app}`
  const body =
    pageStart({ title: app }, app) +
    `<form method="post" action="${escapeHtml(action)}">\n` +
    `<label for="${param}">${escapeHtml(label)}</label><br>\n` +
    `<textarea id="${param}" name="${param}" rows="12" cols="90">${escapeHtml(text)}</textarea><br>\n` +
    `<button type="submit">Submit</button>\n</form>\n` +
    PAGE_END
  return { type: 'text/html; charset=utf-8', body }
}

export const sqlFormPage = (route: ParsedPath, sql: string): Rendered => queryForm(route, 'sql', 'sql', 'SQL query', sql)

export const newFormPage = (route: ParsedPath): Rendered => queryForm(route, 'new', 'xml', 'Query of the new instance', '<macro>\n  <dynamic x="1">\n  </dynamic>\n</macro>')

export const runFormPage = (route: ParsedPath): Rendered =>
  queryForm(route, 'run', 'xml', 'Macro-language query', '<base table="pub.demo.retail.item"/>\n<sel value="store=1"/>')
