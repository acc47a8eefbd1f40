/** Table and folder records in the catalog: lookup with permissions, and committing versions. */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { isValidPath, type TableMeta, type ColumnSpec } from '../../shared/table.js'
import { canRead } from './access.js'
import type { Principal } from './principal.js'
import { KEYS, ancestorPaths, newRev, parentPath, parseRecord, type DirRecord, type TableRecord } from './records.js'
import { retireVersionOp } from './retired.js'
import { catalogTxn } from './txn.js'

export function noSuchTable(path: string): AppError {
  return new AppError('UNKNOWN_TABLE', `No such table "${path}"; check the path (folders and table name separated by dots).`, { table: path })
}

export function noSuchDirectory(path: string): AppError {
  return new AppError('UNKNOWN_DIRECTORY', `No such directory "${path}"; check the path (folder names separated by dots).`, { directory: path })
}

/** The object at `path` with its folders, outermost first, in one round trip. */
async function withChain<T>(store: Store, key: string, path: string): Promise<{ object: T | null; chain: (DirRecord | null)[] }> {
  const [raw, ...dirs] = await store.mget([key, ...ancestorPaths(path).map(KEYS.dir)])
  return { object: parseRecord<T>(raw), chain: dirs.map((d) => parseRecord<DirRecord>(d)) }
}

/** The table at `path` if the caller may read it, else null (missing and unreadable alike). */
export async function visibleTable(store: Store, p: Principal, path: string): Promise<TableRecord | null> {
  if (!isValidPath(path)) return null
  const { object, chain } = await withChain<TableRecord>(store, KEYS.table(path), path)
  return object !== null && canRead(p, object, chain) ? object : null
}

/** The folder at `path` if the caller may read it, else null. */
export async function visibleDir(store: Store, p: Principal, path: string): Promise<DirRecord | null> {
  if (!isValidPath(path)) return null
  const { object, chain } = await withChain<DirRecord>(store, KEYS.dir(path), path)
  return object !== null && canRead(p, object, chain) ? object : null
}

/**
 * The table at `path` if the user may read it. A table the user may not read is reported exactly
 * like a missing one, so table names do not leak.
 */
export async function readableTable(store: Store, p: Principal, path: string): Promise<TableRecord> {
  const table = await visibleTable(store, p, path)
  if (table === null) throw noSuchTable(path)
  return table
}

export async function getDir(store: Store, path: string): Promise<DirRecord | null> {
  return parseRecord<DirRecord>(await store.get(KEYS.dir(path)))
}

/** Writes that list a new object in its folder and mark the folder's contents as changed. */
export function listInFolderOps(kind: 'dir' | 'table', path: string): WriteOp[] {
  const parent = parentPath(path)
  return [
    { op: 'sadd', key: KEYS.entries(parent), members: [`${kind}:${path}`] },
    { op: 'set', key: KEYS.contentsRev(parent), value: newRev() },
  ]
}

/** Writes that take an object out of its folder's listing. */
export function unlistFromFolderOps(kind: 'dir' | 'table', path: string): WriteOp[] {
  const parent = parentPath(path)
  return [
    { op: 'srem', key: KEYS.entries(parent), members: [`${kind}:${path}`] },
    { op: 'set', key: KEYS.contentsRev(parent), value: newRev() },
  ]
}

export interface DirInit {
  readonly path: string
  readonly owner: string
  readonly title?: string
  readonly users?: readonly string[]
  readonly uploaders?: readonly string[]
  readonly inherit?: boolean
  readonly sdesc?: string
  readonly ldesc?: string
}

export function newDirRecord(id: number, init: DirInit): DirRecord {
  const now = new Date().toISOString()
  return {
    kind: 'dir', id, path: init.path, title: init.title ?? init.path.split('.').pop()!, owner: init.owner,
    users: init.users ?? [], uploaders: init.uploaders ?? [], inherit: init.inherit ?? true,
    sdesc: init.sdesc ?? '', ldesc: init.ldesc ?? '', created: now, updated: now,
  }
}

/**
 * Creates a folder unless a folder is already there; returns the folder. The parent must exist
 * (the root always does). `created` tells whether this call made it.
 */
