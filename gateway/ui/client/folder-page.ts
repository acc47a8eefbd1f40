/**
 * The folder browser: folders are plain links; picking a table shows its columns (`!cols`) and
 * its rows a page at a time, and puts its path in the URL's fragment so a reload reopens it.
 */
import './nav.js'
import { byId, make, pageData, required } from './dom.js'
import type { ColsDictionary } from './cells.js'
import { ErrorBox } from './messages.js'
import { ResultView } from './result-view.js'

const data = pageData()
const tableBase = required(data, 'table')
const section = byId('table-view')
const title = byId('table-title')
const desc = byId('table-desc')
const colsTable = byId<HTMLTableElement>('cols')
const sharing = byId<HTMLAnchorElement>('table-sharing')
const errors = new ErrorBox()
/** Counts picks, so the columns of a table picked earlier never replace those of a later one. */
let picks = 0
const view = new ResultView((err) => errors.show(err))

/** The !cols dictionary as a table: one row per column, one column per property. */
function showColumns(cols: ColsDictionary): void {
  const properties = Object.keys(cols)
  const head = make('tr')
  for (const p of properties) {
    const th = make('th', p)
    th.scope = 'col'
    head.append(th)
  }
  const body = document.createDocumentFragment()
  const count = cols[properties[0]]?.length ?? 0
  for (let c = 0; c < count; c++) {
    const tr = make('tr')
    for (const p of properties) tr.append(make('td', String(cols[p][c] ?? '')))
    body.append(tr)
  }
  colsTable.tHead!.replaceChildren(head)
  colsTable.tBodies[0].replaceChildren(body)
}

function open(entry: HTMLAnchorElement): void {
  const path = entry.dataset.path ?? ''
  for (const other of document.querySelectorAll('#entries a.entry[aria-current]')) other.removeAttribute('aria-current')
  entry.setAttribute('aria-current', 'true')
  title.textContent = path
  sharing.href = `${sharing.dataset.base ?? ''}${encodeURIComponent(path)}`
  desc.textContent = entry.dataset.title ?? ''
  errors.clear()
  colsTable.tHead!.replaceChildren()
  colsTable.tBodies[0].replaceChildren()
  view.hide()
  section.hidden = false
  history.replaceState(null, '', `#${encodeURIComponent(path)}`)
  const pick = ++picks
  view.load({ base: `${tableBase}/${encodeURIComponent(path)}`, from: required(data, 'from'), to: required(data, 'to') }).then(
    (cols) => pick === picks && showColumns(cols),
    (err: unknown) => pick === picks && errors.show(err),
  )
}

const tables = Array.from(document.querySelectorAll<HTMLAnchorElement>('#entries a.entry[data-kind="tab"]'))
for (const entry of tables) {
  entry.addEventListener('click', (ev) => {
    // A click that asks for a new tab or window keeps the link's own behaviour.
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return
    ev.preventDefault()
    open(entry)
  })
}

function fragment(): string {
  try {
    return decodeURIComponent(window.location.hash.slice(1))
  } catch {
    return '' // a hand-edited fragment that is not valid percent-encoding opens nothing
  }
}

const wanted = fragment()
const start = tables.find((t) => t.dataset.path === wanted)
if (start !== undefined) open(start)
