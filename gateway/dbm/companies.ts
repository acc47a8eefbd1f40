/**
 * dbm transactions: companies (reference §6.3). Every user belongs to one company; the users
 * listed in its `admins` manage its users, groups and details. A company is visible to its own
 * users and to administrators; to anyone else it does not exist.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { checkEmail, getCompany, loadCompanies, loadGroups, loadUsers, noSuchCompany } from '../catalog/people.js'
import { hasCapability } from '../catalog/principal.js'
import { KEYS, parseRecord, type CompanyRecord, type UserRecord } from '../catalog/records.js'
import { catalogTxn, type Watched } from '../catalog/txn.js'
import { columnMajor } from './common.js'
import { newCompanyRecord } from './company-record.js'
import { checkId, requireAdmin, shortList } from './people-checks.js'
import { defineTransaction } from './define.js'
import type { DbmContext, Transaction } from './registry.js'
import type { ParamSpec, ParamsOf } from './schema.js'

const DETAIL_FIELDS = ['email', 'phone', 'street', 'city', 'state', 'zip', 'country'] as const
type DetailField = (typeof DETAIL_FIELDS)[number]

const COMPANY_COLUMNS = ['company', 'name', 'admins', 'max_ids', ...DETAIL_FIELDS, 'created', 'updated', 'created_by', 'updated_by', 'active_users'] as const

function companyView(c: CompanyRecord, users: readonly UserRecord[]): Record<string, unknown> {
  const members = users.filter((u) => u.company === c.company)
  return { ...c, users: members.map((u) => u.uid), active_users: members.filter((u) => u.active).length }
}

/** The company, if the caller belongs to it or is an administrator; otherwise "no such company". */
async function visibleCompany(ctx: DbmContext, id: string): Promise<CompanyRecord> {
  const company = await getCompany(ctx.deps.store, id)
  if (!company || !(ctx.user.admin || ctx.user.company === id)) throw noSuchCompany(id)
  return company
}

const DETAIL_PARAMS = {
  email: { type: 'string', doc: 'Contact e-mail address.' },
  phone: { type: 'string', doc: 'Contact telephone number.' },
  street: { type: 'string', doc: 'Street address.' },
  city: { type: 'string', doc: 'City.' },
  state: { type: 'string', doc: 'State or region.' },
  zip: { type: 'string', doc: 'Postal code.' },
  country: { type: 'string', doc: 'Country.' },
} as const satisfies Record<DetailField, ParamSpec>

const COMMON_PARAMS = {
  max_ids: { type: 'integer', doc: 'Most user ids the company may have; 0 for no limit.' },
  admins: { type: 'names', doc: 'Company administrators (existing users; their rights apply while they belong to the company). Administrators only.' },
  ...DETAIL_PARAMS,
} as const

/** What add_company and set_company may change, as they are being gathered. */
type CompanyChanges = { -readonly [K in keyof CompanyRecord]?: CompanyRecord[K] }

/** The detail and limit fields given, checked. */
function editedFields(params: ParamsOf<typeof COMMON_PARAMS> & { readonly name?: string }): CompanyChanges {
  const out: CompanyChanges = {}
  for (const f of DETAIL_FIELDS) if (params[f] !== undefined) out[f] = String(params[f]).trim()
  if (typeof out.email === 'string' && out.email !== '') checkEmail(out.email)
  if (params.name !== undefined) {
    const name = params.name.trim()
    if (name === '') throw new AppError('INVALID_PARAMETER', 'The parameter "name" cannot be empty: a company needs a name.', { parameter: 'name' })
    out.name = name
  }
  if (params.max_ids !== undefined) {
    if (params.max_ids < 0)
      throw new AppError('INVALID_PARAMETER', `The parameter "max_ids" must be 0 (no limit) or more (got ${params.max_ids}).`, { parameter: 'max_ids' })
    out.max_ids = params.max_ids
  }
  if (params.admins !== undefined) out.admins = params.admins
  return out
}

/** Company administrators must be existing users (read under watch). */
function checkAdmins(w: Watched, admins: readonly string[]): void {
  const unknown = admins.filter((a) => w.get(KEYS.user(a)) == null)
  if (unknown.length > 0) {
    throw new AppError('INVALID_PARAMETER', `Invalid user identification in "admins": ${unknown.join(', ')}; company administrators must be existing users.`, {
      parameter: 'admins',
    })
  }
}

/**
 * A company's groups are managed by its company administrators (manage_groups), and may be
 * listed as readers and uploaders. Were the company dropped under them, whoever administers the
 * next company of that id would manage them, and so get what they were given. So a company is
 * dropped only once its groups are (drop_group takes each out of every list).
 */
async function refuseCompanyGroups(store: Store, id: string, action: string): Promise<void> {
  const groups = (await loadGroups(store)).filter((g) => g.company === id).map((g) => g.group)
  if (groups.length === 0) return
  throw new AppError(
    'INVALID_PARAMETER',
    `Cannot ${action}: ${groups.length} group${groups.length > 1 ? 's' : ''} (${shortList(groups)}) still belong${groups.length > 1 ? '' : 's'} to the company "${id}"; drop ${groups.length > 1 ? 'them' : 'it'} with drop_group first.`,
    { company: id },
  )
}

const GET_COMPANY = defineTransaction({
  name: 'get_company',
  summary: 'Shows a company: its details, administrators, user ids and number of active users.',
  requires: 'users of the company, or admin',
  params: { company: { type: 'name', doc: 'The company id; yours when left out.' } },
  handler: async (ctx, params) => {
    const company = await visibleCompany(ctx, params.company ?? ctx.user.company)
    return companyView(company, await loadUsers(ctx.deps.store))
  },
})

