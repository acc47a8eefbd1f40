/**
 * api/dbm/users: your account and password for everyone; for user managers the users they manage,
 * adding one, resetting a password and deactivating or activating (admin-users.ts on the server).
 * Every action is one dbm transaction; the list is read again after each change, so the page
 * shows what the service now holds.
 */
import './nav.js'
import { act as runAction, caller, dbm, rowsOf, showStatus } from './admin-dbm.js'
import { byId, make } from './dom.js'
import { ErrorBox } from './messages.js'

interface UserView {
  readonly uid: string
  readonly first: string
  readonly middle: string
  readonly last: string
  readonly email: string
  readonly company: string
  readonly roles: readonly string[]
  readonly active: boolean
  readonly groups?: readonly string[]
}

const USER_KEYS = ['uid', 'first', 'middle', 'last', 'email', 'company', 'roles', 'active'] as const

const errors = new ErrorBox()
const act = (control: HTMLButtonElement | HTMLInputElement, work: () => Promise<void>): Promise<void> => runAction(errors, control, work)

const fullName = (u: UserView): string => [u.first, u.middle, u.last].filter((s) => s !== '').join(' ')

function fact(list: HTMLElement, term: string, value: string): void {
  list.append(make('dt', term), make('dd', value))
}

async function showAccount(): Promise<void> {
  const me = await dbm<UserView>('get_user', {})
  const list = byId('my-account')
  list.replaceChildren()
  fact(list, 'User id', me.uid)
  fact(list, 'Name', fullName(me))
  fact(list, 'E-mail', me.email)
  fact(list, 'Company', me.company)
  fact(list, 'Roles', me.roles.join(', ') || 'none')
  fact(list, 'Groups', (me.groups ?? []).join(', ') || 'none')
}

const ownForm = byId<HTMLFormElement>('own-password-form')
ownForm.addEventListener('submit', (ev) => {
  ev.preventDefault()
  const old = byId<HTMLInputElement>('old-password')
  const next = byId<HTMLInputElement>('own-new-password')
  void act(byId<HTMLButtonElement>('change-own-password'), async () => {
    await dbm('set_password', { old_password: old.value, new_password: next.value })
    old.value = next.value = ''
    showStatus('Your password was changed; other clients logged in as you were logged out.')
  })
})

// ---------------------------------------------------------------------------------------------
// user managers

/** What the pages need to tell whom the caller may change: each role's capabilities, each company's administrators. */
interface Directory {
  readonly roleCaps: ReadonlyMap<string, readonly string[]>
  readonly companyAdmins: ReadonlyMap<string, readonly string[]>
}

let directory: Directory = { roleCaps: new Map(), companyAdmins: new Map() }

/** What a company's administrators hold within it (catalog/principal.ts). */
const COMPANY_ADMIN_CAPS = ['manage_users', 'manage_groups', 'manage_company']

/**
 * canManageUser of the service (catalog/people.ts): administrators change anyone; a user manager
 * changes users of their company who hold no capability the manager lacks, so that nobody can,
 * say, reset an administrator's password. The API checks it again on every call.
 */
function mayChange(u: UserView): boolean {
  if (caller.admin) return true
  if (u.company !== caller.company) return false
  const caps = u.roles.flatMap((r) => directory.roleCaps.get(r) ?? [])
  if (directory.companyAdmins.get(u.company)?.includes(u.uid)) caps.push(...COMPANY_ADMIN_CAPS)
  return caps.every((c) => caller.caps.has(c))
}

function userRow(u: UserView): HTMLTableRowElement {
  const tr = make('tr')
  tr.dataset.uid = u.uid
  const uid = make('td', u.uid)
  tr.append(uid, make('td', fullName(u)), make('td', u.email), make('td', u.company), make('td', u.roles.join(', ')))
  tr.append(make('td', u.active ? 'active' : 'deactivated', u.active ? 'state-on' : 'state-off'))
  const actions = make('td', undefined, 'row-actions')
  tr.append(actions)
  // Your own password is changed above, with the old one.
  if (u.uid === caller.uid) actions.append(make('span', 'you', 'hint'))
  if (u.uid === caller.uid || !mayChange(u)) return tr
  const reset = make('button', 'Reset password')
  reset.type = 'button'
  reset.className = 'reset'
  reset.setAttribute('aria-label', `Reset the password of ${u.uid}`)
  reset.addEventListener('click', () => {
    byId<HTMLInputElement>('reset-uid').value = u.uid
    byId<HTMLInputElement>('reset-password').focus()
  })
  actions.append(reset)
  {
    const toggle = make('button', u.active ? 'Deactivate' : 'Activate')
    toggle.type = 'button'
    toggle.className = u.active ? 'deactivate' : 'activate'
    toggle.setAttribute('aria-label', `${u.active ? 'Deactivate' : 'Activate'} ${u.uid}`)
    toggle.addEventListener('click', () =>
      act(toggle, async () => {
        await dbm(u.active ? 'deactivate_user' : 'activate_user', { uid: u.uid })
        showStatus(`${u.uid} is now ${u.active ? 'deactivated: their session has ended' : 'active again'}.`)
        await showUsers()
      }),
    )
    actions.append(' ', toggle)
  }
  return tr
}

