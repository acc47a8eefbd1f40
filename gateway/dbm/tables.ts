/**
 * dbm transactions: table metadata, and what applies to tables and folders alike (moving,
 * sharing, permissions). A table version is immutable and every reader keys on its id, so a
 * change of column metadata, like a copy, makes a new version sharing the data files
 * (cloneTableVersion); the version the catalog stops pointing at is retired in the same batch.
 */
import { checkFieldLength, checkPathSegments, quoteName } from '../../shared/name-limits.js'
import { cloneTableVersion, removeTableVersion } from '../../engine/index.js'
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { columnMeta, isValidPath, type ColumnSpec, type TableMeta } from '../../shared/table.js'
import { canEdit } from '../catalog/access.js'
import type { Principal } from '../catalog/principal.js'
import { KEYS, parentPath, parseRecord, type CatalogObject, type DirRecord, type TableRecord } from '../catalog/records.js'
import { retireVersionOp } from '../catalog/retired.js'
import { moveSubtreeOps, subtreeTxn } from '../catalog/subtree.js'
import { commitTable, listInFolderOps, noSuchDirectory, noSuchTable, tableExists, unlistFromFolderOps, visibleTable } from '../catalog/tables.js'
import { catalogTxn, isOutcomeUnknown, type Watched } from '../catalog/txn.js'
import { guardNames, nameGuardKeys } from '../catalog/name-guard.js'
import {
  checkPath,
  checkPrincipalNames,
  columnMajor,
  dirView,
  effectiveRights,
  pick,
  requireOwner,
  requireTable,
  requireWritableDir,
  tableView,
  visibleObject,
} from './common.js'
import { DESCRIPTION_PARAMS, editOwned, plainChanges, stillOwned } from './edits.js'
import { refuseReserved, requireActiveUser, requireCreatableIn } from './folders.js'
import { defineTransaction } from './define.js'
import type { DbmContext, Transaction } from './registry.js'
import type { ParamsOf } from './schema.js'

const COL_FIELDS = ['name', 'label', 'desc', 'type', 'fixed', 'width', 'format'] as const
const EDITABLE_COL_FIELDS = ['label', 'desc', 'format'] as const

function noSuchObject(path: string): AppError {
  return new AppError('UNKNOWN_TABLE', `No such directory or table "${path}"; check the path (names separated by dots).`, { path })
}