const LIST_COMPANIES = defineTransaction({
  name: 'list_companies',
  summary: 'Lists the companies you may see (admin: all; others: their own), column-major.',
  requires: 'any user',
  params: {},
  handler: async (ctx) => {
    const { store } = ctx.deps
    const [companies, users] = await Promise.all([loadCompanies(store), loadUsers(store)])
    const rows = companies.filter((c) => ctx.user.admin || c.company === ctx.user.company).map((c) => companyView(c, users))
    return columnMajor(COMPANY_COLUMNS, rows)
  },
})

const ADD_COMPANY = defineTransaction({
  name: 'add_company',
  summary: 'Creates a company; add its users with add_user and company, then name its administrators.',
  requires: 'admin',
  params: {
    company: { type: 'name', required: true, doc: 'The company id: a lower-case letter, then lower-case letters, digits or underscores.' },
    name: { type: 'string', required: true, doc: "The company's name." },
    ...COMMON_PARAMS,
  },
  handler: async (ctx, params) => {
    requireAdmin(ctx.user, 'add companies')
    const id = params.company
    checkId(id, 'company id', 'company')
    const record: CompanyRecord = { ...newCompanyRecord(id, ctx.user.uid, new Date().toISOString()), ...editedFields(params) }
    await catalogTxn(
      ctx.deps.store,
      () => [KEYS.company(id), KEYS.groupsRev, ...record.admins.map(KEYS.user)],
      async (w) => {
        if (w.get(KEYS.company(id)) !== null)
          throw new AppError('ALREADY_EXISTS', `The company "${id}" already exists; change it with set_company or choose another id.`, { company: id })
        // Groups an earlier release left behind with a dropped company of this id would fall to its managers.
        await refuseCompanyGroups(ctx.deps.store, id, `add the company "${id}"`)
        checkAdmins(w, record.admins)
        return {
          ops: [
            { op: 'set', key: KEYS.company(id), value: JSON.stringify(record) },
            { op: 'sadd', key: KEYS.allCompanies, members: [id] },
          ],
          result: record,
        }
      },
    )
    return companyView(record, [])
  },
})

const SET_COMPANY = defineTransaction({
  name: 'set_company',
  summary: "Changes a company's name, limit, contact details or (administrators) its administrators.",
  requires: 'its company administrators (manage_company), or admin; admins: admin',
  params: {
    company: { type: 'name', required: true, doc: 'The company id (it cannot change).' },
    name: { type: 'string', doc: "The company's name." },
    ...COMMON_PARAMS,
  },
  handler: async (ctx, params) => {
    const { store } = ctx.deps
    const id = params.company
    await visibleCompany(ctx, id)
    if (!hasCapability(ctx.user, 'manage_company', id))
      throw new AppError('FORBIDDEN', `Not a company admin: only administrators of "${id}" may change it.`, { company: id })
    if (params.admins !== undefined && !ctx.user.admin)
      throw new AppError('FORBIDDEN', 'Only an administrator may change who administers a company.', { parameter: 'admins' })
    const changes = editedFields(params)
    const admins = changes.admins ?? []
    const updated = await catalogTxn(
      store,
      () => [KEYS.company(id), ...admins.map(KEYS.user)],
      (w) => {
        const current = parseRecord<CompanyRecord>(w.get(KEYS.company(id)) ?? null)
        if (!current) throw noSuchCompany(id)
        checkAdmins(w, admins)
        const next: CompanyRecord = { ...current, ...changes, updated: new Date().toISOString(), updated_by: ctx.user.uid }
        return { ops: [{ op: 'set', key: KEYS.company(id), value: JSON.stringify(next) }], result: next }
      },
    )
    return companyView(updated, await loadUsers(store))
  },
})

const DROP_COMPANY = defineTransaction({
  name: 'drop_company',
  summary: 'Drops a company that has no users and no groups left.',
  requires: 'admin',
  params: { company: { type: 'name', required: true, doc: 'The company id.' } },
  handler: async (ctx, params) => {
    requireAdmin(ctx.user, 'drop companies')
    const { store } = ctx.deps
    const id = params.company
    // The users revision changes whenever a user joins, so a user added meanwhile is not missed;
    // the groups revision likewise catches a group made meanwhile.
    return catalogTxn(
      store,
      () => [KEYS.company(id), KEYS.companyUsersRev(id), KEYS.groupsRev],
      async (w) => {
        if (w.get(KEYS.company(id)) === null) throw noSuchCompany(id)
        const members = (await loadUsers(store)).filter((u) => u.company === id).map((u) => u.uid)
        if (members.length > 0) {
          throw new AppError(
            'INVALID_PARAMETER',
            `The company "${id}" still has ${members.length} user${members.length > 1 ? 's' : ''} (${shortList(members)}); move them to another company with set_user first.`,
            { company: id },
          )
        }
        await refuseCompanyGroups(store, id, `drop the company "${id}"`)
        return {
          ops: [
            { op: 'del', key: KEYS.company(id) },
            { op: 'srem', key: KEYS.allCompanies, members: [id] },
            { op: 'del', key: KEYS.companyUsersRev(id) },
          ],
          result: true,
        }
      },
    )
  },
})

export const COMPANIES_TRANSACTIONS: readonly Transaction[] = [GET_COMPANY, LIST_COMPANIES, ADD_COMPANY, SET_COMPANY, DROP_COMPANY]
