/**
 * dbm transactions: users. A user the caller may not see (neither themselves nor a user they
 * manage) is reported exactly like a missing one. Changing someone else needs manage_users for
 * their company and every capability they hold (see canManageUser), so nobody gains rights by
 * editing, resetting or deactivating a more powerful user.
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { hashPassword, generatePassword, verifyPassword } from '../auth/password.js'
import { checkPasswordRules } from '../auth/password-rules.js'
import { parsePasswordExpiry } from '../auth/password-expiry.js'
import {
  adminGuardKeys,
  canManageUser,
  canSeeUser,
  checkEmail,
  gatheredTxn,
  guardLastAdmin,
  loadGroups,
  loadUsers,
  noSuchCompany,
  noSuchRole,
  noSuchUser,
} from '../catalog/people.js'
import { hasCapability, type Principal } from '../catalog/principal.js'
import { KEYS, newRev, parseRecord, type CompanyRecord, type GroupRecord, type RoleRecord, type UserRecord } from '../catalog/records.js'
import { purgingTxn } from '../catalog/principal-purge.js'
import { catalogTxn, type Watched } from '../catalog/txn.js'
import { getUser, invalidUid, normalizeUser, UID_PATTERN } from '../catalog/users.js'
import { columnMajor } from './common.js'
import { requireGrantable } from './people-checks.js'
import { defineTransaction } from './define.js'
import type { DbmContext, Transaction } from './registry.js'

const PASSWORD_EXPIRES_DOC = 'The last day the password logs in, as YYYY-MM-DD (UTC); from the next day login answers credentials_expired.'

const USER_COLUMNS = ['uid', 'first', 'middle', 'last', 'email', 'company', 'roles', 'active', 'password_expires', 'created', 'updated'] as const

/** A user as dbm shows it: never the password hash; `groups` are the direct memberships. */
export function userView(u: UserRecord, groups: readonly GroupRecord[]): Record<string, unknown> {
  return {
    uid: u.uid,
    first: u.first,
    middle: u.middle,
    last: u.last,
    email: u.email,
    company: u.company,
    roles: u.roles,
    active: u.active,
    password_expires: u.passwordExpires ?? null,
    created: u.created,
    updated: u.updated,
    groups: groups
      .filter((g) => g.users.includes(u.uid))
      .map((g) => g.group)
      .sort(),
  }
}

export async function viewOfUser(store: Store, u: UserRecord): Promise<Record<string, unknown>> {
  return userView(u, await loadGroups(store))
}

/** The user, if the caller may see them; otherwise the error a missing user gives. */
export async function visibleUser(ctx: DbmContext, uid: string): Promise<UserRecord> {
  const user = await getUser(ctx.deps.store, uid)
  if (!user || !canSeeUser(ctx.user, user)) throw noSuchUser(uid)
  return user
}

/** Another user the caller may change (see canManageUser); `action` completes "Not authorised to …". */
export async function manageableUser(ctx: DbmContext, uid: string, action: string): Promise<UserRecord> {
  const user = await visibleUser(ctx, uid)
  if (!canManageUser(ctx.user, await ctx.deps.directory.principal(user))) {
    const why = hasCapability(ctx.user, 'manage_users', user.company)
      ? 'that user holds capabilities you do not have; ask an administrator'
      : `it needs manage_users for the company "${user.company}"`
    throw new AppError('FORBIDDEN', `Not authorised to ${action} "${uid}": ${why}.`, { uid })
  }
  return user
}

/** The user as read under watch; a user gone meanwhile is reported as missing. */
export function watchedUser(w: Watched, uid: string): UserRecord {
  const user = parseRecord<UserRecord>(w.get(KEYS.user(uid)) ?? null)
  if (!user) throw noSuchUser(uid)
  return normalizeUser(user)
}

/** Refuses a new user in a company that already has `max_ids` user ids (0 = no limit). */
async function checkCompanyRoom(store: Store, company: CompanyRecord): Promise<void> {
  if (company.max_ids <= 0) return
  const count = (await loadUsers(store)).filter((u) => u.company === company.company).length
  if (count >= company.max_ids) {
    throw new AppError(
      'LIMIT_REACHED',
      `Company "${company.company}" is at its maximum # of ids (${company.max_ids}); raise max_ids with set_company or use another company.`,
      { company: company.company },
    )
  }
}

/**
 * Watched keys and checks for a user joining `company`: it must exist and have room. The
 * company's users revision is watched and bumped, so two joins racing for the last free id
 * cannot both commit.
 */
const joinCompanyKeys = (company: string): string[] => [KEYS.company(company), KEYS.companyUsersRev(company)]

async function joinCompany(store: Store, w: Watched, company: string): Promise<WriteOp> {
  const record = parseRecord<CompanyRecord>(w.get(KEYS.company(company)) ?? null)
  if (!record) throw noSuchCompany(company)
  await checkCompanyRoom(store, record)
  return { op: 'set', key: KEYS.companyUsersRev(company), value: newRev() }
}

