/**
 * The administration pages, the HTML face of `api/dbm`: `api/dbm/users`, `api/dbm/groups`,
 * `api/dbm/sharing/{path}` and `api/dbm/upload[/{folder}]`. Each page is a form over the dbm
 * transactions, which its script calls as JSON (`api/dbm:json`) with the caller's own session:
 * the page has no powers of its own. What it offers is chosen from the caller's capabilities,
 * so nobody is shown an action the API would refuse them; the API still decides every call.
 *
 * `api/dbm` itself stays POST-only (a write, security.md); the longer paths were no route before,
 * so these pages shadow nothing.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import type { Principal } from '../catalog/principal.js'
import { visibleDir, visibleTable } from '../catalog/tables.js'
import type { Rendered } from '../format/index.js'
import { authState } from '../auth/require-session.js'
import { callerOf } from './admin-common.js'
import { groupsPage } from './admin-groups.js'
import { sharingPage } from './admin-sharing.js'
import { uploadPage } from './admin-upload.js'
import { usersPage } from './admin-users.js'

export type AdminView =
  | { readonly page: 'users' }
  | { readonly page: 'groups' }
  /** `folder`: where the upload goes unless changed on the page; '' for the caller's uploads.<uid>. */
  | { readonly page: 'upload'; readonly folder: string }
  | { readonly page: 'sharing'; readonly path: string }

/** The administration page a path under api/dbm/ names, or null (left to the router). */
export function adminView(segments: readonly string[]): AdminView | null {
  const [, page, path, ...rest] = segments
  if (rest.length > 0) return null
  if ((page === 'users' || page === 'groups') && path === undefined) return { page }
  if (page === 'upload') return { page, folder: path ?? '' }
  if (page === 'sharing' && path !== undefined && path !== '') return { page, path }
  return null
}

/** A folder or table the caller may see, by kind; the same 404 as a missing one otherwise. */
async function objectKind(store: Store, p: Principal, path: string): Promise<'dir' | 'table'> {
  if (await visibleDir(store, p, path)) return 'dir'
  if (await visibleTable(store, p, path)) return 'table'
  throw new AppError('NOT_FOUND', `No such folder or table "${path}"; api/ls lists the folders and tables you may read.`, { path })
}

export async function adminPage(ctx: Context, store: Store, version: string, view: AdminView): Promise<Rendered> {
  const { user } = authState(ctx)
  const caller = callerOf(version, user)
  switch (view.page) {
    case 'users':
      return usersPage(caller)
    case 'groups':
      return groupsPage(caller)
    case 'upload':
      return uploadPage(caller, view.folder === '' ? `uploads.${caller.uid}` : view.folder)
    case 'sharing':
      return sharingPage(caller, view.path, await objectKind(store, user, view.path))
  }
}
