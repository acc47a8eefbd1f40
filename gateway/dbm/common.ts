/**
 * What several dbm catalogue files share: how folders and tables are shown, lookups that treat
 * an object the caller may not see as missing, checks of principal names, and the column-major
 * form every list takes.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { isValidPath } from '../../shared/table.js'
import { canEdit, canRead, canWriteDir } from '../catalog/access.js'
import type { Principal } from '../catalog/principal.js'
import { KEYS, ancestorPaths, parseRecord, type DirRecord, type TableRecord } from '../catalog/records.js'
import { noSuchDirectory, noSuchTable, visibleDir, visibleTable } from '../catalog/tables.js'

/** A folder as dbm shows it (reference §6.2); `inherit` and `secure` are 0/1 as in 1010data. */
export function dirView(d: DirRecord): Record<string, unknown> {
  return {
    id: d.id,
    path: d.path,
    name: d.path,
    type: 'dir',
    title: d.title,
    sdesc: d.sdesc,
    ldesc: d.ldesc,
    owner: d.owner,
    users: d.users,
    uploaders: d.uploaders,
    inherit: d.inherit ? 1 : 0,
    secure: 0,
    mode: 'data',
    created: d.created,
    updated: d.updated,
  }
}

/** A table as dbm shows it, without data; with `cols` when asked for. */
export function tableView(t: TableRecord, opts: { cols?: boolean } = {}): Record<string, unknown> {
  return {
    id: t.id,
    path: t.path,
    name: t.path,
    type: 'table',
    title: t.title,
    sdesc: t.sdesc,
    ldesc: t.ldesc,
    owner: t.owner,
    users: t.users,
    inherit: t.inherit ? 1 : 0,
    secure: 0,
    mode: 'data',
    ctype: 0,
    rows: t.rows,
    ncols: t.columns.length,
    created: t.created,
    updated: t.updated,
    ...(opts.cols
      ? { cols: t.columns.map((c) => ({ name: c.name, type: c.type, label: c.label ?? c.name, desc: c.desc ?? '', format: c.format ?? '' })) }
      : {}),
  }
}

/** Keeps only the fields named in `include` (when given); unknown names are an error. */
export function pick(view: Record<string, unknown>, include: readonly string[] | undefined, transaction: string): Record<string, unknown> {
  if (include === undefined || include.length === 0) return view
  const out: Record<string, unknown> = {}
  for (const f of include) {
    if (!(f in view)) {
      throw new AppError(
        'INVALID_PARAMETER',
        `Transaction "${transaction}": "include" names the unknown field "${f}"; fields are ${Object.keys(view).join(', ')}.`,
        { parameter: 'include' },
      )
    }
    out[f] = view[f]
  }
  return out
}

/** A list of rows as the column-major table every dbm list returns. */
export function columnMajor(names: readonly string[], rows: readonly Record<string, unknown>[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {}
  for (const n of names) out[n] = rows.map((r) => r[n] ?? null)
  return out
}

/** A path parameter that must name an object (not the root). */
export function checkPath(path: string, what: 'directory' | 'table'): string {
  if (!isValidPath(path)) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Invalid ${what} name "${path}": use dot-separated names that start with a lower-case letter and contain only lower-case letters, digits and underscores.`,
      { parameter: 'path' },
    )
  }
  return path
}

/** The folder, if the caller may see it; otherwise exactly the error a missing folder gives. */
export async function requireDir(store: Store, p: Principal, path: string): Promise<DirRecord> {
  const dir = await visibleDir(store, p, path)
  if (!dir) throw noSuchDirectory(path)
  return dir
}

/** The table, if the caller may see it; otherwise exactly the error a missing table gives. */
export async function requireTable(store: Store, p: Principal, path: string): Promise<TableRecord> {
  const table = await visibleTable(store, p, path)
  if (!table) throw noSuchTable(path)
  return table
}

/** The folder or table at `path` the caller may see, or null. */
export async function visibleObject(store: Store, p: Principal, path: string): Promise<DirRecord | TableRecord | null> {
  return (await visibleDir(store, p, path)) ?? (await visibleTable(store, p, path))
}

/** The caller's rights on an object (get_permissions, listings). */
export async function effectiveRights(store: Store, p: Principal, object: DirRecord | TableRecord): Promise<{ read: boolean; write: boolean; share: boolean }> {
  const chain = (await store.mget(ancestorPaths(object.path).map(KEYS.dir))).map((r) => parseRecord<DirRecord>(r))
  return {
    read: canRead(p, object, chain),
    write: object.kind === 'dir' ? canWriteDir(p, object) : canEdit(p, object),
    share: canEdit(p, object),
  }
}

/** Refuses an edit by someone who is neither the owner nor an administrator. */
export function requireOwner(p: Principal, object: DirRecord | TableRecord): void {
  if (!canEdit(p, object)) {
    const what = object.kind === 'dir' ? 'directory' : 'table'
    throw new AppError('FORBIDDEN', `Only the owner of the ${what} "${object.path}" (${object.owner}) or an administrator may do this.`, {
      [what]: object.path,
    })
  }
}

/** Refuses a creation in `dir` by someone who may not write there. */
export function requireWritableDir(p: Principal, dir: DirRecord): void {
  if (!canWriteDir(p, dir)) {
    throw new AppError('FORBIDDEN', `You have no permission to create in "${dir.path}"; ask its owner (${dir.owner}) to add you to its uploaders.`, {
      directory: dir.path,
    })
  }
}

/**
 * Checks that every name in a users/uploaders list is '*', an existing user or an existing
 * group; `parameter` is named in the message.
 */
export async function checkPrincipalNames(store: Store, names: readonly string[], parameter: string): Promise<void> {
  const candidates = names.filter((n) => n !== '*')
  if (candidates.length === 0) return
  const raws = await store.mget(candidates.flatMap((n) => [KEYS.user(n), KEYS.group(n)]))
  const unknown = candidates.filter((_, i) => raws[2 * i] === null && raws[2 * i + 1] === null)
  if (unknown.length > 0) {
    throw new AppError('INVALID_PARAMETER', `Invalid user or group name${unknown.length > 1 ? 's' : ''} in "${parameter}": ${unknown.join(', ')}.`, {
      parameter,
    })
  }
}

/**
 * Inheritance of a new folder or table: as given, else off when a reader list is given (the list
 * is then exactly who reads, besides owner and administrators), else the default (on). make_dir
 * and upload_table share it so that the same parameters mean the same thing.
 */
export const inheritanceOf = (users: readonly string[] | undefined, inherit: boolean | undefined): boolean | undefined =>
  inherit ?? (users !== undefined ? false : undefined)