/** The roles named, which must exist and which `p` may grant to a user of `company`. */
async function grantableRoles(store: Store, p: Principal, names: readonly string[], company: string): Promise<RoleRecord[]> {
  const raws = names.length > 0 ? await store.mget(names.map(KEYS.role)) : []
  return names.map((name, i) => {
    const role = parseRecord<RoleRecord>(raws[i])
    if (!role) throw noSuchRole(name)
    requireGrantable(p, role, company, 'grant')
    return role
  })
}

function requiredText(value: string | undefined, parameter: string): string | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === '')
    throw new AppError('INVALID_PARAMETER', `The parameter "${parameter}" cannot be empty: a user needs a first name, a last name and an e-mail address.`, {
      parameter,
    })
  return text
}

const GET_USER = defineTransaction({
  name: 'get_user',
  summary: 'Shows a user (never the password): names, e-mail, company, roles, active flag and direct group memberships.',
  requires: "yourself; or manage_users for the user's company; or admin",
  params: { uid: { type: 'name', doc: 'The user id; you when left out.' } },
  handler: async (ctx, params) => viewOfUser(ctx.deps.store, await visibleUser(ctx, params.uid ?? ctx.user.uid)),
})

const LIST_USERS = defineTransaction({
  name: 'list_users',
  summary: 'Lists the users you manage, one row per user (column-major).',
  requires: 'manage_users (own company) or admin (every company)',
  params: {
    company: { type: 'name', doc: 'Only users of this company.' },
    find: { type: 'string', doc: 'Only users whose uid, names or e-mail contain this text (any case).' },
  },
  handler: async (ctx, params) => {
    const p = ctx.user
    const company = params.company
    if (!hasCapability(p, 'manage_users'))
      throw new AppError('FORBIDDEN', 'Not authorised to list users: it needs manage_users (company administrators, the user_admin role) or admin.')
    if (company !== undefined && !hasCapability(p, 'manage_users', company)) {
      throw new AppError('FORBIDDEN', `Not authorised to list users of the company "${company}": you manage the users of "${p.company}" only.`, { company })
    }
    if (company !== undefined && (await ctx.deps.store.get(KEYS.company(company))) === null) throw noSuchCompany(company)
    const find = params.find?.toLowerCase()
    const rows = (await loadUsers(ctx.deps.store))
      .filter((u) => hasCapability(p, 'manage_users', u.company) && (company === undefined || u.company === company))
      .filter((u) => !find || [u.uid, u.first, u.middle, u.last, u.email].some((f) => f.toLowerCase().includes(find)))
    return columnMajor(
      USER_COLUMNS,
      rows.map((u) => ({ ...u })),
    )
  },
})

const ADD_USER = defineTransaction({
  name: 'add_user',
  summary: 'Creates an active user; a password is generated (and returned once, as "password") when none is given.',
  requires: 'manage_users for the company (company administrators, user_admin role); another company than yours: admin',
  params: {
    uid: {
      type: 'name',
      required: true,
      doc: 'The new user id: a lower-case letter, then lower-case letters, digits or underscores; unique across all companies.',
    },
    first: { type: 'string', required: true, doc: 'First name.' },
    last: { type: 'string', required: true, doc: 'Last name.' },
    email: { type: 'string', required: true, doc: 'E-mail address.' },
    middle: { type: 'string', doc: 'Middle initial.' },
    company: { type: 'name', doc: 'The company; yours when left out.' },
    password: { type: 'string', doc: 'The first password (6 to 128 printable characters); generated when left out.' },
    password_expires: { type: 'string', doc: PASSWORD_EXPIRES_DOC },
    roles: { type: 'names', doc: 'Roles to grant; you may grant only roles whose capabilities you hold.' },
  },
  handler: async (ctx, params) => {
    const { store } = ctx.deps
    const p = ctx.user
    const uid = params.uid
    if (!UID_PATTERN.test(uid)) throw invalidUid(uid)
    const company = params.company ?? p.company
    if (company !== p.company && !p.admin) {
      throw new AppError(
        'FORBIDDEN',
        `Only an administrator may add users to another company ("${company}"); leave "company" out to add the user to "${p.company}".`,
        { company },
      )
    }
    if (!hasCapability(p, 'manage_users', company)) {
      throw new AppError(
        'FORBIDDEN',
        'Not authorised to add users: it needs manage_users for your company (company administrators, the user_admin role) or admin.',
      )
    }
    const email = params.email.trim()
    checkEmail(email)
    const given = params.password
    if (given !== undefined) checkPasswordRules(given, 'password')
    const expires = parsePasswordExpiry(params.password_expires ?? '', 'password_expires')
    const roles = params.roles ?? []
    await grantableRoles(store, p, roles, company)
    const password = given ?? generatePassword(12)
    const now = new Date().toISOString()
    const record: UserRecord = {
      uid,
      passwordHash: await hashPassword(password),
      active: true,
      first: params.first.trim(),
      middle: (params.middle ?? '').trim(),
      last: params.last.trim(),
      email,
      company,
      roles,
      created: now,
      updated: now,
      ...(expires === null ? {} : { passwordExpires: expires }),
    }
    // Not createUser: the uid must also be free of groups, the company must have room, and the
    // roles must still exist, all checked in the batch that creates the user. The new user starts
    // with nothing: lists still naming a dropped group of this name lose it (principal-purge.ts).
    await purgingTxn(store, uid, [KEYS.user(uid), KEYS.group(uid), ...joinCompanyKeys(company), ...roles.map(KEYS.role)], async (w) => {
      if (w.get(KEYS.user(uid)) !== null) throw new AppError('ALREADY_EXISTS', `User id "${uid}" already in use; choose another user id.`, { uid })
      if (w.get(KEYS.group(uid)) !== null)
        throw new AppError('ALREADY_EXISTS', `User id "${uid}" already in use by a group (users and groups share names); choose another user id.`, { uid })
      const missing = roles.find((r) => w.get(KEYS.role(r)) === null)
      if (missing !== undefined) throw noSuchRole(missing)
      const joined = await joinCompany(store, w, company)
      const ops: WriteOp[] = [{ op: 'set', key: KEYS.user(uid), value: JSON.stringify(record) }, { op: 'sadd', key: KEYS.allUsers, members: [uid] }, joined]
      if (roles.length > 0) ops.push({ op: 'set', key: KEYS.roleGrantsRev, value: newRev() })
      return { ops, result: record }
    })
    return { ...userView(record, []), ...(given === undefined ? { password } : {}) }
  },
})

