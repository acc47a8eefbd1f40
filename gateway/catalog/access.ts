/**
 * Permissions on folders and tables.
 *
 * - read: administrators, the owner, the principals the object lists ('*' = everyone) and, when
 *   it inherits, whoever can read its parent folder (the owner of such a folder included). The
 *   list counts whether or not the object inherits: sharing one table with a user (dbm `share`,
 *   which leaves inheritance as it was) lets that user read the table by its path, while its
 *   folder, and so the folder's listing, may stay hidden from them.
 * - write into a folder (create or save tables and sub-folders): administrators, the owner, the
 *   folder's uploaders.
 * - edit an object (info, sharing, replace, drop, move): administrators and the owner.
 * A caller who may not read an object is told exactly what a caller asking for a missing one is
 * told, so names do not leak.
 */
import type { DirRecord, TableRecord } from './records.js'
import { listed, type Principal } from './principal.js'

type Readable = Pick<DirRecord | TableRecord, 'owner' | 'users' | 'inherit'>

/**
 * @param chain the object's folders, outermost first (null where a folder record is missing)
 */
export function canRead(p: Principal, object: Readable, chain: readonly (DirRecord | null)[]): boolean {
  if (p.admin) return true
  let current: Readable | null = object
  for (let i = chain.length; current !== null; i--) {
    if (current.owner === p.uid || listed(p, current.users)) return true
    if (!current.inherit) return false
    current = i > 0 ? chain[i - 1] : null
  }
  return false
}

export function canWriteDir(p: Principal, dir: DirRecord): boolean {
  return p.admin || dir.owner === p.uid || listed(p, dir.uploaders)
}

/** Owner-only actions: editing info, sharing, replacing, appending, dropping, moving. */
export function canEdit(p: Principal, object: Pick<DirRecord | TableRecord, 'owner'>): boolean {
  return p.admin || object.owner === p.uid
}
