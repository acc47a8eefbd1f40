import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { dbm, dbmFails, dbmOk, refused, userCookie } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { KEYS, type UserRecord } from '../../gateway/catalog/records.js'

type View = Record<string, unknown>
type Table = Record<string, unknown[]>

/** Whether the caller may list users: what manage_users (or admin) visibly gives. */
const managesUsers = async (svc: TestService, cookie: string): Promise<boolean> => (await dbm(svc, cookie, 'list_users')).rc === 0

forEachStore('dbm roles', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  describe('list_roles and get_role', () => {
    it('lists the built-in roles to any user, column-major', async () => {
      const ann = await userCookie(svc(), 'r_ann')
      const roles = await dbmOk<Table>(svc(), ann, 'list_roles')
      expect(roles).to.have.keys('role', 'title', 'description', 'capabilities', 'builtin', 'created', 'updated')
      expect(roles.role).to.include.members(['admin', 'folder_creator', 'user_admin'])
      const i = roles.role.indexOf('user_admin')
      expect(roles.capabilities[i]).to.deep.equal(['manage_users', 'manage_groups'])
      expect(roles.builtin[i]).to.equal(true)
    })

    it('shows one role, and reports an unknown one', async () => {
      const ann = await svc().login('r_ann', 'r_ann-pass-1')
      expect(await dbmOk<View>(svc(), ann, 'get_role', { role: 'admin' })).to.include({ role: 'admin', builtin: true })
      expect((await dbmFails(svc(), ann, 'get_role', { role: 'wizard' }, /^No such role "wizard"/)).code).to.equal('unknown_role')
    })
  })

  describe('add_role, set_role and drop_role', () => {
    it('defines a role whose capabilities its holders get at once, and changes them', async () => {
      const view = await dbmOk<View>(svc(), admin, 'add_role', {
        role: 'auditor',
        title: 'Auditor',
        description: 'Reads user lists',
        capabilities: 'manage_users',
      })
      expect(view).to.include({ role: 'auditor', title: 'Auditor', builtin: false })
      expect(view.capabilities).to.deep.equal(['manage_users'])
      const holder = await userCookie(svc(), 'r_holder', { roles: ['auditor'] })
      expect(await managesUsers(svc(), holder)).to.equal(true)
      expect(await dbmOk<View>(svc(), admin, 'set_role', { role: 'auditor', capabilities: [], title: 'Idle' })).to.include({
        title: 'Idle',
        description: 'Reads user lists',
      })
      expect(await managesUsers(svc(), holder)).to.equal(false)
    })

    it('refuses to take the admin capability from, or drop, the role by which the last active administrator is one', async () => {
      await dbmOk(svc(), admin, 'add_role', { role: 'superuser', capabilities: ['admin'] })
      const superuser = await userCookie(svc(), 'r_super', { roles: ['superuser'] })
      // The built-in administrator steps down: r_super, by the role superuser, is the last one.
      await dbmOk(svc(), admin, 'revoke_role', { uid: 'admin', role: 'admin' })
      try {
        await refused(
          svc(),
          superuser,
          'set_role',
          { role: 'superuser', capabilities: [] },
          'limit_reached',
          /take the admin capability from the role "superuser".*no active administrator would be left/,
        )
        await refused(svc(), superuser, 'drop_role', { role: 'superuser' }, 'limit_reached', /drop the role "superuser".*no active administrator would be left/)
      } finally {
        // Given back whatever happened, so that a failure here does not fail the tests after it.
        await dbm(svc(), superuser, 'grant_role', { uid: 'admin', role: 'admin' })
      }
      // Granting a role already held changes nothing.
      expect((await dbmOk<View>(svc(), superuser, 'grant_role', { uid: 'admin', role: 'admin' })).roles).to.deep.equal(['admin'])
      await dbmOk(svc(), admin, 'set_role', { role: 'superuser', capabilities: [] })
      await dbmOk(svc(), admin, 'drop_role', { role: 'superuser' })
    })

    it('drops a role and takes it from every holder in the same change', async () => {
      await dbmOk(svc(), admin, 'add_role', { role: 'temp', capabilities: ['create_top_folders'] })
      await userCookie(svc(), 'r_temp1', { roles: ['temp', 'folder_creator'] })
      await userCookie(svc(), 'r_temp2')
      await dbmOk(svc(), admin, 'grant_role', { uid: 'r_temp2', role: 'temp' })
      expect(await dbmOk(svc(), admin, 'drop_role', { role: 'temp' })).to.equal(true)
      expect((await dbmOk<View>(svc(), admin, 'get_user', { uid: 'r_temp1' })).roles).to.deep.equal(['folder_creator'])
      expect((await dbmOk<View>(svc(), admin, 'get_user', { uid: 'r_temp2' })).roles).to.deep.equal([])
      expect((await dbmOk<Table>(svc(), admin, 'list_roles')).role).not.to.include('temp')
    })

    it('never leaves a dropped role with a holder granted at the same moment', async () => {
      await userCookie(svc(), 'r_racer')
      for (let round = 0; round < 5; round++) {
        await dbmOk(svc(), admin, 'add_role', { role: `race${round}`, capabilities: [] })
        await Promise.all([dbm(svc(), admin, 'grant_role', { uid: 'r_racer', role: `race${round}` }), dbm(svc(), admin, 'drop_role', { role: `race${round}` })])
      }
      expect((await dbmOk<View>(svc(), admin, 'get_user', { uid: 'r_racer' })).roles).to.deep.equal([])
    })

    it('refuses to change or drop a built-in role', async () => {
      await refused(
        svc(),
        admin,
        'set_role',
        { role: 'user_admin', capabilities: ['admin'] },
        'forbidden',
        /^The built-in role "user_admin" cannot be changed or dropped/,
      )
      await refused(svc(), admin, 'drop_role', { role: 'admin' }, 'forbidden', /^The built-in role "admin" cannot be changed or dropped/)
    })

    it('refuses unknown capabilities, invalid or taken names and unknown roles', async () => {
      await refused(
        svc(),
        admin,
        'add_role',
        { role: 'odd', capabilities: ['fly', 'manage_users', 'swim'] },
        'invalid_parameter',
        /^Unknown capabilities in "capabilities": fly, swim; the capabilities are admin, manage_users/,
      )
      await refused(svc(), admin, 'add_role', { role: 'user_admin', capabilities: [] }, 'already_exists', /^The role "user_admin" already exists/)
      await refused(svc(), admin, 'add_role', { role: 'no way', capabilities: [] }, 'invalid_parameter', /^Invalid role name "no way"/)
      await refused(svc(), admin, 'set_role', { role: 'ghost', title: 'x' }, 'unknown_role', /^No such role "ghost"/)
      await refused(svc(), admin, 'drop_role', { role: 'ghost' }, 'unknown_role', /^No such role "ghost"/)
    })

    it('refuses anyone but an administrator', async () => {
      const boss = await userCookie(svc(), 'r_boss', { roles: ['user_admin'] })
      await refused(svc(), boss, 'add_role', { role: 'mine', capabilities: [] }, 'forbidden', /^Only an administrator may add roles/)
      await refused(svc(), boss, 'set_role', { role: 'auditor', title: 'x' }, 'forbidden', /^Only an administrator may change roles/)
      await refused(svc(), boss, 'drop_role', { role: 'auditor' }, 'forbidden', /^Only an administrator may drop roles/)
    })
  })

  describe('grant_role and revoke_role', () => {
    it('lets an administrator grant and revoke a role, effective at the next request', async () => {
      const cy = await userCookie(svc(), 'r_cy')
      expect(await managesUsers(svc(), cy)).to.equal(false)
      expect((await dbmOk<View>(svc(), admin, 'grant_role', { uid: 'r_cy', role: 'user_admin' })).roles).to.deep.equal(['user_admin'])
      expect(await managesUsers(svc(), cy)).to.equal(true)
      expect((await dbmOk<View>(svc(), admin, 'revoke_role', { uid: 'r_cy', role: 'user_admin' })).roles).to.deep.equal([])
      expect(await managesUsers(svc(), cy)).to.equal(false)
    })

    it('lets a company administrator grant roles made of capabilities they hold, within their company', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'rc', name: 'RC' })
      const boss = await userCookie(svc(), 'rc_boss', { company: 'rc' })
      await dbmOk(svc(), admin, 'set_company', { company: 'rc', admins: ['rc_boss'] })
      await userCookie(svc(), 'rc_worker', { company: 'rc' })
      expect((await dbmOk<View>(svc(), boss, 'grant_role', { uid: 'rc_worker', role: 'user_admin' })).roles).to.deep.equal(['user_admin'])
      await refused(
        svc(),
        boss,
        'grant_role',
        { uid: 'rc_worker', role: 'admin' },
        'forbidden',
        /^Not authorised to grant the role "admin": it gives capabilities you do not have \(admin\)/,
      )
      await refused(svc(), boss, 'grant_role', { uid: 'rc_worker', role: 'folder_creator' }, 'forbidden', /^Not authorised to grant the role "folder_creator"/)
      await refused(svc(), boss, 'grant_role', { uid: 'r_cy', role: 'user_admin' }, 'unknown_user', /^Invalid user identification "r_cy"/)
      expect(await dbmOk<View>(svc(), boss, 'revoke_role', { uid: 'rc_worker', role: 'user_admin' })).to.include({ uid: 'rc_worker' })
    })

    it('refuses plain users, unknown users and unknown roles', async () => {
      const dee = await userCookie(svc(), 'r_dee')
      await refused(svc(), dee, 'grant_role', { uid: 'r_dee', role: 'user_admin' }, 'forbidden', /^Not authorised to grant the role "user_admin"/)
      await refused(svc(), dee, 'grant_role', { uid: 'admin', role: 'user_admin' }, 'unknown_user', /^Invalid user identification "admin"/)
      await refused(svc(), admin, 'grant_role', { uid: 'nobody', role: 'user_admin' }, 'unknown_user', /^Invalid user identification "nobody"/)
      await refused(svc(), admin, 'grant_role', { uid: 'r_dee', role: 'wizard' }, 'unknown_role', /^No such role "wizard"/)
    })

    it('keeps the admin role on the last active administrator', async () => {
      await refused(
        svc(),
        admin,
        'revoke_role',
        { uid: 'admin', role: 'admin' },
        'limit_reached',
        /^Cannot revoke the role "admin" from "admin": no active administrator would be left/,
      )
      await userCookie(svc(), 'r_second')
      await dbmOk(svc(), admin, 'grant_role', { uid: 'r_second', role: 'admin' })
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'r_second' })
      // An inactive administrator does not count.
      await refused(svc(), admin, 'revoke_role', { uid: 'admin', role: 'admin' }, 'limit_reached', /no active administrator would be left/)
      await dbmOk(svc(), admin, 'activate_user', { uid: 'r_second' })
      expect((await dbmOk<View>(svc(), admin, 'revoke_role', { uid: 'r_second', role: 'admin' })).roles).to.deep.equal([])
    })

    it('clears the admin flag of records written before roles existed when the admin role is revoked', async () => {
      const { store } = svc().deps
      await userCookie(svc(), 'r_legacy')
      const raw = JSON.parse((await store.get(KEYS.user('r_legacy')))!) as UserRecord
      const { roles: _dropped, ...legacy } = { ...raw, admin: true }
      await store.set(KEYS.user('r_legacy'), JSON.stringify(legacy))
      expect((await dbmOk<View>(svc(), admin, 'get_user', { uid: 'r_legacy' })).roles).to.deep.equal(['admin'])
      await dbmOk(svc(), admin, 'revoke_role', { uid: 'r_legacy', role: 'admin' })
      expect(await managesUsers(svc(), await svc().login('r_legacy', 'r_legacy-pass-1'))).to.equal(false)
    })
  })
})