/** The old company's administrator list without `uid` (someone moved out administers it no more). */
function leaveCompanyOps(w: Watched, company: string, uid: string): WriteOp[] {
  const record = parseRecord<CompanyRecord>(w.get(KEYS.company(company)) ?? null)
  if (!record || !record.admins.includes(uid)) return []
  return [{ op: 'set', key: KEYS.company(company), value: JSON.stringify({ ...record, admins: record.admins.filter((a) => a !== uid) }) }]
}

const SET_USER = defineTransaction({
  name: 'set_user',
  summary: "Changes a user's names, e-mail address or (administrators) company. The uid cannot change.",
  requires: "yourself (names and e-mail); or manage_users for the user's company; company: admin",
  params: {
    uid: { type: 'name', required: true, doc: 'The user to change.' },
    first: { type: 'string', doc: 'First name.' },
    middle: { type: 'string', doc: 'Middle initial.' },
    last: { type: 'string', doc: 'Last name.' },
    email: { type: 'string', doc: 'E-mail address.' },
    company: { type: 'name', doc: 'Move the user to this company (administrators only).' },
  },
  handler: async (ctx, params) => {
    const { store } = ctx.deps
    const uid = params.uid
    const target = uid === ctx.user.uid ? await visibleUser(ctx, uid) : await manageableUser(ctx, uid, 'change')
    const requested = params.company
    const dest = requested !== undefined && requested !== target.company ? requested : null
    if (dest !== null && !ctx.user.admin)
      throw new AppError('FORBIDDEN', `Only an administrator may move a user to another company ("${dest}").`, { parameter: 'company' })
    const changes: Partial<Record<'first' | 'middle' | 'last' | 'email', string>> = {}
    for (const field of ['first', 'last', 'email'] as const) {
      const value = requiredText(params[field], field)
      if (value !== undefined) changes[field] = value
    }
    if (params.middle !== undefined) changes.middle = params.middle.trim()
    if (changes.email !== undefined) checkEmail(changes.email)
    // The company left is gathered under watch: the user may have been moved meanwhile.
    const fixed = dest === null ? [KEYS.user(uid)] : [KEYS.user(uid), ...joinCompanyKeys(dest)]
    const gather = async (): Promise<string[]> => (dest === null ? [] : [KEYS.company((await getUser(store, uid))?.company ?? target.company)])
    const updated = await gatheredTxn(store, fixed, gather, async (w) => {
      const current = watchedUser(w, uid)
      const next: UserRecord = { ...current, ...changes, company: dest ?? current.company, updated: new Date().toISOString() }
      const ops: WriteOp[] = [{ op: 'set', key: KEYS.user(uid), value: JSON.stringify(next) }]
      if (dest !== null) ops.push(await joinCompany(store, w, dest), ...leaveCompanyOps(w, current.company, uid))
      return { ops, result: next }
    })
    return viewOfUser(store, updated)
  },
})