export async function createDir(store: Store, init: DirInit, opts: { mustNotExist?: boolean } = {}): Promise<{ dir: DirRecord; created: boolean }> {
  const parent = parentPath(init.path)
  const id = await store.incr(KEYS.objectId)
  return catalogTxn<{ dir: DirRecord; created: boolean }>(store, () => [KEYS.dir(init.path), KEYS.table(init.path), ...(parent ? [KEYS.dir(parent)] : [])], (w) => {
    const existing = parseRecord<DirRecord>(w.get(KEYS.dir(init.path)) ?? null)
    if (existing) {
      if (opts.mustNotExist) throw new AppError('ALREADY_EXISTS', `The directory "${init.path}" already exists.`, { directory: init.path })
      return { ops: [], result: { dir: existing, created: false } }
    }
    if (w.get(KEYS.table(init.path))) throw new AppError('ALREADY_EXISTS', `A table named "${init.path}" already exists; choose another folder name.`, { directory: init.path })
    if (parent && !w.get(KEYS.dir(parent))) throw noSuchDirectory(parent)
    const dir = newDirRecord(id, init)
    return { ops: [{ op: 'set', key: KEYS.dir(dir.path), value: JSON.stringify(dir) }, ...listInFolderOps('dir', dir.path)], result: { dir, created: true } }
  })
}

/** Creates the folder (not its parents) unless it exists; returns the folder. */
export async function ensureDir(store: Store, init: DirInit): Promise<DirRecord> {
  return (await createDir(store, init)).dir
}

export interface TableInit {
  readonly path: string
  readonly owner: string
  readonly title?: string
  readonly users?: readonly string[]
  readonly inherit?: boolean
  readonly sdesc?: string
  readonly ldesc?: string
}

export function tableExists(path: string): AppError {
  return new AppError('TABLE_EXISTS', `The table "${path}" already exists; send replace=1 to replace it.`, { table: path })
}

/**
 * Points the catalog at a freshly written version: one atomic batch that writes the table record,
 * lists it in its folder and retires the version it replaces. The version folder must already be
 * complete on disk. With `expectVersion`, the table must still be at that version (append:
 * the new version was built from it).
 */
export async function commitTable(
  store: Store,
  init: TableInit,
  meta: TableMeta,
  opts: { mustNotExist?: boolean; expectVersion?: string } = {},
): Promise<TableRecord> {
  if (!isValidPath(init.path) || !init.path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `Invalid table path "${init.path}": use dotted lower-case names inside a folder, such as uploads.me.sales.`)
  }
  const parent = parentPath(init.path)
  const id = await store.incr(KEYS.objectId)
  return catalogTxn(store, () => [KEYS.table(init.path), KEYS.dir(init.path), KEYS.dir(parent)], (w) => {
    const previous = parseRecord<TableRecord>(w.get(KEYS.table(init.path)) ?? null)
    if (previous && opts.mustNotExist) throw tableExists(init.path)
    if (opts.expectVersion !== undefined && previous?.version !== opts.expectVersion) {
      throw new AppError('UNAVAILABLE', `The table "${init.path}" changed while this change was being made; try again.`, { table: init.path })
    }
    if (w.get(KEYS.dir(init.path))) throw new AppError('ALREADY_EXISTS', `A folder named "${init.path}" already exists; choose another table name.`, { table: init.path })
    if (!w.get(KEYS.dir(parent))) throw noSuchDirectory(parent)
    const now = new Date().toISOString()
    const record: TableRecord = {
      kind: 'table', id: previous?.id ?? id, path: init.path, title: init.title ?? previous?.title ?? init.path.split('.').pop()!,
      owner: previous?.owner ?? init.owner, users: init.users ?? previous?.users ?? [], inherit: init.inherit ?? previous?.inherit ?? true,
      sdesc: init.sdesc ?? previous?.sdesc ?? '', ldesc: init.ldesc ?? previous?.ldesc ?? '',
      version: meta.version, rows: meta.rows, columns: meta.columns as ColumnSpec[],
      created: previous?.created ?? now, updated: now,
    }
    const ops: WriteOp[] = [{ op: 'set', key: KEYS.table(record.path), value: JSON.stringify(record) }]
    if (previous) ops.push(retireVersionOp(previous.version))
    else ops.push(...listInFolderOps('table', record.path))
    return { ops, result: record }
  })
}
