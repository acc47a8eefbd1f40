import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { companyWithAdmin, dbm, dbmFails, dbmOk, refused, userCookie } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { checkPasswordRules } from '../../gateway/auth/password-rules.js'
import { guardLastAdmin } from '../../gateway/catalog/people.js'
import { KEYS, type RoleRecord, type UserRecord } from '../../gateway/catalog/records.js'

type View = Record<string, unknown>
type Table = Record<string, unknown[]>

const sqlStatus = async (svc: TestService, cookie: string): Promise<number> =>
  (await svc.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1 as one' })).status

const loginStatus = async (svc: TestService, uid: string, pw: string): Promise<number> =>
  (await svc.http.post('/v1/api/!login:json').type('form').send({ uid, pw })).status

describe('checkPasswordRules()', () => {
  it('accepts 6 to 128 printable characters, spaces and punctuation included', () => {
    expect(() => checkPasswordRules('abc123')).not.to.throw()
    expect(() => checkPasswordRules('correct horse, battery staple!')).not.to.throw()
    expect(() => checkPasswordRules('é'.repeat(128))).not.to.throw()
  })

  it('refuses short, long and control-character passwords, naming the parameter', () => {
    expect(() => checkPasswordRules('abc12', 'password')).to.throw(/"password" is too short \(5 characters\).*6 to 128/)
    expect(() => checkPasswordRules('x'.repeat(129))).to.throw(/"new_password" is too long/)
    expect(() => checkPasswordRules('abc\n12345')).to.throw(/control character/)
  })
})

describe('guardLastAdmin()', () => {
  const role = (name: string, caps: string[]): RoleRecord => ({
    role: name,
    title: name,
    description: '',
    capabilities: caps,
    builtin: false,
    created: '',
    updated: '',
  })
  const user = (uid: string, roles: string[], active = true): UserRecord => ({
    uid,
    passwordHash: '',
    active,
    first: '',
    middle: '',
    last: '',
    email: '',
    company: 'main',
    roles,
    created: '',
    updated: '',
  })
  const watched = (...records: (UserRecord | RoleRecord)[]) =>
    new Map(records.map((r) => ['uid' in r ? KEYS.user(r.uid) : KEYS.role(r.role), JSON.stringify(r)] as [string, string]))

  it('refuses a change that leaves no active holder of the admin capability', () => {
    const w = watched(role('admin', ['admin']), user('a', ['admin']), user('b', ['admin'], false))
    expect(() => guardLastAdmin(w, { user: user('a', ['admin'], false) }, 'deactivate "a"')).to.throw(/Cannot deactivate "a": no active administrator/)
    expect(() => guardLastAdmin(w, { role: { name: 'admin', record: null } }, 'drop it')).to.throw(/no active administrator/)
  })

  it('allows it while another active administrator remains, whatever role makes them one', () => {
    const w = watched(role('admin', ['admin']), role('boss', ['admin', 'manage_users']), user('a', ['admin']), user('b', ['boss']))
    expect(() => guardLastAdmin(w, { user: user('a', [], true) }, 'revoke')).not.to.throw()
    expect(() => guardLastAdmin(w, { role: { name: 'boss', record: role('boss', []) } }, 'change')).not.to.throw()
  })
})

forEachStore('dbm users', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  describe('get_user', () => {
    it('shows the caller by default, without the password hash, with direct group memberships', async () => {
      const ann = await userCookie(svc(), 'ann')
      await dbmOk(svc(), ann, 'add_group', { group: 'ann_team', users: ['ann'] })
      const view = await dbmOk<View>(svc(), ann, 'get_user')
      expect(view).to.include({ uid: 'ann', first: 'ann', last: 'Test', email: 'ann@example.com', company: 'main', active: true })
      expect(view).to.have.keys('uid', 'first', 'middle', 'last', 'email', 'company', 'roles', 'active', 'password_expires', 'created', 'updated', 'groups')
      expect(view.groups).to.deep.equal(['ann_team'])
    })

    it('shows any user to an administrator and users of their company to a company administrator', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'gu')
      await userCookie(svc(), 'gu_worker', { company: 'gu' })
      expect(await dbmOk<View>(svc(), admin, 'get_user', { uid: 'gu_worker' })).to.include({ company: 'gu' })
      expect(await dbmOk<View>(svc(), boss, 'get_user', { uid: 'gu_worker' })).to.include({ uid: 'gu_worker' })
      await dbmFails(svc(), boss, 'get_user', { uid: 'admin' }, /^Invalid user identification "admin"/)
    })

    it('answers a user the caller may not see exactly like a missing one', async () => {
      const ben = await userCookie(svc(), 'ben')
      const hidden = await dbm(svc(), ben, 'get_user', { uid: 'admin' })
      const missing = await dbm(svc(), ben, 'get_user', { uid: 'nobody' })
      expect(hidden.code).to.equal('unknown_user').and.to.equal(missing.code)
      expect(hidden.msg!.replace('admin', 'X')).to.equal(missing.msg!.replace('nobody', 'X'))
    })
  })

  describe('list_users', () => {
    it('lists every user to an administrator, column-major, filtered by company and text', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'lu', name: 'LU' })
      await userCookie(svc(), 'lu_one', { company: 'lu' })
      await userCookie(svc(), 'lu_two', { company: 'lu' })
      const all = await dbmOk<Table>(svc(), admin, 'list_users')
      expect(all).to.have.keys('uid', 'first', 'middle', 'last', 'email', 'company', 'roles', 'active', 'password_expires', 'created', 'updated')
      expect(all.uid).to.include.members(['admin', 'lu_one', 'lu_two'])
      expect((await dbmOk<Table>(svc(), admin, 'list_users', { company: 'lu' })).uid).to.deep.equal(['lu_one', 'lu_two'])
      expect((await dbmOk<Table>(svc(), admin, 'list_users', { find: 'LU_T' })).uid).to.deep.equal(['lu_two'])
    })

    it('lists only their own company to a company administrator', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'lc')
      expect((await dbmOk<Table>(svc(), boss, 'list_users')).uid).to.deep.equal(['lc_boss'])
      await dbmFails(svc(), boss, 'list_users', { company: 'main' }, /Not authorised to list users of the company "main"/)
    })

    it('refuses a user without manage_users', async () => {
      const cal = await userCookie(svc(), 'cal')
      const r = await dbmFails(svc(), cal, 'list_users', {}, /^Not authorised to list users/)
      expect(r.code).to.equal('forbidden')
    })

    it('reports an unknown company to an administrator', async () => {
      expect((await dbmFails(svc(), admin, 'list_users', { company: 'nosuch' }, /No such company "nosuch"/)).code).to.equal('unknown_company')
    })
  })

  describe('add_user', () => {
    const fields = { first: 'Dora', last: 'Diaz', email: 'dora@example.com' }

    it('creates an active user who can log in with the given password, and never returns it', async () => {
      const view = await dbmOk<View>(svc(), admin, 'add_user', { uid: 'dora', ...fields, middle: 'Q', password: 'dora pass phrase' })
      expect(view).to.include({ uid: 'dora', first: 'Dora', middle: 'Q', last: 'Diaz', company: 'main', active: true })
      expect(view).not.to.have.property('password')
      expect(await loginStatus(svc(), 'dora', 'dora pass phrase')).to.equal(200)
      expect(await dbmOk<View>(svc(), admin, 'get_user', { uid: 'dora' })).to.include({ email: 'dora@example.com' })
    })

    it('generates a 12-character alphanumeric password when none is given, returned once', async () => {
      const view = await dbmOk<View>(svc(), admin, 'add_user', { uid: 'gen', ...fields })
      expect(view.password).to.match(/^[A-Za-z0-9]{12}$/)
      expect(await loginStatus(svc(), 'gen', view.password as string)).to.equal(200)
      expect(await dbmOk<View>(svc(), admin, 'get_user', { uid: 'gen' })).not.to.have.property('password')
    })

    it('lets a company administrator add users to their company (the default) with roles they may grant', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'au')
      const view = await dbmOk<View>(svc(), boss, 'add_user', { uid: 'au_new', ...fields, roles: ['user_admin'] })
      expect(view).to.include({ company: 'au' })
      expect(view.roles).to.deep.equal(['user_admin'])
    })

    it('refuses a uid already in use by a user or by a group', async () => {
      await refused(svc(), admin, 'add_user', { uid: 'admin', ...fields }, 'already_exists', /^User id "admin" already in use/)
      await dbmOk(svc(), admin, 'add_group', { group: 'taken_by_group' })
      await refused(svc(), admin, 'add_user', { uid: 'taken_by_group', ...fields }, 'already_exists', /already in use by a group/)
    })

    it('refuses an invalid uid, e-mail address or password and a missing required field', async () => {
      await refused(svc(), admin, 'add_user', { uid: '9lives', ...fields }, 'invalid_parameter', /^Invalid user id "9lives"/)
      await refused(
        svc(),
        admin,
        'add_user',
        { uid: 'eve', ...fields, email: 'not-an-address' },
        'invalid_parameter',
        /Invalid e-mail address "not-an-address"/,
      )
      await refused(svc(), admin, 'add_user', { uid: 'eve', ...fields, password: 'short' }, 'invalid_parameter', /"password" is too short/)
      await refused(svc(), admin, 'add_user', { uid: 'eve', last: 'X', email: 'e@example.com' }, 'missing_parameter', /needs the parameter "first"/)
    })

    it('refuses an unknown company and an unknown role', async () => {
      await refused(svc(), admin, 'add_user', { uid: 'eve', ...fields, company: 'ghost' }, 'unknown_company', /No such company "ghost"/)
      await refused(svc(), admin, 'add_user', { uid: 'eve', ...fields, roles: ['ghost_role'] }, 'unknown_role', /No such role "ghost_role"/)
    })

    it('refuses users without manage_users, other companies to non-administrators, and roles beyond the granter', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'ax')
      const plain = await userCookie(svc(), 'ax_plain', { company: 'ax' })
      await refused(svc(), plain, 'add_user', { uid: 'eve', ...fields }, 'forbidden', /^Not authorised to add users/)
      await refused(
        svc(),
        boss,
        'add_user',
        { uid: 'eve', ...fields, company: 'main' },
        'forbidden',
        /Only an administrator may add users to another company \("main"\)/,
      )
      await refused(svc(), boss, 'add_user', { uid: 'eve', ...fields, roles: ['admin'] }, 'forbidden', /Not authorised to grant the role "admin"/)
    })

    it("stops at the company's maximum # of ids, even when many adds race", async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'mx', name: 'MX', max_ids: 2 })
      const replies = await Promise.all([1, 2, 3, 4, 5].map((i) => dbm(svc(), admin, 'add_user', { uid: `mx_${i}`, ...fields, company: 'mx' })))
      expect(replies.filter((r) => r.rc === 0)).to.have.length(2)
      for (const r of replies.filter((x) => x.rc === 1)) {
        expect(r.code).to.equal('limit_reached')
        expect(r.msg).to.match(/Company "mx" is at its maximum # of ids \(2\)/)
      }
      expect((await dbmOk<View>(svc(), admin, 'get_company', { company: 'mx' })).users).to.have.length(2)
    })
  })

  describe('set_user', () => {
    it('lets users change their own names and e-mail address', async () => {
      const fay = await userCookie(svc(), 'fay')
      const view = await dbmOk<View>(svc(), fay, 'set_user', { uid: 'fay', first: 'Faye', middle: 'R', email: 'faye@example.org' })
      expect(view).to.include({ first: 'Faye', middle: 'R', last: 'Test', email: 'faye@example.org' })
      expect(await dbmOk<View>(svc(), fay, 'get_user')).to.include({ first: 'Faye', email: 'faye@example.org' })
    })

    it('lets a company administrator change users of their company', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'su')
      await userCookie(svc(), 'su_worker', { company: 'su' })
      await dbmOk(svc(), boss, 'set_user', { uid: 'su_worker', last: 'Renamed' })
      expect(await dbmOk<View>(svc(), admin, 'get_user', { uid: 'su_worker' })).to.include({ last: 'Renamed' })
    })

    it('lets an administrator move a user to another company, who then administers the old one no more', async () => {
      await companyWithAdmin(svc(), admin, 'mv')
      await dbmOk(svc(), admin, 'add_company', { company: 'mv_to', name: 'Target' })
      expect(await dbmOk<View>(svc(), admin, 'set_user', { uid: 'mv_boss', company: 'mv_to' })).to.include({ company: 'mv_to' })
      expect((await dbmOk<View>(svc(), admin, 'get_company', { company: 'mv' })).admins).to.deep.equal([])
      expect((await dbmOk<View>(svc(), admin, 'get_company', { company: 'mv_to' })).users).to.deep.equal(['mv_boss'])
    })

    it('refuses a company change by a non-administrator, empty names and bad addresses', async () => {
      const gil = await userCookie(svc(), 'gil')
      await refused(svc(), gil, 'set_user', { uid: 'gil', company: 'su' }, 'forbidden', /Only an administrator may move a user/)
      await refused(svc(), gil, 'set_user', { uid: 'gil', first: '  ' }, 'invalid_parameter', /"first" cannot be empty/)
      await refused(svc(), gil, 'set_user', { uid: 'gil', email: 'gil at example' }, 'invalid_parameter', /Invalid e-mail address/)
    })

    it('refuses a move into an unknown or full company', async () => {
      await userCookie(svc(), 'hal')
      await refused(svc(), admin, 'set_user', { uid: 'hal', company: 'ghost' }, 'unknown_company', /No such company "ghost"/)
      await dbmOk(svc(), admin, 'add_company', { company: 'full', name: 'Full', max_ids: 1 })
      await userCookie(svc(), 'full_one', { company: 'full' })
      await refused(svc(), admin, 'set_user', { uid: 'hal', company: 'full' }, 'limit_reached', /maximum # of ids \(1\)/)
    })

    it('hides other users from plain users and protects stronger users from company administrators', async () => {
      const ivy = await userCookie(svc(), 'ivy')
      await refused(svc(), ivy, 'set_user', { uid: 'admin', first: 'Pwned' }, 'unknown_user', /^Invalid user identification "admin"/)
      await dbmOk(svc(), admin, 'set_company', { company: 'main', admins: ['ivy'] })
      try {
        await refused(svc(), ivy, 'set_user', { uid: 'admin', email: 'ivy@example.com' }, 'forbidden', /that user holds capabilities you do not have/)
      } finally {
        await dbmOk(svc(), admin, 'set_company', { company: 'main', admins: [] })
      }
    })
  })

  describe('deactivate_user and activate_user', () => {
    it('ends the live session at once, refuses login until activated again', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'da')
      const kim = await userCookie(svc(), 'da_kim', { company: 'da' })
      expect(await sqlStatus(svc(), kim)).to.equal(200)
      expect(await dbmOk<View>(svc(), boss, 'deactivate_user', { uid: 'da_kim' })).to.include({ active: false })
      expect(await sqlStatus(svc(), kim)).to.equal(403)
      expect(await loginStatus(svc(), 'da_kim', 'da_kim-pass-1')).to.equal(401)
      expect(await dbmOk<View>(svc(), boss, 'activate_user', { uid: 'da_kim' })).to.include({ active: true })
      expect(await loginStatus(svc(), 'da_kim', 'da_kim-pass-1')).to.equal(200)
    })

    it('refuses to deactivate yourself', async () => {
      await refused(svc(), admin, 'deactivate_user', { uid: 'admin' }, 'forbidden', /cannot deactivate your own user id/)
    })

    it('hides other users from plain users and protects administrators from company administrators', async () => {
      const lee = await userCookie(svc(), 'lee')
      await refused(svc(), lee, 'deactivate_user', { uid: 'admin' }, 'unknown_user', /^Invalid user identification "admin"/)
      const boss = await companyWithAdmin(svc(), admin, 'dp')
      await userCookie(svc(), 'dp_top', { company: 'dp', roles: ['folder_creator'] })
      await refused(
        svc(),
        boss,
        'deactivate_user',
        { uid: 'dp_top' },
        'forbidden',
        /Not authorised to deactivate "dp_top": that user holds capabilities you do not have/,
      )
    })

    it('never lets two administrators deactivate each other at the same moment', async () => {
      const rival = await userCookie(svc(), 'rival', { roles: ['admin'] })
      const replies = await Promise.all([
        svc()
          .http.post('/v1/api/dbm:json')
          .set('Cookie', admin)
          .send({ cmd: ['deactivate_user', { uid: 'rival' }] }),
        svc()
          .http.post('/v1/api/dbm:json')
          .set('Cookie', rival)
          .send({ cmd: ['deactivate_user', { uid: 'admin' }] }),
      ])
      const users = await svc().deps.store.mget([KEYS.user('admin'), KEYS.user('rival')])
      const active = users.map((raw) => (JSON.parse(raw!) as UserRecord).active)
      expect(active.filter(Boolean), JSON.stringify(replies.map((r) => r.body))).to.have.length.greaterThan(0)
      // Whoever lost is refused by the guard (rc 1) or, already deactivated, by the session check.
      if (!active[0]) {
        await dbmOk(svc(), await svc().login('rival', 'rival-pass-1'), 'activate_user', { uid: 'admin' })
        admin = await svc().login()
      }
      await dbmOk(svc(), admin, 'activate_user', { uid: 'rival' })
      await dbmOk(svc(), admin, 'revoke_role', { uid: 'rival', role: 'admin' })
    })
  })

  describe('set_password', () => {
    it('changes your own password with the old one', async () => {
      const max = await userCookie(svc(), 'max')
      expect(await dbmOk(svc(), max, 'set_password', { old_password: 'max-pass-1', new_password: 'a much longer passphrase' })).to.equal(true)
      expect(await loginStatus(svc(), 'max', 'max-pass-1')).to.equal(401)
      expect(await loginStatus(svc(), 'max', 'a much longer passphrase')).to.equal(200)
      expect(await sqlStatus(svc(), max)).to.equal(200)
    })

    it('refuses a wrong or missing old password and a password against the rules', async () => {
      const ned = await userCookie(svc(), 'ned')
      await refused(svc(), ned, 'set_password', { old_password: 'guess-1', new_password: 'newpass1' }, 'invalid_parameter', /^Wrong password/)
      await refused(svc(), ned, 'set_password', { new_password: 'newpass1' }, 'missing_parameter', /needs "old_password"/)
      await refused(svc(), ned, 'set_password', { old_password: 'ned-pass-1', new_password: 'abc' }, 'invalid_parameter', /too short/)
      expect(await loginStatus(svc(), 'ned', 'ned-pass-1')).to.equal(200)
    })

    it("lets a company administrator reset a user's password, which ends that user's session", async () => {
      const boss = await companyWithAdmin(svc(), admin, 'pw')
      const oli = await userCookie(svc(), 'pw_oli', { company: 'pw' })
      expect(await dbmOk(svc(), boss, 'set_password', { uid: 'pw_oli', new_password: 'reset-by-boss' })).to.equal(true)
      expect(await sqlStatus(svc(), oli)).to.equal(403)
      expect(await loginStatus(svc(), 'pw_oli', 'reset-by-boss')).to.equal(200)
    })

    it("hides other users from plain users and keeps company administrators off an administrator's password", async () => {
      const pat = await userCookie(svc(), 'pat')
      await refused(svc(), pat, 'set_password', { uid: 'admin', new_password: 'taken-over' }, 'unknown_user', /^Invalid user identification "admin"/)
      await dbmOk(svc(), admin, 'set_company', { company: 'main', admins: ['pat'] })
      try {
        await refused(svc(), pat, 'set_password', { uid: 'admin', new_password: 'taken-over' }, 'forbidden', /Not authorised to reset the password of "admin"/)
      } finally {
        await dbmOk(svc(), admin, 'set_company', { company: 'main', admins: [] })
      }
    })
  })
})
