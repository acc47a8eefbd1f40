/**
 * The folder a new table goes into. Each user has a home folder `uploads.<uid>`, created on first
 * use, where only that user writes; `uploads` itself takes no tables.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { canEdit, canWriteDir } from './access.js'
import type { Principal } from './principal.js'
import type { DirRecord, TableRecord } from './records.js'
import { ensureDir, visibleDir } from './tables.js'

export { canWriteDir }

/** Replacing or appending to a table also needs ownership of the table (or administration). */
export const canReplace = (p: Principal, table: TableRecord): boolean => canEdit(p, table)

/** The user's home folder (and `uploads` above it), made on demand. */
export async function ensureHomeFolder(store: Store, uid: string): Promise<DirRecord> {
  await ensureDir(store, { path: 'uploads', owner: 'admin', title: 'Uploads', users: [], inherit: false })
  return ensureDir(store, { path: `uploads.${uid}`, owner: uid, title: `${uid}'s tables`, users: [], inherit: false })
}

/** The folder a new table goes into, checked for write permission (home folders made on demand). */
export async function writableFolder(store: Store, p: Principal, folder: string): Promise<DirRecord> {
  if (folder === 'uploads') {
    throw new AppError('FORBIDDEN', `Tables cannot be saved directly into "uploads"; save into your own folder uploads.${p.uid}.`)
  }
  if (folder === `uploads.${p.uid}`) return ensureHomeFolder(store, p.uid)
  // A folder the caller may not read is reported like a missing one.
  const dir = await visibleDir(store, p, folder)
  if (!dir) {
    throw new AppError('UNKNOWN_DIRECTORY', `No such folder "${folder}"; save into an existing folder you may write to, such as uploads.${p.uid}.`, { folder })
  }
  if (!canWriteDir(p, dir))
    throw new AppError('FORBIDDEN', `You may not save tables into "${folder}"; save into uploads.${p.uid} or ask the folder's owner.`, { folder })
  return dir
}
