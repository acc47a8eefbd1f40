/** Table and folder records in the catalog: lookup with permissions, and committing versions. */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { isValidPath, type TableMeta, type ColumnSpec } from '../../shared/table.js'
import { canRead } from './access.js'
import { KEYS, ancestorPaths, parentPath, type DirRecord, type TableRecord, type UserRecord } from './records.js'

const parse = <T>(raw: string | null): T | null => (raw === null ? null : (JSON.parse(raw) as T))

function noSuchTable(path: string): AppError {
  return new AppError('UNKNOWN_TABLE', `No such table "${path}"; check the path (folders and table name separated by dots).`, { table: path })
}

/**
 * The table at `path` if the user may read it. A table the user may not read is reported exactly
 * like a missing one, so table names do not leak.
 */
export async function readableTable(store: Store, user: UserRecord, path: string): Promise<TableRecord> {
  if (!isValidPath(path)) throw noSuchTable(path)
  const ancestors = ancestorPaths(path)
  const [rawTable, ...rawDirs] = await store.mget([KEYS.table(path), ...ancestors.map(KEYS.dir)])
  const table = parse<TableRecord>(rawTable)
  if (table === null || !canRead(user, table, rawDirs.map((d) => parse<DirRecord>(d)))) throw noSuchTable(path)
  return table
}

export async function getDir(store: Store, path: string): Promise<DirRecord | null> {
  return parse<DirRecord>(await store.get(KEYS.dir(path)))
}

export interface DirInit {
  readonly path: string
  readonly owner: string
  readonly title?: string
  readonly users?: readonly string[]
  readonly inherit?: boolean
}

/** Creates the folder (not its parents) unless it exists; returns the folder. */
export async function ensureDir(store: Store, init: DirInit): Promise<DirRecord> {
  const existing = await getDir(store, init.path)
  if (existing) return existing
  const now = new Date().toISOString()
  const dir: DirRecord = {
    kind: 'dir', path: init.path, title: init.title ?? init.path.split('.').pop()!, owner: init.owner,
    users: init.users ?? [], uploaders: [], inherit: init.inherit ?? true, sdesc: '', ldesc: '', created: now, updated: now,
  }
  await store.batch([
    { op: 'set', key: KEYS.dir(dir.path), value: JSON.stringify(dir) },
    { op: 'sadd', key: KEYS.entries(parentPath(dir.path)), members: [`dir:${dir.path}`] },
  ])
  return dir
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

/**
 * Points the catalog at a freshly written version: one atomic batch that writes the table record
 * and lists it in its folder. The version folder must already be complete on disk.
 */
export async function commitTable(store: Store, init: TableInit, meta: TableMeta, opts: { mustNotExist?: boolean } = {}): Promise<TableRecord> {
  if (!isValidPath(init.path) || !init.path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `Invalid table path "${init.path}": use dotted lower-case names inside a folder, such as uploads.me.sales.`)
  }
  // The record is read under watch, so a table created meanwhile by someone else is noticed.
  const token = await store.watch([KEYS.table(init.path)])
  const previous = parse<TableRecord>(token.values[0])
  if (previous && opts.mustNotExist) throw tableExists(init.path)
  const now = new Date().toISOString()
  const record: TableRecord = {
    kind: 'table', path: init.path, title: init.title ?? previous?.title ?? init.path.split('.').pop()!,
    owner: previous?.owner ?? init.owner, users: init.users ?? previous?.users ?? [], inherit: init.inherit ?? previous?.inherit ?? true,
    sdesc: init.sdesc ?? previous?.sdesc ?? '', ldesc: init.ldesc ?? previous?.ldesc ?? '',
    version: meta.version, rows: meta.rows, columns: meta.columns as ColumnSpec[],
    created: previous?.created ?? now, updated: now,
  }
  const ops: WriteOp[] = [
    { op: 'set', key: KEYS.table(record.path), value: JSON.stringify(record) },
    { op: 'sadd', key: KEYS.entries(parentPath(record.path)), members: [`table:${record.path}`] },
  ]
  if (!(await store.batch(ops, token))) {
    if (opts.mustNotExist) throw tableExists(init.path)
    return commitTable(store, init, meta, opts)
  }
  return record
}

function tableExists(path: string): AppError {
  return new AppError('TABLE_EXISTS', `The table "${path}" already exists; send replace=1 to replace it.`, { table: path })
}
