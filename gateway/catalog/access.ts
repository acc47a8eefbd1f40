/**
 * Read permission. An object is readable by the administrators, its owner, the users it lists
 * ('*' = everyone) and, when it inherits, by whoever can read its parent folder. A caller who
 * may not read a table is told exactly what a caller asking for a missing table is told.
 */
import type { DirRecord, TableRecord, UserRecord } from './records.js'

type Readable = Pick<DirRecord | TableRecord, 'owner' | 'users' | 'inherit'>

function listed(user: UserRecord, users: readonly string[]): boolean {
  return users.includes('*') || users.includes(user.uid) || user.groups.some((g) => users.includes(g))
}

/**
 * @param chain the object's folders, outermost first (null where a folder record is missing)
 */
export function canRead(user: UserRecord, object: Readable, chain: readonly (DirRecord | null)[]): boolean {
  if (user.admin) return true
  let current: Readable | null = object
  for (let i = chain.length; current !== null; i--) {
    if (current.owner === user.uid) return true
    if (!current.inherit) return listed(user, current.users)
    current = i > 0 ? chain[i - 1] : null
  }
  return false
}
