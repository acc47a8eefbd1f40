/**
 * dbm transactions: roles. A role is a named set of capabilities (principal.ts); roles are not
 * secret, so anyone may read them, but only administrators define them. Built-in roles (seed.ts)
 * cannot be changed or dropped. Dropping a role takes it away from its holders in the same batch,
 * so no user keeps a dangling name that a later role of the same name would silently fill.
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { adminGuardKeys, gatheredTxn, getRole, guardLastAdmin, loadRoles, loadUsers, noSuchRole, watchedRecords } from '../catalog/people.js'
import { CAPABILITIES, isCapability } from '../catalog/principal.js'
import { KEYS, newRev, parseRecord, type RoleRecord, type UserRecord } from '../catalog/records.js'
import { catalogTxn, type Watched } from '../catalog/txn.js'
import { normalizeUser } from '../catalog/users.js'
import { columnMajor } from './common.js'
import { checkId, requireAdmin, requireGrantable } from './people-checks.js'
import { defineTransaction } from './define.js'
import type { DbmContext, Transaction } from './registry.js'
import type { ParamsOf } from './schema.js'
import { manageableUser, viewOfUser, visibleUser, watchedUser } from './users.js'

const ROLE_COLUMNS = ['role', 'title', 'description', 'capabilities', 'builtin', 'created', 'updated'] as const

const roleView = (r: RoleRecord): Record<string, unknown> => ({
  role: r.role,
  title: r.title,
  description: r.description,
  capabilities: r.capabilities,
  builtin: r.builtin,
  created: r.created,
  updated: r.updated,
})

function checkCapabilities(names: readonly string[]): void {
  const unknown = names.filter((c) => !isCapability(c))
  if (unknown.length > 0) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Unknown capabilit${unknown.length > 1 ? 'ies' : 'y'} in "capabilities": ${unknown.join(', ')}; the capabilities are ${Object.keys(CAPABILITIES).join(', ')}.`,
      { parameter: 'capabilities' },
    )
  }
}

/** The role, which must exist. */
async function existingRole(store: Store, name: string): Promise<RoleRecord> {
  const role = await getRole(store, name)
  if (!role) throw noSuchRole(name)
  return role
}

/** The role as read under watch: it must exist and not be built in. */
function changeableRole(w: Watched, name: string): RoleRecord {
  const role = parseRecord<RoleRecord>(w.get(KEYS.role(name)) ?? null)
  if (!role) throw noSuchRole(name)
  if (role.builtin)
    throw new AppError('FORBIDDEN', `The built-in role "${name}" cannot be changed or dropped; add a role of your own with add_role.`, { role: name })
  return role
}

const LIST_ROLES = defineTransaction({
  name: 'list_roles',
  summary: 'Lists every role with its capabilities (column-major).',
  requires: 'any user',
  params: {},
  handler: async (ctx) => columnMajor(ROLE_COLUMNS, (await loadRoles(ctx.deps.store)).map(roleView)),
})

const GET_ROLE = defineTransaction({
  name: 'get_role',
  summary: 'Shows a role: title, description, capabilities and whether it is built in.',
  requires: 'any user',
  params: { role: { type: 'name', required: true, doc: 'The role name.' } },
  handler: async (ctx, params) => roleView(await existingRole(ctx.deps.store, params.role)),
})

const ROLE_FIELDS = {
  title: { type: 'string', doc: 'Display title.' },
  description: { type: 'string', doc: 'What the role is for.' },
} as const

const ADD_ROLE = defineTransaction({
  name: 'add_role',
  summary: 'Defines a role: a named set of capabilities to grant to users.',
  requires: 'admin',
  params: {
    role: { type: 'name', required: true, doc: 'The role name: a lower-case letter, then lower-case letters, digits or underscores.' },
    ...ROLE_FIELDS,
    capabilities: { type: 'names', required: true, doc: `Capabilities the role gives: any of ${Object.keys(CAPABILITIES).join(', ')}.` },
  },
  handler: async (ctx, params) => {
    requireAdmin(ctx.user, 'add roles')
    const name = params.role
    checkId(name, 'role name', 'role')
    const capabilities = params.capabilities
    checkCapabilities(capabilities)
    const now = new Date().toISOString()
    const role: RoleRecord = {
      role: name,
      title: params.title ?? name,
      description: params.description ?? '',
      capabilities,
      builtin: false,
      created: now,
      updated: now,
    }
    await catalogTxn(
      ctx.deps.store,
      () => [KEYS.role(name)],
      (w) => {
        if (w.get(KEYS.role(name)) !== null)
          throw new AppError('ALREADY_EXISTS', `The role "${name}" already exists; change it with set_role or choose another name.`, { role: name })
        return {
          ops: [
            { op: 'set', key: KEYS.role(name), value: JSON.stringify(role) },
            { op: 'sadd', key: KEYS.allRoles, members: [name] },
          ],
          result: role,
        }
      },
    )
    return roleView(role)
  },
})

