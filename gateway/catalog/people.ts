/**
 * Users, groups, companies and roles as the administration transactions see them: loading the
 * records, the "not found" errors (also given for records the caller may not see), who may see
 * or manage whom, and the guard that keeps at least one active administrator.
 *
 * These lists are small (people, not data), so a transaction that must know every user or group
 * reads them all through the index sets rather than keeping secondary indexes in step.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { hasCapability, type Principal } from './principal.js'
import { KEYS, parseRecord, type CompanyRecord, type GroupRecord, type RoleRecord, type UserRecord } from './records.js'
import { catalogTxn, type TxnPlan, type Watched } from './txn.js'
import { normalizeUser } from './users.js'

/** Group ids: like uids, but long enough for an owner or company prefix. */
export const GROUP_PATTERN = /^[a-z][a-z0-9_]{0,127}$/
/** Company and role ids. */
export const ID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

async function loadAll<T>(store: Store, index: string, key: (name: string) => string): Promise<T[]> {
  const names = (await store.smembers(index)).sort()
  if (names.length === 0) return []
  return (await store.mget(names.map(key))).map((r) => parseRecord<T>(r)).filter((r): r is T => r !== null)
}

export const loadUsers = async (store: Store): Promise<UserRecord[]> => (await loadAll<UserRecord>(store, KEYS.allUsers, KEYS.user)).map(normalizeUser)
export const loadGroups = (store: Store): Promise<GroupRecord[]> => loadAll<GroupRecord>(store, KEYS.allGroups, KEYS.group)
export const loadCompanies = (store: Store): Promise<CompanyRecord[]> => loadAll<CompanyRecord>(store, KEYS.allCompanies, KEYS.company)
export const loadRoles = (store: Store): Promise<RoleRecord[]> => loadAll<RoleRecord>(store, KEYS.allRoles, KEYS.role)

export const getGroup = async (store: Store, name: string): Promise<GroupRecord | null> => parseRecord<GroupRecord>(await store.get(KEYS.group(name)))
export const getCompany = async (store: Store, id: string): Promise<CompanyRecord | null> => parseRecord<CompanyRecord>(await store.get(KEYS.company(id)))
export const getRole = async (store: Store, name: string): Promise<RoleRecord | null> => parseRecord<RoleRecord>(await store.get(KEYS.role(name)))

export function noSuchUser(uid: string): AppError {
  return new AppError('UNKNOWN_USER', `Invalid user identification "${uid}": there is no such user you may see; check the user id.`, { uid })
}

export function noSuchGroup(group: string): AppError {
  return new AppError('UNKNOWN_GROUP', `No such group "${group}"; list_groups lists the groups you own or belong to.`, { group })
}

export function noSuchCompany(company: string): AppError {
  return new AppError('UNKNOWN_COMPANY', `No such company "${company}"; list_companies lists the companies you may see.`, { company })
}

export function noSuchRole(role: string): AppError {
  return new AppError('UNKNOWN_ROLE', `No such role "${role}"; list_roles lists the roles there are.`, { role })
}

/** Users one may look at: oneself, and the users one manages. */
export const canSeeUser = (p: Principal, u: UserRecord): boolean => u.uid === p.uid || hasCapability(p, 'manage_users', u.company)

/** Owner, company group managers and administrators change a group. */
export const canManageGroup = (p: Principal, g: GroupRecord): boolean => g.owner === p.uid || hasCapability(p, 'manage_groups', g.company)

/** Managers see a group, and so do its members (through nested groups too). */
export const canSeeGroup = (p: Principal, g: GroupRecord): boolean => canManageGroup(p, g) || p.groups.includes(g.group)

/**
 * Granting (or revoking) a role must not hand out more than the granter holds: administrators
 * grant anything; user managers grant, within their company, roles made of capabilities they have.
 */
export function canGrantRole(p: Principal, role: RoleRecord, company: string): boolean {
  if (p.admin) return true
  return hasCapability(p, 'manage_users', company) && role.capabilities.every((c) => (p.caps as ReadonlySet<string>).has(c))
}

/** Role name → whether it gives the admin capability. */
type AdminRoles = ReadonlyMap<string, boolean>

const isAdminHolder = (u: UserRecord, roles: AdminRoles): boolean => u.admin === true || u.roles.some((r) => roles.get(r) === true)

/**
 * The keys the last-administrator guard watches: every user who holds the admin capability and
 * every role that gives it. A concurrent change that could remove an administrator writes one of
 * them, so the guarded change is re-planned; changes that add administrators need not be seen.
 */
