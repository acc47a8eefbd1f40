/**
 * dbm transactions: folders. Listing, reading, creating, editing and dropping folders, with the
 * rules of access.ts: a folder the caller may not read is answered exactly like a missing one,
 * and only its owner (or an administrator) edits or drops it.
 */
import { AppError } from '../../shared/errors.js'
import { checkPathSegments } from '../../shared/name-limits.js'
import type { Store } from '../../shared/store/types.js'
import { LISTING_COLUMNS, listFolder, listingRow } from '../catalog/listing.js'
import { hasCapability, type Principal } from '../catalog/principal.js'
import { parentPath, type DirRecord } from '../catalog/records.js'
import { dropSubtreeOps, subtreeTxn } from '../catalog/subtree.js'
import { createDir, noSuchDirectory } from '../catalog/tables.js'
import { getUser } from '../catalog/users.js'
import { checkPath, checkPrincipalNames, columnMajor, dirView, inheritanceOf, pick, requireDir, requireOwner, requireWritableDir } from './common.js'
import { DESCRIPTION_PARAMS, editOwned, plainChanges, stillOwned } from './edits.js'
import { defineTransaction } from './define.js'
import type { Transaction } from './registry.js'

/** The folder whose children the user creates and the uploads home folders live in. */
export const UPLOADS = 'uploads'

/** A folder parameter that may name the root: '' (and '0', as in `<directory folder="0"/>`). */
function folderOrRoot(path: string): string {
  return path === '' || path === '0' ? '' : checkPath(path, 'directory')
}

/**
 * Checks that the caller may create `path` (a folder, or with `what` 'table' a table) in its
 * parent: top-level folders need the create_top_folders capability, anything else a parent the
 * caller can see and write in. Returns the parent (null at the top level).
 */
export async function requireCreatableIn(store: Store, user: Principal, path: string, what: 'directory' | 'table'): Promise<DirRecord | null> {
  const parent = parentPath(path)
  if (parent === '') {
    if (what === 'table')
      throw new AppError('INVALID_PARAMETER', `Invalid table name "${path}": a table must be inside a folder, such as uploads.${user.uid}.${path}.`, {
        table: path,
      })
    if (!hasCapability(user, 'create_top_folders')) {
      throw new AppError(
        'FORBIDDEN',
        `You have no permission to create top-level folders such as "${path}"; create it inside a folder you may write to, or ask an administrator for the folder_creator role.`,
        { directory: path },
      )
    }
    return null
  }
  if (what === 'table' && parent === UPLOADS) {
    throw new AppError('FORBIDDEN', `Cannot save into the uploads folder itself; use your own folder, such as uploads.${user.uid}.`, { directory: parent })
  }
  const dir = await requireDir(store, user, parent)
  requireWritableDir(user, dir)
  return dir
}

/** The new owner of an object: an existing, active user. */
export async function requireActiveUser(store: Store, uid: string): Promise<void> {
  const user = await getUser(store, uid)
  if (!user || !user.active) {
    throw new AppError('UNKNOWN_USER', `Invalid user identification "${uid}": the owner must be an existing, active user.`, { parameter: 'owner', uid })
  }
}

/** Refuses changes to the reserved folder that holds every user's home folder. */
export function refuseReserved(path: string, action: string): void {
  if (path === UPLOADS)
    throw new AppError('FORBIDDEN', `The reserved folder "${UPLOADS}" cannot be ${action}; it holds every user's home folder.`, { directory: path })
}

const PATH = { type: 'path', required: true, doc: 'The folder, as a dotted path such as "pub.demo".' } as const
/** Required as the reference has it (§5.1); "" names the root rather than counting as missing. */
const ROOT_PATH = {
  type: 'path',
  required: true,
  emptyMeansRoot: true,
  doc: 'The folder, as a dotted path such as "pub"; "" for the root, which holds the top-level folders.',
} as const
const INCLUDE = { type: 'names', doc: 'Only these fields of the folder (a JSON array or a space-separated list); all fields when left out.' } as const
const INFO = {
  ...DESCRIPTION_PARAMS,
  users: { type: 'names', doc: 'Users and groups that may read the folder ("*" = everyone); with inherit, besides whoever may read the parent folder.' },
  uploaders: { type: 'names', doc: 'Users and groups that may create tables and folders in the folder.' },
  inherit: { type: 'boolean', doc: 'True: whoever may read the parent folder may read it too, besides those users names.' },
} as const

const getNamesInDir = defineTransaction({
  name: 'get_names_in_dir',
  summary: 'Lists the folders and tables directly in a folder that the caller may see: [kinds, names], kinds "dir" or "tab", names full dotted paths.',
  requires: 'read permission on the folder',
  params: { path: ROOT_PATH },
  handler: async (ctx, p) => {
    const entries = await listFolder(ctx.deps.store, ctx.user, folderOrRoot(p.path))
    return [entries.map((e) => (e.kind === 'dir' ? 'dir' : 'tab')), entries.map((e) => e.path)]
  },
})

