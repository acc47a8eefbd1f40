/**
 * Catalog records as they are stored: JSON strings under `cat:` keys, which are durable in every
 * Store. Every object is one string key, so a change can be made conditional on the keys it read
 * (Store#watch) and applied in one atomic batch (see txn.ts). Keep these plain data.
 */
import type { ColumnSpec } from '../../shared/table.js'

/** Principals that may read or write an object: uids, group names, or '*' for every user. */
export type UserList = readonly string[]

export interface DirRecord {
  readonly kind: 'dir'
  /** Unique, never reused (XML putdir names a folder by id and path). */
  readonly id: number
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
  readonly id: number
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

export type CatalogObject = DirRecord | TableRecord

export interface UserRecord {
  readonly uid: string
  readonly passwordHash: string
  readonly active: boolean
  readonly first: string
  readonly middle: string
  readonly last: string
  readonly email: string
  readonly company: string
  /** Names of roles (RoleRecord) granted to the user. */
  readonly roles: readonly string[]
  readonly created: string
  readonly updated: string
  /**
   * The day (YYYY-MM-DD, UTC) from which the password no longer logs in (credentials_expired);
   * absent: it does not expire. Any change of the password clears it unless one is given anew.
   */
  readonly passwordExpires?: string
  /** Set by releases before roles existed: the same as holding the `admin` role. */
  readonly admin?: boolean
}

export interface GroupRecord {
  readonly group: string
  readonly owner: string
  /** The company of the owner when the group was made; its administrators manage the group. */
  readonly company: string
  /** Members: uids and other groups (nested groups are expanded when checking access). */
  readonly users: readonly string[]
  readonly title: string
  readonly description: string
  readonly created: string
  readonly updated: string
}

export interface CompanyRecord {
  readonly company: string
  readonly name: string
  /** Company administrators: they manage the company's users and groups. */
  readonly admins: readonly string[]
  /** Most user ids the company may have (0 = no limit). */
  readonly max_ids: number
  readonly email: string
  readonly phone: string
  readonly street: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly country: string
  readonly created: string
  readonly updated: string
  readonly created_by: string
  readonly updated_by: string
}

export interface RoleRecord {
  readonly role: string
  readonly title: string
  readonly description: string
  readonly capabilities: readonly string[]
  /** Built-in roles cannot be changed or dropped. */
  readonly builtin: boolean
  readonly created: string
  readonly updated: string
}

export const KEYS = {
  dir: (path: string) => `cat:dir:${path}`,
  table: (path: string) => `cat:table:${path}`,
  /** Set of `kind:path` entries directly inside a folder ('' is the root). */
  entries: (dir: string) => `cat:entries:${dir}`,
  /**
   * Changes whenever a folder's entries change. Sets cannot be watched, so anything that must not
   * miss a concurrent creation inside a folder (drop, move) watches this string instead.
   */
  contentsRev: (dir: string) => `cat:rev:${dir}`,
  user: (uid: string) => `cat:user:${uid}`,
  group: (name: string) => `cat:group:${name}`,
  company: (id: string) => `cat:company:${id}`,
  role: (name: string) => `cat:role:${name}`,
  /** Sets of all uids, group names, company ids and role names. */
  allUsers: 'cat:index:users',
  allGroups: 'cat:index:groups',
  allCompanies: 'cat:index:companies',
  allRoles: 'cat:index:roles',
  /** Changes whenever a user joins the company: add_user and drop_company count its users. */
  companyUsersRev: (company: string) => `cat:company-users-rev:${company}`,
  /** Changes with every role grant: drop_role must not miss a holder granted meanwhile. */
  roleGrantsRev: 'cat:role-grants-rev',
  /** Changes with every group change, so gateways know when their membership cache is stale. */
  groupsRev: 'cat:groups-rev',
  /**
   * Changes whenever an access list (folder or table users/uploaders) is given the name: dropping
   * or creating a principal of that name watches it, so a grant committed meanwhile is not missed.
   */
  nameRefsRev: (name: string) => `cat:name-refs-rev:${name}`,
  /** Hash of table versions no longer referenced: version → ISO time it was retired. */
  retiredVersions: 'cat:retired-versions',
  /** Counter for object ids. */
  objectId: 'seq:object-id',
} as const

export const parentPath = (path: string): string => path.split('.').slice(0, -1).join('.')

/** `a.b.c` → [`a`, `a.b`]: the folders that contain an object, outermost first. */
export function ancestorPaths(path: string): string[] {
  const parts = path.split('.')
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('.'))
}

export const parseRecord = <T>(raw: string | null): T | null => (raw === null ? null : (JSON.parse(raw) as T))

/** A fresh random revision string for contentsRev / groupsRev. */
export const newRev = (): string => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