export async function adminGuardKeys(store: Store): Promise<string[]> {
  const [users, roles] = await Promise.all([loadUsers(store), loadRoles(store)])
  const adminRoles = new Map(roles.map((r) => [r.role, r.capabilities.includes('admin')]))
  return [
    ...users.filter((u) => isAdminHolder(u, adminRoles)).map((u) => KEYS.user(u.uid)),
    ...roles.filter((r) => adminRoles.get(r.role)).map((r) => KEYS.role(r.role)),
  ]
}

/** A user or role as it will be after the change being planned (null: the role is dropped). */
export interface AdminChange {
  readonly user?: UserRecord
  readonly role?: { readonly name: string; readonly record: RoleRecord | null }
}

function countActiveAdmins(w: Watched, change: AdminChange): number {
  const roles = new Map<string, boolean>()
  const users = new Map<string, UserRecord>()
  for (const [key, raw] of w) {
    if (key.startsWith(KEYS.role(''))) {
      const r = parseRecord<RoleRecord>(raw)
      if (r) roles.set(r.role, r.capabilities.includes('admin'))
    } else if (key.startsWith(KEYS.user(''))) {
      const u = parseRecord<UserRecord>(raw)
      if (u) users.set(u.uid, normalizeUser(u))
    }
  }
  if (change.role) roles.set(change.role.name, change.role.record?.capabilities.includes('admin') ?? false)
  if (change.user) users.set(change.user.uid, change.user)
  return [...users.values()].filter((u) => u.active && isAdminHolder(u, roles)).length
}

/**
 * Refuses a change that would leave no active administrator (nobody could then repair the
 * catalog). `w` must include the keys from adminGuardKeys.
 */
export function guardLastAdmin(w: Watched, change: AdminChange, what: string): void {
  if (countActiveAdmins(w, {}) > 0 && countActiveAdmins(w, change) === 0) {
    throw new AppError('LIMIT_REACHED', `Cannot ${what}: no active administrator would be left. Grant the admin role to another active user first.`)
  }
}

/** Basic shape of an e-mail address: something@domain.tld, no spaces. */
export function checkEmail(email: string, parameter = 'email'): void {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(email)) {
    throw new AppError('INVALID_PARAMETER', `Invalid e-mail address "${email}" in "${parameter}": give an address such as jsmith@example.com.`, { parameter })
  }
}

/** The records of `keys` read under watch, parsed (missing ones left out). */
export function watchedRecords<T>(w: Watched, keys: readonly string[]): T[] {
  return keys.map((k) => parseRecord<T>(w.get(k) ?? null)).filter((r): r is T => r !== null)
}

/**
 * Changing another user (their details, password, activation, roles) needs manage_users for
 * their company and every capability they hold: otherwise a user manager could, say, reset an
 * administrator's password and log in as them.
 */
export function canManageUser(p: Principal, target: Principal): boolean {
  if (p.admin) return true
  return hasCapability(p, 'manage_users', target.company) && [...target.caps].every((c) => p.caps.has(c))
}

const REGATHER = Symbol('gathered keys changed')
const MAX_GATHERS = 25

/**
 * catalogTxn for a change whose watched keys are found by reading the catalog (the holders of a
 * role, the groups listing a group). What was read before the watch began may already be stale
 * when it begins, so the keys are gathered again under watch and the change starts over when they
 * differ; a revision key among `fixed` must cover what happens after the watch began.
 */
export async function gatheredTxn<T>(
  store: Store,
  fixed: readonly string[],
  gather: () => Promise<readonly string[]>,
  plan: (w: Watched) => TxnPlan<T> | Promise<TxnPlan<T>>,
): Promise<T> {
  const same = (a: readonly string[], b: readonly string[]): boolean => [...new Set(a)].sort().join('\n') === [...new Set(b)].sort().join('\n')
  for (let attempt = 0; attempt < MAX_GATHERS; attempt++) {
    let gathered: readonly string[] = []
    const result = await catalogTxn<T | typeof REGATHER>(
      store,
      async () => {
        gathered = await gather()
        return [...fixed, ...gathered]
      },
      async (w) => (same(gathered, await gather()) ? plan(w) : { ops: [], result: REGATHER }),
    )
    if (result !== REGATHER) return result
  }
  throw new AppError('UNAVAILABLE', 'The users and groups involved keep changing while this change is being made; try again.')
}
