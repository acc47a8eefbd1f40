/**
 * Who is asking: a user with the groups they belong to (through nested groups too) and the
 * capabilities their roles and company give them. Every permission check takes a Principal.
 *
 * Group membership is read for the whole catalog at once and cached per gateway until the
 * groups revision key changes, so a request costs one round trip (user, revision, company and
 * roles together) and access granted through a group applies at the next request.
 */
import type { Store } from '../../shared/store/types.js'
import { KEYS, parseRecord, type CompanyRecord, type GroupRecord, type RoleRecord, type UserRecord } from './records.js'

/** What roles can grant. Company-scoped capabilities apply to the holder's own company only. */
export const CAPABILITIES = {
  admin: 'Administer everything: every folder, table, user, group, company and role.',
  manage_users: "Create, edit, deactivate and reactivate users of one's own company, and reset their passwords.",
  manage_groups: "Manage every group of one's own company.",
  manage_company: "Edit one's own company.",
  create_top_folders: 'Create folders at the top level of the tree.',
} as const

export type Capability = keyof typeof CAPABILITIES

export const isCapability = (s: string): s is Capability => Object.prototype.hasOwnProperty.call(CAPABILITIES, s)

/** What being listed among a company's administrators gives, within that company. */
export const COMPANY_ADMIN_CAPABILITIES: readonly Capability[] = ['manage_users', 'manage_groups', 'manage_company']

export interface Principal {
  readonly uid: string
  readonly company: string
  /** Groups the user belongs to, directly or through other groups. */
  readonly groups: readonly string[]
  readonly caps: ReadonlySet<Capability>
  /** Holds the `admin` capability. */
  readonly admin: boolean
}

/** True when the principal is the user, one of their groups, or the list says everyone. */
export function listed(p: Principal, names: readonly string[]): boolean {
  return names.includes('*') || names.includes(p.uid) || p.groups.some((g) => names.includes(g))
}

/** Capability `cap` over things belonging to `company` (admins have every capability everywhere). */
export function hasCapability(p: Principal, cap: Capability, company: string = p.company): boolean {
  return p.admin || (p.caps.has(cap) && company === p.company)
}

/** Member → the groups that list it directly. */
type Membership = ReadonlyMap<string, readonly string[]>

function membershipOf(groups: readonly GroupRecord[]): Membership {
  const m = new Map<string, string[]>()
  for (const g of groups) {
    for (const member of g.users) {
      const list = m.get(member)
      if (list) list.push(g.group)
      else m.set(member, [g.group])
    }
  }
  return m
}

/** All groups reaching `uid` through membership chains (cycles are harmless). */
export function groupsOf(membership: Membership, uid: string): string[] {
  const seen = new Set<string>()
  const queue = [...(membership.get(uid) ?? [])]
  while (queue.length > 0) {
    const g = queue.pop()!
    if (seen.has(g)) continue
    seen.add(g)
    queue.push(...(membership.get(g) ?? []))
  }
  return [...seen].sort()
}

/** Loads principals; one per gateway (it caches the group membership map). */
export class Directory {
  private cached: { rev: string | null; membership: Membership } | null = null

  constructor(private readonly store: Store) {}

  /** Group membership, reloaded when the groups revision differs from the cached one. */
  private async membership(rev: string | null): Promise<Membership> {
    if (this.cached && this.cached.rev === rev) return this.cached.membership
    const names = await this.store.smembers(KEYS.allGroups)
    const raws = names.length > 0 ? await this.store.mget(names.map(KEYS.group)) : []
    const membership = membershipOf(raws.map((r) => parseRecord<GroupRecord>(r)).filter((g): g is GroupRecord => g !== null))
    this.cached = { rev, membership }
    return membership
  }

  async principal(user: UserRecord): Promise<Principal> {
    const roles = user.roles ?? []
    const [rev, rawCompany, ...rawRoles] = await this.store.mget([KEYS.groupsRev, KEYS.company(user.company ?? ''), ...roles.map(KEYS.role)])
    const caps = new Set<Capability>()
    for (const role of rawRoles.map((r) => parseRecord<RoleRecord>(r))) {
      for (const c of role?.capabilities ?? []) if (isCapability(c)) caps.add(c)
    }
    if (user.admin) caps.add('admin')
    const company = parseRecord<CompanyRecord>(rawCompany)
    if (company?.admins.includes(user.uid)) for (const c of COMPANY_ADMIN_CAPABILITIES) caps.add(c)
    return {
      uid: user.uid,
      company: user.company ?? '',
      groups: groupsOf(await this.membership(rev), user.uid),
      caps,
      admin: caps.has('admin'),
    }
  }
}