async function setActive(ctx: DbmContext, uid: string, active: boolean): Promise<Record<string, unknown>> {
  const { store } = ctx.deps
  if (!active && uid === ctx.user.uid) {
    throw new AppError('FORBIDDEN', 'You cannot deactivate your own user id; ask another user administrator.', { uid })
  }
  await manageableUser(ctx, uid, active ? 'activate' : 'deactivate')
  const updated = await catalogTxn(
    store,
    async () => [KEYS.user(uid), ...(active ? [] : await adminGuardKeys(store))],
    (w) => {
      const current = watchedUser(w, uid)
      if (current.active === active) return { ops: [], result: current }
      const next: UserRecord = { ...current, active, updated: new Date().toISOString() }
      if (!active) guardLastAdmin(w, { user: next }, `deactivate "${uid}"`)
      return { ops: [{ op: 'set', key: KEYS.user(uid), value: JSON.stringify(next) }], result: next }
    },
  )
  // After the commit: from now on login refuses the user, and the live session goes at once.
  if (!active) await ctx.deps.sessions.endUser(uid)
  return viewOfUser(store, updated)
}

const DEACTIVATE_USER = defineTransaction({
  name: 'deactivate_user',
  summary: 'Deactivates a user: their session ends at once and they cannot log in until activated again.',
  requires: "manage_users for the user's company (and every capability the user holds), or admin; not yourself",
  params: { uid: { type: 'name', required: true, doc: 'The user to deactivate.' } },
  handler: (ctx, params) => setActive(ctx, params.uid, false),
})

const ACTIVATE_USER = defineTransaction({
  name: 'activate_user',
  summary: 'Activates a deactivated user again.',
  requires: "manage_users for the user's company (and every capability the user holds), or admin",
  params: { uid: { type: 'name', required: true, doc: 'The user to activate.' } },
  handler: (ctx, params) => setActive(ctx, params.uid, true),
})

const SET_PASSWORD = defineTransaction({
  name: 'set_password',
  summary:
    "Changes your password (with the old one): every other client logged in as you is logged out, the one that asked stays. Or resets another user's, which ends their session.",
  requires: "yourself with old_password; or manage_users for the user's company (and every capability the user holds), or admin",
  params: {
    uid: { type: 'name', doc: 'The user; you when left out.' },
    old_password: { type: 'string', doc: 'Your current password (required when changing your own).' },
    new_password: { type: 'string', required: true, doc: 'The new password: 6 to 128 printable characters.' },
    password_expires: { type: 'string', doc: `${PASSWORD_EXPIRES_DOC} A new password without it does not expire. Only for another user's password.` },
  },
  handler: async (ctx, params) => {
    const { store } = ctx.deps
    const uid = params.uid ?? ctx.user.uid
    const own = uid === ctx.user.uid
    const old = params.old_password
    if (own && (old === undefined || old === '')) {
      throw new AppError('MISSING_PARAMETER', 'Changing your own password needs "old_password", your current password.', { parameter: 'old_password' })
    }
    if (!own) await manageableUser(ctx, uid, 'reset the password of')
    if (own && params.password_expires !== undefined) {
      throw new AppError('FORBIDDEN', 'Only an administrator sets when a password expires ("password_expires"); leave it out to change your own password.', {
        parameter: 'password_expires',
      })
    }
    const expires = parsePasswordExpiry(params.password_expires ?? '', 'password_expires')
    const newPassword = params.new_password
    checkPasswordRules(newPassword)
    const passwordHash = await hashPassword(newPassword)
    await catalogTxn(
      store,
      () => [KEYS.user(uid)],
      async (w) => {
        const current = watchedUser(w, uid)
        if (own && !(await verifyPassword(old!, current.passwordHash))) {
          throw new AppError('INVALID_PARAMETER', 'Wrong password: "old_password" is not your current password; nothing was changed.', {
            parameter: 'old_password',
          })
        }
        // A new password starts a new life: the old one's expiry goes with it.
        const { passwordExpires: _old, ...rest } = current
        const next: UserRecord = { ...rest, passwordHash, updated: new Date().toISOString(), ...(expires === null ? {} : { passwordExpires: expires }) }
        return { ops: [{ op: 'set', key: KEYS.user(uid), value: JSON.stringify(next) }], result: next }
      },
    )
    // Whoever knew the old password (perhaps the reason for the change) is logged out, on every
    // gateway (sessions live in the Store). The caller changing their own keeps their token.
    if (own) await ctx.deps.sessions.keepOnlyPresentedToken(ctx.session)
    else await ctx.deps.sessions.endUser(uid)
    return true
  },
})

export const USERS_TRANSACTIONS: readonly Transaction[] = [GET_USER, LIST_USERS, ADD_USER, SET_USER, DEACTIVATE_USER, ACTIVATE_USER, SET_PASSWORD]
