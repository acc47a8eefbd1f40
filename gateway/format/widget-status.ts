/**
 * The answer of a dynamic instance that shows no widget: the widget status table and the
 * variables the request changed (reference §4.5). `widgets` is a table, so the format suffix
 * shapes it like any result (column-major under `:json`, `{cols, rows}` under `:json.rows`, row
 * objects under `:json.keyed`); `changes` is always a plain object, `{}` when nothing changed.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { joinChunks } from './chunks.js'
import { escapeHtml } from './escape.js'
import { PAGE_END, pageStart } from './html-page.js'
import { htmlTable } from './html-table.js'
import { tableChunks } from './result.js'
import { refuseExchangeFormat } from './value.js'
import type { Format, PageInfo, Rendered, TextFormat } from './types.js'
import { contentType } from './types.js'

/** The widget status table, column-major (engine/dynamic's StatusTable). */
export interface WidgetStatus {
  readonly name: readonly string[]
  readonly class: readonly string[]
  readonly changed: readonly number[]
}

function statusResult(status: WidgetStatus): ResultSet {
  return {
    cols: [columnMeta({ name: 'name', type: 'text' }), columnMeta({ name: 'class', type: 'text' }), columnMeta({ name: 'changed', type: 'int' })],
    columns: [
      { kind: 'text', data: status.name },
      { kind: 'text', data: status.class },
      { kind: 'int', data: Int32Array.from(status.changed) },
    ],
    rowCount: status.name.length,
  }
}

function changesText(changes: Readonly<Record<string, string>>): string {
  const entries = Object.entries(changes)
  if (entries.length === 0) return 'changes: none\n'
  return 'changes:\n' + entries.map(([k, v]) => `  ${k} = ${v}\n`).join('')
}

function changesHtml(changes: Readonly<Record<string, string>>): string {
  const entries = Object.entries(changes)
  if (entries.length === 0) return '<h2>Changes</h2>\n<p>none</p>\n'
  return '<h2>Changes</h2>\n<dl>\n' + entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>\n`).join('') + '</dl>\n'
}

/** Refused action dos by do name (dynamic-actions.ts), shown only for apps that have action dos. */
export type ActionErrors = Readonly<Record<string, { readonly action: string; readonly code: string; readonly msg: string }>>

function errorsText(errors: ActionErrors): string {
  const entries = Object.entries(errors)
  if (entries.length === 0) return 'errors: none\n'
  return 'errors:\n' + entries.map(([name, e]) => `  ${name} (${e.action}): ${e.code}: ${e.msg}\n`).join('')
}

function errorsHtml(errors: ActionErrors): string {
  const entries = Object.entries(errors)
  if (entries.length === 0) return '<h2>Errors</h2>\n<p>none</p>\n'
  return (
    '<h2>Errors</h2>\n<dl>\n' +
    entries.map(([name, e]) => `<dt>${escapeHtml(name)} (${escapeHtml(e.action)})</dt><dd>${escapeHtml(e.code)}: ${escapeHtml(e.msg)}</dd>\n`).join('') +
    '</dl>\n'
  )
}

/**
 * Render `{widgets, changes}`, and `errors` when given (apps with action dos). JSON shapes: `{"widgets": <the table in that shape>, "changes":
 * {…}}`. Text: the aligned table, a blank line, then the changes one per line. HTML: a page with
 * the table and the changes.
 */
export function renderWidgetStatus(
  status: WidgetStatus,
  changes: Readonly<Record<string, string>>,
  format: Format,
  page?: PageInfo,
  errors?: ActionErrors,
): Rendered {
  refuseExchangeFormat(format, 'a widget status with its changes')
  const table = statusResult(status)
  const range = { from: 0, to: table.rowCount }
  const type = contentType(format)
  switch (format) {
    case 'text':
      return { type, body: joinChunks(() => tableChunks(table, 'text', range)) + '\n' + changesText(changes) + (errors ? errorsText(errors) : '') }
    case 'html':
      return {
        type,
        body:
          pageStart(page, 'Widgets') +
          '<h2>Widgets</h2>\n' +
          joinChunks(() => htmlTable(table, range)) +
          changesHtml(changes) +
          (errors ? errorsHtml(errors) : '') +
          PAGE_END,
      }
    default:
      return {
        type,
        body:
          '{"widgets":' +
          joinChunks(() => tableChunks(table, format as TextFormat, range)) +
          ',"changes":' +
          JSON.stringify(changes) +
          (errors ? ',"errors":' + JSON.stringify(errors) : '') +
          '}',
      }
  }
}
