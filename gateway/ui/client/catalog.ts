/**
 * The folders, tables and columns the user may read, as the editor's sidebar and completion need
 * them: folders through `api/ls/{path}:json`, a table's columns through `api/{path}/!cols:json`.
 * Read lazily, one folder at a time, and each answer kept for the page's life, so typing a
 * dotted path or reopening a folder asks the service once.
 */
import { getJson } from './api.js'
import { apiHref } from './dom.js'

export interface CatalogEntry {
  /** The dotted path, e.g. pub.demo.retail.item. */
  readonly path: string
  readonly name: string
  readonly kind: 'dir' | 'table'
  readonly title: string
}

export interface CatalogColumn {
  readonly name: string
  readonly label: string
  /** The type letter of `!cols` (i, j, f, a); '' when the table does not say. */
  readonly type: string
}

/** Column-major JSON: one array per column of the answer. */
type ColumnMajor = Readonly<Record<string, readonly unknown[] | undefined>>

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v))

export class Catalog {
  private readonly folders = new Map<string, Promise<CatalogEntry[]>>()
  private readonly columnLists = new Map<string, Promise<CatalogColumn[]>>()

  /** The entries of a folder ('' for the top level); a failed read is forgotten, so it can be tried again. */
  folder(path: string): Promise<CatalogEntry[]> {
    let entries = this.folders.get(path)
    if (entries === undefined) {
      entries = getJson<ColumnMajor>(apiHref(path === '' ? 'ls:json' : `ls/${encodeURIComponent(path)}:json`)).then((ls) =>
        (ls.path ?? []).map((p, i) => ({
          path: text(p),
          name: text(ls.name?.[i]),
          kind: ls.type?.[i] === 'dir' ? 'dir' : 'table',
          title: text(ls.title?.[i]),
        })),
      )
      entries.catch(() => this.folders.delete(path))
      this.folders.set(path, entries)
    }
    return entries
  }

  /** A table's columns with their types. */
  columns(table: string): Promise<CatalogColumn[]> {
    let cols = this.columnLists.get(table)
    if (cols === undefined) {
      cols = getJson<ColumnMajor>(apiHref(`${encodeURIComponent(table)}/!cols:json`)).then((c) =>
        (c.name ?? []).map((n, i) => ({ name: text(n), label: text(c.label?.[i] ?? n), type: text(c.type?.[i]) })),
      )
      cols.catch(() => this.columnLists.delete(table))
      this.columnLists.set(table, cols)
    }
    return cols
  }

  /**
   * Whether a dotted path names a folder or a table the user may read, found by walking down from
   * the top level: only folders known to exist are listed, so a word that merely looks like a
   * path (an alias and a column, `a.store`) costs no failed request.
   */
  async kind(path: string): Promise<'dir' | 'table' | null> {
    const parts = path.split('.')
    let parent = ''
    for (let i = 0; i < parts.length; i++) {
      const here = parts.slice(0, i + 1).join('.')
      const entry = (await this.folder(parent)).find((e) => e.path === here)
      if (entry === undefined) return null
      if (i === parts.length - 1) return entry.kind
      if (entry.kind !== 'dir') return null
      parent = here
    }
    return null
  }
}
