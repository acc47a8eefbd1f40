/**
 * Permissions on folders and tables.
 *
 * - read: administrators, the owner, the principals the object lists ('*' = everyone) and, when
 *   it inherits, whoever can read its parent folder (the owner of such a folder included).
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
    if (current.owner === p.uid) return true
    if (!current.inherit) return listed(p, current.users)
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
