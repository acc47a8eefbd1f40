/**
 * The editor page's sidebar: the folders and tables the user may read, as a tree that opens a
 * folder or a table (its columns, with their types) on demand. Clicking a table's or a column's
 * name puts the name at the editor's cursor. Everything is a button, so it works from the
 * keyboard; what the service sends is inserted as text only.
 */
import { messageOf } from './api.js'
import type { Catalog, CatalogColumn, CatalogEntry } from './catalog.js'
import { make } from './dom.js'

/** The names of the type letters of `!cols`. */
const TYPE_NAMES: Readonly<Record<string, string>> = { i: 'int', j: 'bigint', f: 'float', a: 'text' }

export class Sidebar {
  constructor(
    private readonly root: HTMLElement,
    private readonly catalog: Catalog,
    /** Puts a name at the editor's cursor. */
    private readonly insert: (text: string) => void,
  ) {}

  /** Lists the top-level folders. */
  async show(): Promise<void> {
    const list = make('ul', undefined, 'tree')
    list.id = 'tree'
    this.root.replaceChildren(list)
    await this.fill(list, () => this.catalog.folder('').then((entries) => entries.map((e) => this.entryItem(e))))
  }

  /** Fills a list with what `load` makes, or with the reason it failed. */
  private async fill(list: HTMLElement, load: () => Promise<HTMLElement[]>): Promise<void> {
    list.replaceChildren(make('li', 'Loading…', 'hint'))
    try {
      const items = await load()
      list.replaceChildren(...(items.length === 0 ? [make('li', 'Nothing here you may read.', 'hint')] : items))
    } catch (err) {
      list.replaceChildren(make('li', messageOf(err), 'error'))
    }
  }

  /** A folder or a table: a toggle that opens it, and for a table its name to insert. */
  private entryItem(entry: CatalogEntry): HTMLElement {
    const li = make('li', undefined, entry.kind === 'dir' ? 'folder' : 'table')
    li.dataset.path = entry.path
    const toggle = make('button', entry.kind === 'dir' ? `${entry.name}/` : '▸', 'toggle')
    toggle.type = 'button'
    toggle.setAttribute('aria-expanded', 'false')
    toggle.setAttribute('aria-label', entry.kind === 'dir' ? `Folder ${entry.path}` : `Columns of ${entry.path}`)
    li.append(toggle)
    if (entry.kind === 'table') {
      const name = make('button', entry.name, 'insert')
      name.type = 'button'
      name.title = entry.title === '' ? `Insert ${entry.path}` : `${entry.title}: insert ${entry.path}`
      name.dataset.insert = entry.path
      name.addEventListener('click', () => this.insert(entry.path))
      li.append(name)
    }
    const children = make('ul')
    children.hidden = true
    li.append(children)
    let loaded = false
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true'
      toggle.setAttribute('aria-expanded', String(open))
      if (entry.kind === 'table') toggle.textContent = open ? '▾' : '▸'
      children.hidden = !open
      if (!open || loaded) return
      loaded = true
      void this.fill(children, () =>
        entry.kind === 'dir'
          ? this.catalog.folder(entry.path).then((entries) => entries.map((e) => this.entryItem(e)))
          : this.catalog.columns(entry.path).then((cols) => cols.map((c) => this.columnItem(c))),
      )
    })
    return li
  }

  private columnItem(col: CatalogColumn): HTMLElement {
    const li = make('li', undefined, 'column')
    const name = make('button', col.name, 'insert')
    name.type = 'button'
    name.dataset.insert = col.name
    name.title = col.label === col.name ? `Insert ${col.name}` : `${col.label}: insert ${col.name}`
    name.addEventListener('click', () => this.insert(col.name))
    li.append(name, make('span', TYPE_NAMES[col.type] ?? col.type, 'type'))
    return li
  }
}