async function showUsers(): Promise<void> {
  const table = await dbm<Record<(typeof USER_KEYS)[number], unknown[]>>('list_users', {})
  const users = rowsOf(table, USER_KEYS) as unknown as UserView[]
  byId<HTMLTableElement>('users').tBodies[0].replaceChildren(...users.map(userRow))
}

/** The roles this user may hand out: those whose every capability they hold (admins: all). */
function showRoles(roles: readonly { role: string; capabilities: string[] }[]): void {
  const box = byId('new-roles')
  for (const r of roles) {
    if (!caller.admin && !r.capabilities.every((c) => caller.caps.has(c))) continue
    const label = make('label')
    const input = make('input')
    input.type = 'checkbox'
    input.name = 'role'
    input.value = r.role
    label.append(input, ` ${r.role}`, make('span', ` (${r.capabilities.join(', ') || 'no capabilities'})`, 'hint'))
    box.append(label)
  }
}

/** Administrators may add users to any company; the select lists them all. */
function showCompanies(companies: readonly string[]): void {
  const select = document.querySelector<HTMLSelectElement>('select#new-company')
  if (select === null) return
  for (const c of companies) if (c !== caller.company) select.append(new Option(c, c))
}

/** Roles and companies (list_roles, list_companies: every user may read them), then the users. */
async function showManaged(): Promise<void> {
  const [roleTable, companyTable] = await Promise.all([
    dbm<Record<'role' | 'capabilities', unknown[]>>('list_roles', {}),
    dbm<Record<'company' | 'admins', unknown[]>>('list_companies', {}),
  ])
  const roles = rowsOf(roleTable, ['role', 'capabilities'] as const).map((r) => ({ role: String(r.role), capabilities: r.capabilities as string[] }))
  const companies = rowsOf(companyTable, ['company', 'admins'] as const).map((c) => ({ company: String(c.company), admins: c.admins as string[] }))
  directory = {
    roleCaps: new Map(roles.map((r) => [r.role, r.capabilities])),
    companyAdmins: new Map(companies.map((c) => [c.company, c.admins])),
  }
  showRoles(roles)
  showCompanies(companies.map((c) => c.company))
  await showUsers()
}

function setUpManager(): void {
  const resetForm = byId<HTMLFormElement>('reset-form')
  resetForm.addEventListener('submit', (ev) => {
    ev.preventDefault()
    const uid = byId<HTMLInputElement>('reset-uid')
    const pw = byId<HTMLInputElement>('reset-password')
    void act(byId<HTMLButtonElement>('reset-submit'), async () => {
      await dbm('set_password', { uid: uid.value.trim(), new_password: pw.value })
      showStatus(`The password of ${uid.value.trim()} was reset; their session has ended.`)
      pw.value = ''
    })
  })

  const addForm = byId<HTMLFormElement>('add-user-form')
  addForm.addEventListener('submit', (ev) => {
    ev.preventDefault()
    const value = (id: string) => byId<HTMLInputElement>(id).value.trim()
    const roles = Array.from(addForm.querySelectorAll<HTMLInputElement>('input[name="role"]:checked'), (i) => i.value)
    const password = byId<HTMLInputElement>('new-password').value
    const params = {
      uid: value('new-uid'),
      first: value('new-first'),
      last: value('new-last'),
      email: value('new-email'),
      company: byId<HTMLInputElement | HTMLSelectElement>('new-company').value,
      ...(password === '' ? {} : { password }),
      ...(roles.length > 0 ? { roles } : {}),
    }
    void act(byId<HTMLButtonElement>('add-user'), async () => {
      const added = await dbm<UserView & { password?: string }>('add_user', params)
      byId('added-uid').textContent = added.uid
      byId('generated-password').textContent = added.password ?? ''
      byId('generated').hidden = added.password === undefined
      byId('added').hidden = false
      addForm.reset()
      await showUsers()
    })
  })
}

async function start(): Promise<void> {
  const loads = [showAccount()]
  if (caller.manageUsers) {
    setUpManager()
    loads.push(showManaged())
  }
  await Promise.all(loads)
}

start().catch((err: unknown) => errors.show(err))