const SET_ROLE = defineTransaction({
  name: 'set_role',
  summary: "Changes a role's title, description or capabilities (its holders get the new capabilities at once).",
  requires: 'admin; built-in roles cannot be changed',
  params: {
    role: { type: 'name', required: true, doc: 'The role to change.' },
    ...ROLE_FIELDS,
    capabilities: { type: 'names', doc: 'The new list of capabilities (replaces the old one).' },
  },
  handler: async (ctx, params) => {
    requireAdmin(ctx.user, 'change roles')
    const { store } = ctx.deps
    const { role: name, capabilities } = params
    if (capabilities) checkCapabilities(capabilities)
    const role = await catalogTxn(
      store,
      async () => [KEYS.role(name), ...(await adminGuardKeys(store))],
      (w) => {
        const current = changeableRole(w, name)
        const next: RoleRecord = {
          ...current,
          title: params.title ?? current.title,
          description: params.description ?? current.description,
          capabilities: capabilities ?? current.capabilities,
          updated: new Date().toISOString(),
        }
        guardLastAdmin(w, { role: { name, record: next } }, `take the admin capability from the role "${name}"`)
        return { ops: [{ op: 'set', key: KEYS.role(name), value: JSON.stringify(next) }], result: next }
      },
    )
    return roleView(role)
  },
})

const DROP_ROLE = defineTransaction({
  name: 'drop_role',
  summary: 'Drops a role and takes it away from every user who holds it.',
  requires: 'admin; built-in roles cannot be dropped',
  params: { role: { type: 'name', required: true, doc: 'The role to drop.' } },
  handler: async (ctx, params) => {
    requireAdmin(ctx.user, 'drop roles')
    const { store } = ctx.deps
    const name = params.role
    // Holders are watched so none is overwritten; the grants revision catches a holder added meanwhile.
    const gather = async (): Promise<string[]> => {
      const holders = (await loadUsers(store)).filter((u) => u.roles.includes(name)).map((u) => KEYS.user(u.uid))
      return [...holders, ...(await adminGuardKeys(store))]
    }
    return gatheredTxn(store, [KEYS.role(name), KEYS.roleGrantsRev], gather, (w) => {
      changeableRole(w, name)
      guardLastAdmin(w, { role: { name, record: null } }, `drop the role "${name}"`)
      const now = new Date().toISOString()
      const holders = watchedRecords<UserRecord>(
        w,
        [...w.keys()].filter((k) => k.startsWith(KEYS.user(''))),
      )
        .map(normalizeUser)
        .filter((u) => u.roles.includes(name))
      const ops: WriteOp[] = [
        { op: 'del', key: KEYS.role(name) },
        { op: 'srem', key: KEYS.allRoles, members: [name] },
        ...holders.map((u): WriteOp => ({
          op: 'set',
          key: KEYS.user(u.uid),
          value: JSON.stringify({ ...u, roles: u.roles.filter((r) => r !== name), updated: now }),
        })),
      ]
      return { ops, result: true }
    })
  },
})

const USER_ROLE_PARAMS = {
  uid: { type: 'name', required: true, doc: 'The user.' },
  role: { type: 'name', required: true, doc: 'The role.' },
} as const

/** grant_role and revoke_role: the same checks, then the role added to or taken from the user. */
async function changeGrant(ctx: DbmContext, params: ParamsOf<typeof USER_ROLE_PARAMS>, grant: boolean): Promise<Record<string, unknown>> {
  const { store } = ctx.deps
  const { uid, role: name } = params
  const verb = grant ? 'grant' : 'revoke'
  const user = uid === ctx.user.uid ? await visibleUser(ctx, uid) : await manageableUser(ctx, uid, `${verb} roles of`)
  const role = await existingRole(store, name)
  requireGrantable(ctx.user, role, user.company, verb)
  const updated = await catalogTxn(
    store,
    async () => [KEYS.user(uid), KEYS.role(name), ...(grant ? [] : await adminGuardKeys(store))],
    (w) => {
      const current = watchedUser(w, uid)
      if (w.get(KEYS.role(name)) === null) throw noSuchRole(name)
      if (current.roles.includes(name) === grant) return { ops: [], result: current }
      const roles = grant ? [...current.roles, name] : current.roles.filter((r) => r !== name)
      const next: UserRecord = { ...current, roles, updated: new Date().toISOString() }
      // Records from before roles carry an admin flag; revoking the admin role must clear it too.
      if (!grant && role.capabilities.includes('admin')) delete (next as { admin?: boolean }).admin
      if (!grant) guardLastAdmin(w, { user: next }, `revoke the role "${name}" from "${uid}"`)
      const ops: WriteOp[] = [{ op: 'set', key: KEYS.user(uid), value: JSON.stringify(next) }]
      if (grant) ops.push({ op: 'set', key: KEYS.roleGrantsRev, value: newRev() })
      return { ops, result: next }
    },
  )
  return viewOfUser(store, updated)
}

const GRANT_ROLE = defineTransaction({
  name: 'grant_role',
  summary: 'Gives a user a role; the user has its capabilities from their next request.',
  requires: "admin; or manage_users for the user's company when you hold every capability of the role",
  params: USER_ROLE_PARAMS,
  handler: (ctx, params) => changeGrant(ctx, params, true),
})

const REVOKE_ROLE = defineTransaction({
  name: 'revoke_role',
  summary: 'Takes a role from a user; the last active administrator keeps the admin role.',
  requires: "admin; or manage_users for the user's company when you hold every capability of the role",
  params: USER_ROLE_PARAMS,
  handler: (ctx, params) => changeGrant(ctx, params, false),
})

export const ROLES_TRANSACTIONS: readonly Transaction[] = [LIST_ROLES, GET_ROLE, ADD_ROLE, SET_ROLE, DROP_ROLE, GRANT_ROLE, REVOKE_ROLE]
