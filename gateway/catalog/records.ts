/**
 * Catalog records as they are stored (JSON under `cat:` keys, which are durable in every Store).
 * The administration issue extends these; keep them plain data.
 */
import type { ColumnSpec } from '../../shared/table.js'

/** Who may read an object: uids, group names, or '*' for every user. */
export type UserList = readonly string[]

export interface DirRecord {
  readonly kind: 'dir'
  readonly path: string
  readonly title: string
  readonly owner: string
  readonly users: UserList
  readonly uploaders: UserList
  /** True: readers are those of the parent folder, whatever `users` says. */
  readonly inherit: boolean
  readonly sdesc: string
  readonly ldesc: string
  readonly created: string
  readonly updated: string
}

export interface TableRecord {
  readonly kind: 'table'
  readonly path: string
  readonly title: string
  readonly owner: string
  readonly users: UserList
  readonly inherit: boolean
  readonly sdesc: string
  readonly ldesc: string
  /** The immutable version folder under DATA_DIR/tables holding the data. */
  readonly version: string
  readonly rows: number
  readonly columns: readonly ColumnSpec[]
  readonly created: string
  readonly updated: string
}

export interface UserRecord {
  readonly uid: string
  readonly passwordHash: string
  readonly active: boolean
  /** Administers everything (the built-in admin). The roles issue refines this. */
  readonly admin: boolean
  readonly first: string
  readonly last: string
  readonly email: string
  readonly groups: readonly string[]
  readonly created: string
}

export const KEYS = {
  dir: (path: string) => `cat:dir:${path}`,
  table: (path: string) => `cat:table:${path}`,
  /** Set of `kind:path` entries directly inside a folder ('' is the root). */
  entries: (dir: string) => `cat:entries:${dir}`,
  user: (uid: string) => `cat:user:${uid}`,
} as const

export const parentPath = (path: string): string => path.split('.').slice(0, -1).join('.')

/** `a.b.c` → [`a`, `a.b`]: the folders that contain an object, outermost first. */
export function ancestorPaths(path: string): string[] {
  const parts = path.split('.')
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('.'))
}
