/**
 * dbm transactions: groups (reference §6.3). A group lists users and other groups of its company;
 * its name can stand wherever a uid can in `users`/`uploaders`, so groups and users share one
 * namespace. Every change also writes KEYS.groupsRev, which is how every gateway's membership
 * cache (principal.ts) learns that access through groups has changed.
 */
import { AppError } from '../../shared/errors.js'
import type { WriteOp } from '../../shared/store/types.js'
import { canManageGroup, canSeeGroup, getGroup, GROUP_PATTERN, loadGroups, noSuchGroup, noSuchUser } from '../catalog/people.js'
import { hasCapability, type Principal } from '../catalog/principal.js'
import { KEYS, newRev, parseRecord, type GroupRecord, type UserRecord } from '../catalog/records.js'
import { purgingTxn } from '../catalog/principal-purge.js'
import { catalogTxn, type Watched } from '../catalog/txn.js'
import { getUser, normalizeUser } from '../catalog/users.js'
import { columnMajor } from './common.js'
import { defineTransaction } from './define.js'
import type { DbmContext, Transaction } from './registry.js'

const GROUP_COLUMNS = ['group', 'owner', 'company', 'users', 'title', 'description', 'created', 'updated'] as const

const groupView = (g: GroupRecord): Record<string, unknown> => ({
  group: g.group,
  owner: g.owner,
  company: g.company,
  users: g.users,
  title: g.title,
  description: g.description,
  created: g.created,
  updated: g.updated,
})

const bumpGroupsRev = (): WriteOp => ({ op: 'set', key: KEYS.groupsRev, value: newRev() })

/** Keys that tell whether each name is a user or a group (watched, so members cannot vanish meanwhile). */
const memberKeys = (names: readonly string[]): string[] => names.flatMap((n) => [KEYS.user(n), KEYS.group(n)])

/**
 * Members must be existing users or groups of the group's company (reference §6.3), so company
 * users cannot reach into other companies. Administrators, who see every company anyway, may
 * build groups across companies (a project shared with a partner).
 */
function checkMembers(p: Principal, w: Watched, names: readonly string[], company: string, parameter: string): void {
  const invalid = names.filter((n) => {
    const raw = parseRecord<UserRecord>(w.get(KEYS.user(n)) ?? null)
    const user = raw && normalizeUser(raw)
    const group = parseRecord<GroupRecord>(w.get(KEYS.group(n)) ?? null)
    return !((user && (p.admin || user.company === company)) || (group && (p.admin || group.company === company)))
  })
  if (invalid.length > 0) {
    const rule = p.admin ? 'members must be existing users or groups' : `members must be existing users or groups of the company "${company}"`
    throw new AppError('INVALID_PARAMETER', `Invalid member${invalid.length > 1 ? 's' : ''} in "${parameter}": ${invalid.join(', ')}; ${rule}.`, { parameter })
  }
}

/** The group, if the caller may see it; otherwise the error a missing group gives. */
async function visibleGroup(ctx: DbmContext, name: string): Promise<GroupRecord> {
  const group = await getGroup(ctx.deps.store, name)
  if (!group || !canSeeGroup(ctx.user, group)) throw noSuchGroup(name)
  return group
}

function notOwner(g: GroupRecord): AppError {
  return new AppError(
    'FORBIDDEN',
    `You do not own the specified group "${g.group}": only its owner (${g.owner}), a group manager of "${g.company}" or an administrator may change it.`,
    { group: g.group },
  )
}

/** The group as read under watch, still there and still the caller's to manage. */
function watchedManagedGroup(w: Watched, p: Principal, name: string): GroupRecord {
  const group = parseRecord<GroupRecord>(w.get(KEYS.group(name)) ?? null)
  if (!group || !canSeeGroup(p, group)) throw noSuchGroup(name)
  if (!canManageGroup(p, group)) throw notOwner(group)
  return group
}

