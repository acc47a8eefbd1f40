/**
 * Minimal HTML forms for the endpoints that take a query, shown when a browser opens them
 * without one (SPEC §4.1: the user interface offers an editor box and a Submit button).
 */
import { escapeHtml, type Rendered } from '../format/index.js'
import { PAGE_END, pageStart } from '../format/html-page.js'
import type { ParsedPath } from '../path.js'

export function sqlFormPage(route: ParsedPath, sql: string): Rendered {
  const action = `/${route.version}/api/sql`
  const body =
    pageStart({ title: 'sql' }, 'sql') +
    `<form method="post" action="${escapeHtml(action)}">\n` +
    `<label for="sql">SQL query</label><br>\n` +
    `<textarea id="sql" name="sql" rows="8" cols="80">${escapeHtml(sql)}</textarea><br>\n` +
    `<button type="submit">Submit</button>\n</form>\n` +
    PAGE_END
  return { type: 'text/html; charset=utf-8', body }
}
