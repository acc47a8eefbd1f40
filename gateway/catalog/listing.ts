/**
 * Folder listings: the entries of a folder (and, with depth, of its sub-folders) that the caller
 * may see. Used by dbm (`get_names_in_dir`, `list_dir`) and by `api/ls` and folder URLs.
 */
import type { Store } from '../../shared/store/types.js'
import { canRead } from './access.js'
import type { Principal } from './principal.js'
import { KEYS, parseRecord, type DirRecord, type TableRecord } from './records.js'
import { noSuchDirectory, visibleDir } from './tables.js'

export type ListedObject = DirRecord | TableRecord

/** The folder records from the root down to `path` (inclusive), all visible to the caller. */
async function chainTo(store: Store, p: Principal, path: string): Promise<DirRecord[]> {
  if (path === '') return []
  const dir = await visibleDir(store, p, path)
  if (!dir) throw noSuchDirectory(path)
  const parts = path.split('.')
  const ancestors = await store.mget(parts.slice(0, -1).map((_, i) => KEYS.dir(parts.slice(0, i + 1).join('.'))))
  return [...ancestors.map((r) => parseRecord<DirRecord>(r)!), dir]
}

/** The visible objects directly in a folder whose chain (root first, folder last) is given. */
async function childrenOf(store: Store, p: Principal, path: string, chain: readonly DirRecord[]): Promise<ListedObject[]> {
  const entries = (await store.smembers(KEYS.entries(path))).sort()
  if (entries.length === 0) return []
  const keys = entries.map((e) => {
    const colon = e.indexOf(':')
    const kind = e.slice(0, colon)
    const child = e.slice(colon + 1)
    return kind === 'dir' ? KEYS.dir(child) : KEYS.table(child)
  })
  const raws = await store.mget(keys)
  const out: ListedObject[] = []
  for (const raw of raws) {
    const obj = parseRecord<ListedObject>(raw)
    if (obj && canRead(p, obj, chain)) out.push(obj)
  }
  return out
}

/**
 * Objects in `path` ('' = the root) the caller may see, depth-first in path order.
 * depth 1 = direct entries only; 0 = every level. A folder the caller may not see is reported
 * like a missing one.
 */
export async function listFolder(store: Store, p: Principal, path: string, depth = 1): Promise<ListedObject[]> {
  const out: ListedObject[] = []
  const visit = async (folder: string, chain: readonly DirRecord[], level: number): Promise<void> => {
    for (const obj of await childrenOf(store, p, folder, chain)) {
      out.push(obj)
      if (obj.kind === 'dir' && (depth === 0 || level < depth)) await visit(obj.path, [...chain, obj], level + 1)
    }
  }
  await visit(path, await chainTo(store, p, path), 1)
  return out
}

/** The row `list_dir` and `api/ls` show for an object (reference §6.2 `<directory>` columns). */
export interface ListingRow {
  readonly path: string
  readonly name: string
  readonly title: string
  readonly type: 'dir' | 'table'
  readonly owner: string
  readonly sdesc: string
  readonly rows: number | null
  readonly cols: number | null
  readonly updated: string
  readonly id: number
}

export const LISTING_COLUMNS: readonly (keyof ListingRow)[] = ['path', 'name', 'title', 'type', 'owner', 'sdesc', 'rows', 'cols', 'updated', 'id']

export function listingRow(o: ListedObject): ListingRow {
  return {
    path: o.path,
    name: o.path.split('.').pop()!,
    title: o.title,
    type: o.kind,
    owner: o.owner,
    sdesc: o.sdesc,
    rows: o.kind === 'table' ? o.rows : null,
    cols: o.kind === 'table' ? o.columns.length : null,
    updated: o.updated,
    id: o.id,
  }
}