/** The owner named for a group: the caller, or (group managers) an active user they manage. */
async function groupOwner(ctx: DbmContext, uid: string | undefined): Promise<UserRecord> {
  const p = ctx.user
  if (uid === undefined || uid === p.uid) return ctx.record
  if (!hasCapability(p, 'manage_groups')) {
    throw new AppError('FORBIDDEN', 'Only group managers (manage_groups) may make a group for another owner; leave "owner" out to own the group yourself.', {
      parameter: 'owner',
    })
  }
  const owner = await getUser(ctx.deps.store, uid)
  if (!owner || !hasCapability(p, 'manage_groups', owner.company)) throw noSuchUser(uid)
  if (!owner.active)
    throw new AppError('INVALID_PARAMETER', `The user "${uid}" is deactivated and cannot own a group; choose an active owner.`, { parameter: 'owner' })
  return owner
}

function checkGroupName(name: string): void {
  if (!GROUP_PATTERN.test(name)) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Invalid characters in group id "${name}": use a lower-case letter, then lower-case letters, digits or underscores (at most 128).`,
      { parameter: 'group' },
    )
  }
}

function refuseSelfMember(name: string, members: readonly string[]): void {
  if (members.includes(name))
    throw new AppError('INVALID_PARAMETER', `A group cannot be a member of itself; remove "${name}" from its members.`, { group: name })
}

const TEXT_FIELDS = {
  title: { type: 'string', doc: 'Display title.' },
  description: { type: 'string', doc: 'What the group is for.' },
} as const

const ADD_GROUP = defineTransaction({
  name: 'add_group',
  summary: 'Creates a group of users and groups of one company; its name can then be used in users and uploaders lists.',
  requires: 'any user (as owner); another owner: manage_groups for their company, or admin',
  params: {
    group: {
      type: 'name',
      required: true,
      doc: 'The group id: a lower-case letter, then lower-case letters, digits or underscores; unique among groups and users.',
    },
    prefix: { type: 'string', values: ['uid', 'company'], doc: "Prefix the id with the owner's uid or company and an underscore (acme_support)." },
    owner: { type: 'name', doc: 'The owner; you when left out.' },
    users: { type: 'names', doc: "Members: users and groups of the owner's company." },
    ...TEXT_FIELDS,
  },
  handler: async (ctx, params) => {
    const owner = await groupOwner(ctx, params.owner)
    const { prefix, group: base } = params
    const name = prefix === 'uid' ? `${owner.uid}_${base}` : prefix === 'company' ? `${owner.company}_${base}` : base
    checkGroupName(name)
    const members = params.users ?? []
    refuseSelfMember(name, members)
    const now = new Date().toISOString()
    const group: GroupRecord = {
      group: name,
      owner: owner.uid,
      company: owner.company,
      users: members,
      title: params.title ?? name,
      description: params.description ?? '',
      created: now,
      updated: now,
    }
    // A new group starts with nothing: lists still naming an earlier principal of this name lose it.
    await purgingTxn(ctx.deps.store, name, [KEYS.group(name), KEYS.user(name), KEYS.user(owner.uid), ...memberKeys(members)], (w) => {
      if (w.get(KEYS.group(name)) !== null) throw new AppError('ALREADY_EXISTS', `Group id "${name}" already exists; choose another name.`, { group: name })
      if (w.get(KEYS.user(name)) !== null)
        throw new AppError('ALREADY_EXISTS', `Group id "${name}" already in use by a user (users and groups share names); choose another name.`, {
          group: name,
        })
      if (w.get(KEYS.user(owner.uid)) === null) throw noSuchUser(owner.uid)
      checkMembers(ctx.user, w, members, group.company, 'users')
      return {
        ops: [{ op: 'set', key: KEYS.group(name), value: JSON.stringify(group) }, { op: 'sadd', key: KEYS.allGroups, members: [name] }, bumpGroupsRev()],
        result: group,
      }
    })
    return groupView(group)
  },
})

const GET_GROUP = defineTransaction({
  name: 'get_group',
  summary: 'Shows a group: owner, company, members, title and description.',
  requires: 'its owner, its members (directly or through other groups), manage_groups for its company, or admin',
  params: { group: { type: 'name', required: true, doc: 'The group id.' } },
  handler: async (ctx, params) => groupView(await visibleGroup(ctx, params.group)),
})

const LIST_GROUPS = defineTransaction({
  name: 'list_groups',
  summary: 'Lists the groups you own or belong to (group managers: all of their company; admin: all), column-major.',
  requires: 'any user',
  params: { owner: { type: 'name', doc: 'Only groups owned by this user.' } },
  handler: async (ctx, params) => {
    const owner = params.owner
    const rows = (await loadGroups(ctx.deps.store)).filter((g) => canSeeGroup(ctx.user, g) && (owner === undefined || g.owner === owner))
    return columnMajor(GROUP_COLUMNS, rows.map(groupView))
  },
})

const SET_GROUP = defineTransaction({
  name: 'set_group',
  summary: "Changes a group's owner, members, title or description; the id cannot change.",
  requires: 'its owner, manage_groups for its company, or admin',
  params: {
    group: { type: 'name', required: true, doc: 'The group id.' },
    owner: { type: 'name', doc: "A new owner: an active user of the group's company." },
    users: { type: 'names', doc: 'The new member list (replaces the old one; add and remove apply after it).' },
    add: { type: 'names', doc: 'Members to add.' },
    remove: { type: 'names', doc: 'Members to remove.' },
    ...TEXT_FIELDS,
  },
  handler: async (ctx, params) => {
    const name = params.group
    const p = ctx.user
    const before = await visibleGroup(ctx, name)
    if (!canManageGroup(p, before)) throw notOwner(before)
    const { owner, users: replace } = params
    const add = params.add ?? []
    const remove = new Set(params.remove ?? [])
    const keys = [KEYS.group(name), ...(owner !== undefined ? [KEYS.user(owner)] : []), ...memberKeys([...(replace ?? []), ...add])]
    const group = await catalogTxn(
      ctx.deps.store,
      () => keys,
      (w) => {
        const current = watchedManagedGroup(w, p, name)
        const users = [...new Set([...(replace ?? current.users), ...add])].filter((m) => !remove.has(m))
        refuseSelfMember(name, users)
        const added = users.filter((m) => !current.users.includes(m))
        checkMembers(p, w, added, current.company, replace ? 'users' : 'add')
        if (owner !== undefined) {
          const raw = parseRecord<UserRecord>(w.get(KEYS.user(owner)) ?? null)
          if (!raw || !raw.active || normalizeUser(raw).company !== current.company) {
            throw new AppError(
              'INVALID_PARAMETER',
              `Invalid owner "${owner}": the owner of "${name}" must be an active user of the company "${current.company}".`,
              { parameter: 'owner' },
            )
          }
        }
        const next: GroupRecord = {
          ...current,
          owner: owner ?? current.owner,
          users,
          title: params.title ?? current.title,
          description: params.description ?? current.description,
          updated: new Date().toISOString(),
        }
        return { ops: [{ op: 'set', key: KEYS.group(name), value: JSON.stringify(next) }, bumpGroupsRev()], result: next }
      },
    )
    return groupView(group)
  },
})

const DROP_GROUP = defineTransaction({
  name: 'drop_group',
  summary: 'Drops a group and removes it from the member lists of other groups and the readers and uploaders of every folder and table.',
  requires: 'its owner, manage_groups for its company, or admin',
  params: { group: { type: 'name', required: true, doc: 'The group id.' } },
  handler: async (ctx, params) => {
    const { store } = ctx.deps
    const name = params.group
    const before = await visibleGroup(ctx, name)
    if (!canManageGroup(ctx.user, before)) throw notOwner(before)
    // Every group, folder and table listing this one loses it in the same batch (principal-purge.ts).
    // The groups revision is watched too: a group that starts listing this one meanwhile changes it.
    return purgingTxn(store, name, [KEYS.group(name), KEYS.groupsRev], (w) => {
      watchedManagedGroup(w, ctx.user, name)
      const ops: WriteOp[] = [
        { op: 'del', key: KEYS.group(name) },
        { op: 'srem', key: KEYS.allGroups, members: [name] },
        { op: 'del', key: KEYS.nameRefsRev(name) },
        bumpGroupsRev(),
      ]
      return { ops, result: true }
    })
  },
})

export const GROUPS_TRANSACTIONS: readonly Transaction[] = [ADD_GROUP, GET_GROUP, LIST_GROUPS, SET_GROUP, DROP_GROUP]
