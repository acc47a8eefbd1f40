/**
 * Write permission on a folder: creating or replacing a table in it. Administrators, the folder's
 * owner and its uploaders may write. Each user has a home folder `uploads.<uid>`, created on
 * first use, where only that user writes; `uploads` itself takes no tables.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import type { DirRecord, TableRecord, UserRecord } from './records.js'
import { ensureDir, getDir } from './tables.js'

const listed = (user: UserRecord, users: readonly string[]): boolean =>
  users.includes('*') || users.includes(user.uid) || user.groups.some((g) => users.includes(g))

export function canWriteDir(user: UserRecord, dir: DirRecord): boolean {
  return user.admin || dir.owner === user.uid || listed(user, dir.uploaders)
}

/** Replacing a table also needs ownership of the table (or administration). */
export function canReplace(user: UserRecord, table: TableRecord): boolean {
  return user.admin || table.owner === user.uid
}

/** The folder a new table goes into, checked for write permission (home folders made on demand). */
export async function writableFolder(store: Store, user: UserRecord, folder: string): Promise<DirRecord> {
  if (folder === 'uploads') {
    throw new AppError('FORBIDDEN', `Tables cannot be saved directly into "uploads"; save into your own folder uploads.${user.uid}.`)
  }
  if (folder === `uploads.${user.uid}`) {
    await ensureDir(store, { path: 'uploads', owner: 'admin', title: 'Uploads', users: [], inherit: false })
    return ensureDir(store, { path: folder, owner: user.uid, title: `${user.uid}'s tables`, users: [], inherit: false })
  }
  const dir = await getDir(store, folder)
  if (!dir) {
    throw new AppError('UNKNOWN_DIRECTORY', `No such folder "${folder}"; save into an existing folder you may write to, such as uploads.${user.uid}.`, { folder })
  }
  if (!canWriteDir(user, dir)) throw new AppError('FORBIDDEN', `You may not save tables into "${folder}"; save into uploads.${user.uid} or ask the folder's owner.`, { folder })
  return dir
}