/** A from/to/path parameter that must name an object (folder or table). */
function objectPath(path: string, parameter: string): string {
  if (!isValidPath(path)) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Invalid path "${path}" in "${parameter}": use dot-separated names that start with a lower-case letter and contain only lower-case letters, digits and underscores.`,
      { parameter },
    )
  }
  return path
}

const viewOf = (o: CatalogObject): Record<string, unknown> => (o.kind === 'dir' ? dirView(o) : tableView(o))

type EditableColField = (typeof EDITABLE_COL_FIELDS)[number]
const isEditableColField = (field: string): field is EditableColField => EDITABLE_COL_FIELDS.some((f) => f === field)

/** The table's columns with the labels, descriptions and formats of `cols` applied. */
function applyColumnChanges(table: TableRecord, cols: Record<string, unknown>): ColumnSpec[] {
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]))
  const changes = new Map<string, { [F in EditableColField]?: string }>()
  for (const [name, change] of Object.entries(cols)) {
    const col = byName.get(name.toLowerCase())
    if (!col) {
      throw new AppError(
        'INVALID_PARAMETER',
        `The table "${table.path}" has no column ${quoteName(name)}; its columns are ${table.columns.map((c) => c.name).join(', ')}.`,
        { parameter: 'cols', column: name },
      )
    }
    if (typeof change !== 'object' || change === null || Array.isArray(change)) {
      throw new AppError('INVALID_PARAMETER', `"cols.${name}" must be an object such as {"label": "Sales ($)"}.`, { parameter: 'cols', column: name })
    }
    const edit: { [F in EditableColField]?: string } = {}
    for (const [field, value] of Object.entries(change)) {
      if (!isEditableColField(field) || typeof value !== 'string') {
        throw new AppError('INVALID_PARAMETER', `"cols.${name}.${field}" cannot be set: a column takes label, desc and format, each a string.`, {
          parameter: 'cols',
          column: name,
        })
      }
      checkFieldLength(field, value, `"cols.${name}.${field}"`, 'INVALID_PARAMETER', { parameter: 'cols', column: name })
      edit[field] = value
    }
    changes.set(col.name, edit)
  }
  return table.columns.map((c) => ({ ...c, ...changes.get(c.name) }))
}

const PATH = { type: 'path', required: true, doc: 'The table, as a dotted path such as "pub.demo.retail.item".' } as const
const OBJECT_PATH = { type: 'path', required: true, doc: 'The folder or table, as a dotted path.' } as const

const getTableInfo = defineTransaction({
  name: 'get_table_info',
  summary: 'Describes a table without its data: id, path, title, descriptions, owner, users, inherit, rows, number of columns, dates.',
  requires: 'read permission on the table',
  params: {
    path: PATH,
    include: { type: 'names', doc: 'Only these fields (a JSON array or a space-separated list); "cols" adds the column list, which is otherwise left out.' },
  },
  handler: async (ctx, p) => {
    const table = await requireTable(ctx.deps.store, ctx.user, checkPath(p.path, 'table'))
    const include = p.include ?? []
    const fields = include.filter((f) => f !== 'cols')
    const view = tableView(table, { cols: include.includes('cols') })
    // 'cols' alone (the XML tabinfo) adds the columns to everything rather than keeping only them.
    return fields.length === 0 ? view : pick(view, include, 'get_table_info')
  },
})

const getTableCols = defineTransaction({
  name: 'get_table_cols',
  summary: 'The column metadata of a table, column-major, as the !cols method gives it: name, label, desc, type, fixed, width, format.',
  requires: 'read permission on the table',
  params: { path: PATH },
  handler: async (ctx, p) => {
    const table = await requireTable(ctx.deps.store, ctx.user, checkPath(p.path, 'table'))
    // Spread: an interface (ColumnMeta) is not a Record<string, unknown> to the compiler.
    return columnMajor(
      COL_FIELDS,
      table.columns.map((c) => ({ ...columnMeta(c) })),
    )
  },
})

const SET_TABLE_PARAMS = {
  path: PATH,
  ...DESCRIPTION_PARAMS,
  users: { type: 'names', doc: 'Users and groups that may read the table ("*" = everyone); with inherit, besides whoever may read the folder.' },
  inherit: { type: 'boolean', doc: 'True: whoever may read the folder may read it too, besides those users names.' },
  owner: { type: 'name', doc: 'A new owner: an existing, active user id.' },
  cols: { type: 'object', doc: 'Column metadata to change: {"column": {"label": …, "desc": …, "format": …}}; columns left out are unchanged.' },
} as const

/** The catalog fields set_table_info replaces as they are given. */
const PLAIN_FIELDS = ['title', 'sdesc', 'ldesc', 'users', 'inherit', 'owner'] as const
type TableChanges = Partial<Pick<ParamsOf<typeof SET_TABLE_PARAMS>, (typeof PLAIN_FIELDS)[number]>>

/** One attempt of set_table_info from `table`: null when the table changed version meanwhile. */
async function updateTable(
  store: Store,
  dataDir: string,
  user: Principal,
  table: TableRecord,
  changes: TableChanges,
  cols: Record<string, unknown> | undefined,
): Promise<TableRecord | null> {
  const meta: TableMeta | null = cols ? await cloneTableVersion(dataDir, table.version, applyColumnChanges(table, cols)) : null
  let committed = false
  let unknown = false
  try {
    // Checked again under watch: a group dropped meanwhile must not land in the list.
    const named = [{ names: changes.users, parameter: 'users' }]
    const result = await catalogTxn(
      store,
      () => [KEYS.table(table.path), ...nameGuardKeys(named)],
      (w) => {
        const current = stillOwned(w, user, table, noSuchTable)
        // The clone was made from the version read before: a newer one (a replace) would be lost.
        if (meta && current.version !== table.version) return { ops: [], result: null }
        const next: TableRecord = { ...current, ...changes, ...(meta && { version: meta.version, columns: meta.columns }), updated: new Date().toISOString() }
        const ops: WriteOp[] = [{ op: 'set', key: KEYS.table(table.path), value: JSON.stringify(next) }, ...guardNames(w, named)]
        if (meta) ops.push(retireVersionOp(current.version))
        return { ops, result: next }
      },
    )
    committed = result !== null
    return result
  } catch (e) {
    unknown = isOutcomeUnknown(e)
    throw e
  } finally {
    // A clone the catalog never pointed at is nobody's: remove it now rather than leak it. When
    // the store may have applied the commit without saying so, the catalog may point at it: keep it.
    if (meta && !committed && !unknown) await removeTableVersion(dataDir, meta.version).catch(() => undefined)
  }
}

const setTableInfo = defineTransaction({
  name: 'set_table_info',
  summary: "Changes a table's title, descriptions, readers, inheritance, owner, or column labels, descriptions and formats; fields left out are unchanged.",
  requires: 'owner of the table, or an administrator',
  params: SET_TABLE_PARAMS,
  handler: async (ctx, p) => {
    const path = checkPath(p.path, 'table')
    let table = await requireTable(ctx.deps.store, ctx.user, path)
    requireOwner(ctx.user, table)
    if (p.owner !== undefined) await requireActiveUser(ctx.deps.store, p.owner)
    await checkPrincipalNames(ctx.deps.store, p.users ?? [], 'users')
    // An empty cols changes no column, so it must not cost a new version.
    const cols = p.cols !== undefined && Object.keys(p.cols).length > 0 ? p.cols : undefined
    if (cols) applyColumnChanges(table, cols)
    const changes = plainChanges(p, PLAIN_FIELDS)
    for (let attempt = 0; attempt < 5; attempt++) {
      const updated = await updateTable(ctx.deps.store, ctx.deps.config.dataDir, ctx.user, table, changes, cols)
      if (updated) return tableView(updated)
      table = await requireTable(ctx.deps.store, ctx.user, path)
    }
    throw new AppError('UNAVAILABLE', `The table "${path}" keeps being replaced while its columns are being changed; try again.`, { table: path })
  },
})

const dropTable = defineTransaction({
  name: 'drop_table',
  summary: 'Deletes a table.',
  requires: 'owner of the table, or an administrator',
  params: { path: PATH },
  handler: async (ctx, p) => {
    const path = checkPath(p.path, 'table')
    const table = await requireTable(ctx.deps.store, ctx.user, path)
    requireOwner(ctx.user, table)
    return catalogTxn(
      ctx.deps.store,
      () => [KEYS.table(path)],
      (w) => {
        const current = stillOwned(w, ctx.user, table, noSuchTable)
        return { ops: [{ op: 'del', key: KEYS.table(path) }, ...unlistFromFolderOps('table', path), retireVersionOp(current.version)], result: true }
      },
    )
  },
})

/** The keys a change creating `to` reads: what may already be there, and its folder. */
const targetKeys = (to: string): string[] => [KEYS.dir(to), KEYS.table(to), ...(parentPath(to) ? [KEYS.dir(parentPath(to))] : [])]

/** Refuses a target that is taken, or whose folder is gone or no longer writable. */
/** `rename`: the object stays in its folder, which is an edit of the object, not a creation there. */
function checkTarget(w: Watched, user: Principal, to: string, rename: boolean): void {
  if (w.get(KEYS.dir(to))) throw new AppError('ALREADY_EXISTS', `The directory "${to}" already exists; choose another path.`, { path: to })
  if (w.get(KEYS.table(to))) throw new AppError('TABLE_EXISTS', `The table "${to}" already exists; choose another path, or drop it first.`, { path: to })
  const parent = parentPath(to)
  if (parent === '' || rename) return
  const dir = parseRecord<DirRecord>(w.get(KEYS.dir(parent)) ?? null)
  if (!dir) throw noSuchDirectory(parent)
  requireWritableDir(user, dir)
}

async function moveTable(store: Store, user: Principal, table: TableRecord, to: string): Promise<TableRecord> {
  return catalogTxn(
    store,
    () => [KEYS.table(table.path), ...targetKeys(to)],
    (w) => {
      const current = stillOwned(w, user, table, noSuchObject)
      checkTarget(w, user, to, parentPath(to) === parentPath(current.path))
      const moved: TableRecord = { ...current, path: to, updated: new Date().toISOString() }
      const ops: WriteOp[] = [
        { op: 'del', key: KEYS.table(current.path) },
        { op: 'set', key: KEYS.table(to), value: JSON.stringify(moved) },
        ...unlistFromFolderOps('table', current.path),
        ...listInFolderOps('table', to),
      ]
      return { ops, result: moved }
    },
  )
}

async function moveDir(store: Store, user: Principal, dir: DirRecord, to: string): Promise<DirRecord> {
  return subtreeTxn(store, dir.path, targetKeys(to), (tree, w) => {
    const current = stillOwned(w, user, dir, noSuchObject)
    checkTarget(w, user, to, parentPath(to) === parentPath(current.path))
    const now = new Date().toISOString()
    return { ops: moveSubtreeOps(tree, w, to, now), result: { ...current, path: to, updated: now } }
  })
}

const move = defineTransaction({
  name: 'move',
  summary: 'Moves or renames a table or a folder (with everything in it); renaming is a move within the same folder.',
  requires: 'owner of the object (or an administrator) and write permission on the target folder',
  params: {
    from: { ...OBJECT_PATH, doc: 'The folder or table to move.' },
    to: { ...OBJECT_PATH, doc: 'Its full new path, such as "pub.sales.q1"; nothing may be there yet.' },
  },
  handler: async (ctx, p) => {
    const from = objectPath(p.from, 'from')
    const to = objectPath(p.to, 'to')
    checkPathSegments(to, 'to')
    const object = await visibleObject(ctx.deps.store, ctx.user, from)
    if (!object) throw noSuchObject(from)
    if (object.kind === 'dir') refuseReserved(from, 'moved')
    if (to === from) throw new AppError('INVALID_PARAMETER', `"to" is the path "${from}" already has; give the new path.`, { parameter: 'to' })
    if (object.kind === 'dir' && to.startsWith(`${from}.`)) {
      throw new AppError('INVALID_PARAMETER', `Cannot move "${from}" to "${to}": a folder cannot go into itself or below itself.`, { parameter: 'to' })
    }
    requireOwner(ctx.user, object)
    // Renaming in place needs only ownership; moving elsewhere needs the right to create there.
    if (parentPath(to) !== parentPath(from)) await requireCreatableIn(ctx.deps.store, ctx.user, to, object.kind === 'dir' ? 'directory' : 'table')
    const { store } = ctx.deps
    return viewOf(object.kind === 'dir' ? await moveDir(store, ctx.user, object, to) : await moveTable(store, ctx.user, object, to))
  },
})

/** What copy_table may do at `to`: create it, or (replace) overwrite the caller's table there. */
async function copyTarget(ctx: DbmContext, to: string, replace: boolean): Promise<{ mustNotExist: true } | { expectVersion: string }> {
  const [dir, raw] = await ctx.deps.store.mget([KEYS.dir(to), KEYS.table(to)])
  if (dir !== null) throw new AppError('ALREADY_EXISTS', `A folder named "${to}" already exists; choose another table name.`, { table: to })
  const existing = parseRecord<TableRecord>(raw)
  if (!existing) return { mustNotExist: true }
  if (!replace) throw tableExists(to)
  if (!canEdit(ctx.user, existing)) {
    // The owner is named only to a caller who may see the table.
    if (await visibleTable(ctx.deps.store, ctx.user, to)) requireOwner(ctx.user, existing)
    throw new AppError('FORBIDDEN', `You may not replace the table "${to}"; copy to another path.`, { table: to })
  }
  return { expectVersion: existing.version }
}

const copyTable = defineTransaction({
  name: 'copy_table',
  summary: 'Copies a table; the copy belongs to the caller, is readable by the readers of its folder, and is independent of the original.',
  requires: 'read permission on the source, write permission on the target folder (and ownership of a table replaced)',
  params: {
    from: { ...PATH, doc: 'The table to copy.' },
    to: { ...PATH, doc: 'The full path of the copy, such as "uploads.me.item_copy".' },
    replace: { type: 'boolean', doc: 'Replace a table already at "to" (it must be yours). Default false.' },
  },
  handler: async (ctx, p) => {
    const from = objectPath(p.from, 'from')
    const to = objectPath(p.to, 'to')
    checkPathSegments(to, 'to')
    const source = await requireTable(ctx.deps.store, ctx.user, from)
    if (to === from) throw new AppError('INVALID_PARAMETER', `Cannot copy "${from}" onto itself; give "to" another path.`, { parameter: 'to' })
    await requireCreatableIn(ctx.deps.store, ctx.user, to, 'table')
    const condition = await copyTarget(ctx, to, p.replace === true)
    const { dataDir } = ctx.deps.config
    // A version of its own, so dropping either table never breaks the other.
    const meta = await cloneTableVersion(dataDir, source.version)
    try {
      const init = { path: to, owner: ctx.user.uid, title: source.title, sdesc: source.sdesc, ldesc: source.ldesc, users: [], inherit: true }
      return tableView(await commitTable(ctx.deps.store, init, meta, condition))
    } catch (e) {
      // Only a commit known not to have landed frees its version (see isOutcomeUnknown).
      if (!isOutcomeUnknown(e)) await removeTableVersion(dataDir, meta.version).catch(() => undefined)
      throw e
    }
  },
})

const SHARE_PARAMS = {
  path: OBJECT_PATH,
  add: { type: 'names', doc: 'Users and groups to add to the readers ("*" = everyone).' },
  remove: { type: 'names', doc: 'Users and groups to take off the readers.' },
  users: { type: 'names', doc: 'The new list of readers, replacing the old one (add and remove then apply to it).' },
  inherit: { type: 'boolean', doc: 'True: whoever may read the parent folder may read it too, besides those users names.' },
} as const

/** The users list after a share: `users` replaces, then `add` and `remove` apply. */
function sharedUsers(current: readonly string[], p: ParamsOf<typeof SHARE_PARAMS>): string[] {
  const base = p.users ?? current
  const add = p.add ?? []
  const remove = new Set(p.remove ?? [])
  return [...new Set([...base, ...add])].filter((u) => !remove.has(u))
}

const share = defineTransaction({
  name: 'share',
  summary: 'Changes who may read a folder or table: add or remove users and groups, replace the list, or set inheritance.',
  requires: 'owner of the object, or an administrator',
  params: SHARE_PARAMS,
  handler: async (ctx, p) => {
    const path = objectPath(p.path, 'path')
    const object = await visibleObject(ctx.deps.store, ctx.user, path)
    if (!object) throw noSuchObject(path)
    requireOwner(ctx.user, object)
    await checkPrincipalNames(ctx.deps.store, p.users ?? [], 'users')
    await checkPrincipalNames(ctx.deps.store, p.add ?? [], 'add')
    // Names given are checked again under watch (a group dropped meanwhile must not land in the
    // list); names removed are not, so a stale name can always be taken off.
    const named = [
      { names: p.users, parameter: 'users' },
      { names: p.add, parameter: 'add' },
    ]
    const next = await editOwned(ctx.deps.store, ctx.user, object, noSuchObject, named, (current) => ({
      ...current,
      users: sharedUsers(current.users, p),
      inherit: p.inherit ?? current.inherit,
      updated: new Date().toISOString(),
    }))
    return { users: next.users, inherit: next.inherit ? 1 : 0 }
  },
})

const getPermissions = defineTransaction({
  name: 'get_permissions',
  summary: 'Who may read and write a folder or table, and what the caller may do with it (effective read, write, share).',
  requires: 'read permission on the object',
  params: { path: OBJECT_PATH },
  handler: async (ctx, p) => {
    const path = objectPath(p.path, 'path')
    const object = await visibleObject(ctx.deps.store, ctx.user, path)
    if (!object) throw noSuchObject(path)
    return {
      owner: object.owner,
      users: object.users,
      uploaders: object.kind === 'dir' ? object.uploaders : [],
      inherit: object.inherit ? 1 : 0,
      effective: await effectiveRights(ctx.deps.store, ctx.user, object),
    }
  },
})

export const TABLES_TRANSACTIONS: readonly Transaction[] = [getTableInfo, getTableCols, setTableInfo, dropTable, move, copyTable, share, getPermissions]