const listDir = defineTransaction({
  name: 'list_dir',
  summary: 'Lists the folders and tables in a folder (and, with depth, below it) that the caller may see, as a table with the <directory> columns.',
  requires: 'read permission on the folder',
  params: {
    path: ROOT_PATH,
    depth: { type: 'integer', doc: "How many levels to list: 1 (the default) = the folder's own entries, 0 = every level." },
    find: { type: 'string', doc: 'Only entries whose path or title contains this text (ignoring case).' },
  },
  handler: async (ctx, p) => {
    const depth = p.depth ?? 1
    if (depth < 0)
      throw new AppError(
        'INVALID_PARAMETER',
        `Transaction "list_dir": the parameter "depth" must be 0 (every level) or a positive number of levels (got ${depth}).`,
        { parameter: 'depth' },
      )
    const find = (p.find ?? '').toLowerCase()
    const entries = await listFolder(ctx.deps.store, ctx.user, folderOrRoot(p.path), depth)
    const found = find === '' ? entries : entries.filter((e) => e.path.includes(find) || e.title.toLowerCase().includes(find))
    // Spread: an interface (ListingRow) is not a Record<string, unknown> to the compiler.
    return columnMajor(
      LISTING_COLUMNS,
      found.map((e) => ({ ...listingRow(e) })),
    )
  },
})

const getDirInfo = defineTransaction({
  name: 'get_dir_info',
  summary: 'Describes a folder: id, path, title, descriptions, owner, users, uploaders, inherit, dates.',
  requires: 'read permission on the folder',
  params: { path: PATH, include: INCLUDE },
  handler: async (ctx, p) => {
    const dir = await requireDir(ctx.deps.store, ctx.user, checkPath(p.path, 'directory'))
    return pick(dirView(dir), p.include, 'get_dir_info')
  },
})

const makeDir = defineTransaction({
  name: 'make_dir',
  summary: 'Creates a folder owned by the caller; the folder it goes into must already exist.',
  requires: 'write permission on the parent folder (top-level folders: the create_top_folders capability)',
  params: {
    path: { ...PATH, doc: 'The new folder, as a dotted path such as "pub.sales".' },
    ...INFO,
    inherit: { ...INFO.inherit, doc: `${INFO.inherit.doc} Default true, or false when users are given (they are then exactly who reads).` },
  },
  handler: async (ctx, p) => {
    const path = checkPath(p.path, 'directory')
    checkPathSegments(path)
    await requireCreatableIn(ctx.deps.store, ctx.user, path, 'directory')
    const { users, uploaders } = p
    await checkPrincipalNames(ctx.deps.store, users ?? [], 'users')
    await checkPrincipalNames(ctx.deps.store, uploaders ?? [], 'uploaders')
    const { dir } = await createDir(
      ctx.deps.store,
      { path, owner: ctx.user.uid, title: p.title, sdesc: p.sdesc, ldesc: p.ldesc, users, uploaders, inherit: inheritanceOf(users, p.inherit) },
      { mustNotExist: true },
    )
    return dirView(dir)
  },
})

const setDirInfo = defineTransaction({
  name: 'set_dir_info',
  summary: "Changes a folder's title, descriptions, readers, uploaders, inheritance or owner; fields left out are unchanged.",
  requires: 'owner of the folder, or an administrator',
  params: {
    path: PATH,
    id: { type: 'integer', doc: "The folder's id; when given it must match the folder at path (XML putdir sends both)." },
    ...INFO,
    owner: { type: 'name', doc: 'A new owner: an existing, active user id.' },
  },
  handler: async (ctx, p) => {
    const path = checkPath(p.path, 'directory')
    const dir = await requireDir(ctx.deps.store, ctx.user, path)
    requireOwner(ctx.user, dir)
    if (p.id !== undefined && p.id !== dir.id) {
      throw new AppError(
        'INVALID_PARAMETER',
        `The id ${p.id} is not the id of the directory "${path}" (${dir.id}); send the folder's own id, or leave id out.`,
        { parameter: 'id' },
      )
    }
    if (p.owner !== undefined) await requireActiveUser(ctx.deps.store, p.owner)
    await checkPrincipalNames(ctx.deps.store, p.users ?? [], 'users')
    await checkPrincipalNames(ctx.deps.store, p.uploaders ?? [], 'uploaders')
    const changes = plainChanges(p, ['title', 'sdesc', 'ldesc', 'users', 'uploaders', 'inherit', 'owner'] as const)
    // Checked again under watch: a group dropped meanwhile must not land in the lists.
    const named = [
      { names: p.users, parameter: 'users' },
      { names: p.uploaders, parameter: 'uploaders' },
    ]
    const updated = await editOwned(ctx.deps.store, ctx.user, dir, noSuchDirectory, named, (current) => ({
      ...current,
      ...changes,
      updated: new Date().toISOString(),
    }))
    return dirView(updated)
  },
})

const dropDir = defineTransaction({
  name: 'drop_dir',
  summary: 'Deletes a folder; with recursive, everything in it too, all at once.',
  requires: 'owner of the folder, or an administrator',
  params: {
    path: PATH,
    recursive: { type: 'boolean', doc: 'Also delete every folder and table inside (default false: the folder must be empty).' },
  },
  handler: async (ctx, p) => {
    const path = checkPath(p.path, 'directory')
    const dir = await requireDir(ctx.deps.store, ctx.user, path)
    refuseReserved(path, 'dropped')
    requireOwner(ctx.user, dir)
    return subtreeTxn(ctx.deps.store, path, [], (tree, w) => {
      stillOwned(w, ctx.user, dir, noSuchDirectory)
      if (p.recursive !== true && (tree.entries.get(path) ?? []).length > 0) {
        throw new AppError(
          'DIRECTORY_NOT_EMPTY',
          `The directory "${path}" is not empty; drop what it contains first, or send recursive=1 to drop it with everything in it.`,
          { directory: path },
        )
      }
      return { ops: dropSubtreeOps(tree, w), result: true }
    })
  },
})

export const FOLDERS_TRANSACTIONS: readonly Transaction[] = [getNamesInDir, listDir, getDirInfo, makeDir, setDirInfo, dropDir]
