/**
 * The folder browser (`api/ls`, `api/ls/{path}`, `api/{folder}`): breadcrumbs, the entries the
 * caller may read, and, for the table picked, its columns and first rows (client/folder-page.ts).
 * Entries are real links, so the browser works from the keyboard and without script too.
 */
import type { ListingRow } from '../catalog/listing.js'
import type { PageLink, Rendered } from '../format/index.js'
import { html, type Markup } from './markup.js'
import { errorBox, resultPanel } from './panels.js'
import { apiHref, workbenchPage } from './shell.js'

export interface FolderPageOptions {
  readonly version: string
  readonly uid: string
  /** The folder's dotted path; '' for the top level. */
  readonly path: string
  readonly entries: readonly ListingRow[]
  /** The same listing as text and JSON. */
  readonly links: readonly PageLink[]
}

const folderHref = (version: string, path: string): string => apiHref(version, path === '' ? 'ls' : `ls/${encodeURIComponent(path)}`)

function crumbs(version: string, path: string): Markup {
  const parts = path === '' ? [] : path.split('.')
  const trail = parts.map((part, i) => {
    const sub = parts.slice(0, i + 1).join('.')
    return i === parts.length - 1
      ? html` <span class="sep" aria-hidden="true">›</span> <span aria-current="page">${part}</span>`
      : html` <span class="sep" aria-hidden="true">›</span> <a href="${folderHref(version, sub)}">${part}</a>`
  })
  const root = parts.length === 0 ? html`<span aria-current="page">Folders</span>` : html`<a href="${folderHref(version, '')}">Folders</a>`
  return html`<nav id="crumbs" class="crumbs" aria-label="Folder path">${root}${trail}</nav>\n`
}

/** "1 row", "3,000 rows"; '?' when the catalog does not say. */
function count(n: number | null, one: string, many: string): string {
  return n === null ? `? ${many}` : `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
}

function entry(version: string, row: ListingRow): Markup {
  if (row.type === 'dir') {
    return html`<li><a class="entry" data-kind="dir" data-path="${row.path}" href="${folderHref(version, row.path)}">${row.name}/</a> <span class="meta">${row.title}</span></li>\n`
  }
  // Without script the link opens the table's !head (columns and first rows) rather than all rows.
  const href = apiHref(version, `${encodeURIComponent(row.path)}/!head`)
  const meta = `${count(row.rows, 'row', 'rows')} × ${count(row.cols, 'column', 'columns')}${row.title === '' ? '' : ` · ${row.title}`}`
  return html`<li><a class="entry" data-kind="tab" data-path="${row.path}" data-title="${row.title}" href="${href}">${row.name}</a> <span class="meta">${meta}</span></li>\n`
}

export function folderPage(opts: FolderPageOptions): Rendered {
  const list =
    opts.entries.length === 0
      ? html`<ul id="entries" class="entries"></ul>\n<p class="hint">This folder is empty, or holds nothing you may read.</p>\n`
      : html`<ul id="entries" class="entries">\n${opts.entries.map((row) => entry(opts.version, row))}</ul>\n`
  const formats = opts.links.map((l) => html` <a href="${l.href}">${l.label}</a>`)
  // The administration pages for this folder (admin-sharing.ts, admin-upload.ts); they say what the user may do there.
  const actions =
    opts.path === ''
      ? ''
      : html`<p class="formats"><a id="folder-sharing" href="${apiHref(opts.version, `dbm/sharing/${encodeURIComponent(opts.path)}`)}">Sharing</a> <a id="folder-upload" href="${apiHref(opts.version, `dbm/upload/${encodeURIComponent(opts.path)}`)}">Upload a table here</a></p>
`
  const content = html`${crumbs(opts.version, opts.path)}<p class="formats">This listing as${formats}</p>
${actions}<div class="browser">
<div class="entries-pane">
${list}</div>
<section id="table-view" class="table-view" aria-labelledby="table-title" hidden>
<h2 id="table-title"></h2>
<p id="table-desc" class="hint"></p>
<p class="formats"><a id="table-sharing" data-base="${apiHref(opts.version, 'dbm/sharing/')}">Sharing</a></p>
<h3>Columns</h3>
<div class="table-wrap"><table id="cols"><thead></thead><tbody></tbody></table></div>
<h3>Rows</h3>
${errorBox()}${resultPanel()}</section>
</div>
`
  return workbenchPage({
    version: opts.version,
    uid: opts.uid,
    title: opts.path === '' ? 'Top-level folders' : opts.path,
    active: 'ls',
    script: 'folder-page.js',
    data: { mode: 'folder', table: apiHref(opts.version, ''), from: 'range_', to: 'to_' },
    content,
  })
}
