/**
 * Who may upload where. Permissions are upload_table's (gateway/tables/save.ts): write permission
 * in the folder, and ownership of a table being replaced or appended to, checked at begin (so a
 * refused upload sends no data) and again at commit (they may have changed).
 */
import { AppError } from '../../../shared/errors.js'
import { checkPathSegments } from '../../../shared/name-limits.js'
import { isValidPath } from '../../../shared/table.js'
import { KEYS, parentPath, parseRecord, type TableRecord } from '../../catalog/records.js'
import { canReplace, writableFolder } from '../../catalog/write-access.js'
import type { DbmContext } from '../registry.js'
import { inHomeFolder } from '../new-table.js'
import type { Mode } from './state.js'

export function targetPath(uid: string, raw: string): string {
  const path = inHomeFolder(uid, raw)
  if (!isValidPath(path) || !path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `Invalid table name "${raw}": use a folder and a name separated by dots, such as uploads.${uid}.mytable.`, {
      parameter: 'path',
    })
  }
  checkPathSegments(path)
  return path
}

/** Checks the folder and the existing table against the mode; returns the table, if any. */
export async function checkTarget(ctx: DbmContext, path: string, mode: Mode): Promise<TableRecord | null> {
  await writableFolder(ctx.deps.store, ctx.user, parentPath(path))
  const existing = parseRecord<TableRecord>(await ctx.deps.store.get(KEYS.table(path)))
  if (!existing) return null
  if (mode === 'noreplace') {
    throw new AppError(
      'TABLE_EXISTS',
      `Table already exists: "${path}"; send "mode": "replace" to replace it or "mode": "append" to add rows to it, or choose another name.`,
      { table: path },
    )
  }
  checkOwner(ctx, path, mode, existing)
  return existing
}

export function checkOwner(ctx: DbmContext, path: string, mode: Mode, existing: TableRecord): void {
  if (!canReplace(ctx.user, existing)) {
    throw new AppError(
      'FORBIDDEN',
      `You do not own the table "${path}": only its owner or an administrator may ${mode === 'append' ? 'append to' : 'replace'} it; save under another name instead.`,
      { table: path },
    )
  }
}
