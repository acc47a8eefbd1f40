import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { dbm, dbmFails, dbmOk, refused, userCookie } from '../helpers/dbm.js'

type View = Record<string, unknown>
type Table = Record<string, unknown[]>

forEachStore('dbm companies', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  describe('add_company', () => {
    it('creates a company with its details, visible through get_company', async () => {
      const view = await dbmOk<View>(svc(), admin, 'add_company', {
        company: 'acme',
        name: 'Acme Corp.',
        max_ids: 10,
        email: 'info@acme.example',
        phone: '555-0100',
        street: '1 Road',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
      })
      expect(view).to.include({ company: 'acme', name: 'Acme Corp.', max_ids: 10, city: 'Springfield', created_by: 'admin', active_users: 0 })
      expect(view.users).to.deep.equal([])
      expect(await dbmOk<View>(svc(), admin, 'get_company', { company: 'acme' })).to.deep.equal(view)
    })

    it('refuses an existing id, an invalid id, unknown administrators, a negative limit and a bad address', async () => {
      await refused(svc(), admin, 'add_company', { company: 'main', name: 'Again' }, 'already_exists', /^The company "main" already exists/)
      await refused(svc(), admin, 'add_company', { company: '1st', name: 'X' }, 'invalid_parameter', /^Invalid company id "1st"/)
      await refused(
        svc(),
        admin,
        'add_company',
        { company: 'newco', name: 'X', admins: ['ghost'] },
        'invalid_parameter',
        /Invalid user identification in "admins": ghost/,
      )
      await refused(svc(), admin, 'add_company', { company: 'newco', name: 'X', max_ids: -1 }, 'invalid_parameter', /"max_ids" must be 0 \(no limit\) or more/)
      await refused(svc(), admin, 'add_company', { company: 'newco', name: 'X', email: 'nope' }, 'invalid_parameter', /Invalid e-mail address "nope"/)
      await refused(svc(), admin, 'add_company', { company: 'newco' }, 'missing_parameter', /needs the parameter "name"/)
    })

    it('refuses anyone but an administrator', async () => {
      const bob = await userCookie(svc(), 'bob')
      await refused(svc(), bob, 'add_company', { company: 'bobco', name: 'Bob Co.' }, 'forbidden', /^Only an administrator may add companies/)
    })
  })

  describe('get_company and list_companies', () => {
    before(async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'vis', name: 'Visible' })
      await userCookie(svc(), 'vis_one', { company: 'vis' })
      await userCookie(svc(), 'vis_two', { company: 'vis' })
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'vis_two' })
    })

    it('shows users their own company by default, with its user ids and active user count', async () => {
      const one = await svc().login('vis_one', 'vis_one-pass-1')
      const view = await dbmOk<View>(svc(), one, 'get_company')
      expect(view).to.include({ company: 'vis', name: 'Visible', active_users: 1 })
      expect(view.users).to.deep.equal(['vis_one', 'vis_two'])
    })

    it('answers another company exactly like a missing one, except to administrators', async () => {
      const one = await svc().login('vis_one', 'vis_one-pass-1')
      const hidden = await dbm(svc(), one, 'get_company', { company: 'main' })
      const missing = await dbm(svc(), one, 'get_company', { company: 'nowhere' })
      expect(hidden.code).to.equal('unknown_company').and.to.equal(missing.code)
      expect(hidden.msg!.replace('main', 'X')).to.equal(missing.msg!.replace('nowhere', 'X'))
      expect(await dbmOk<View>(svc(), admin, 'get_company', { company: 'vis' })).to.include({ company: 'vis' })
    })

    it('lists every company to administrators and only their own to others', async () => {
      const all = await dbmOk<Table>(svc(), admin, 'list_companies')
      expect(all.company).to.include.members(['main', 'vis'])
      expect(all).to.include.keys('name', 'admins', 'max_ids', 'active_users')
      const own = await dbmOk<Table>(svc(), await svc().login('vis_one', 'vis_one-pass-1'), 'list_companies')
      expect(own.company).to.deep.equal(['vis'])
      expect(own.active_users).to.deep.equal([1])
    })
  })

  describe('set_company', () => {
    it('lets a company administrator change its details', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'edit', name: 'Before' })
      const boss = await userCookie(svc(), 'edit_boss', { company: 'edit' })
      await dbmOk(svc(), admin, 'set_company', { company: 'edit', admins: ['edit_boss'] })
      const view = await dbmOk<View>(svc(), boss, 'set_company', { company: 'edit', name: 'After', max_ids: 5, phone: '555-0199' })
      expect(view).to.include({ name: 'After', max_ids: 5, phone: '555-0199', updated_by: 'edit_boss' })
      expect(await dbmOk<View>(svc(), boss, 'get_company')).to.include({ name: 'After' })
    })

    it("gives the company's user management to the administrators an administrator names", async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'grant', name: 'Grant' })
      const chief = await userCookie(svc(), 'grant_chief', { company: 'grant' })
      await dbmFails(svc(), chief, 'list_users', {}, /^Not authorised to list users/)
      expect((await dbmOk<View>(svc(), admin, 'set_company', { company: 'grant', admins: ['grant_chief'] })).admins).to.deep.equal(['grant_chief'])
      expect((await dbmOk<Table>(svc(), chief, 'list_users')).uid).to.deep.equal(['grant_chief'])
    })

    it('refuses plain members, outsiders, administrator changes by non-administrators and bad values', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'locked', name: 'Locked' })
      const member = await userCookie(svc(), 'locked_member', { company: 'locked' })
      const boss = await userCookie(svc(), 'locked_boss', { company: 'locked' })
      await dbmOk(svc(), admin, 'set_company', { company: 'locked', admins: ['locked_boss'] })
      const outsider = await userCookie(svc(), 'locked_out')
      await refused(svc(), member, 'set_company', { company: 'locked', name: 'Mine' }, 'forbidden', /^Not a company admin: only administrators of "locked"/)
      await refused(svc(), outsider, 'set_company', { company: 'locked', name: 'Mine' }, 'unknown_company', /^No such company "locked"/)
      await refused(
        svc(),
        boss,
        'set_company',
        { company: 'locked', admins: ['locked_member'] },
        'forbidden',
        /^Only an administrator may change who administers a company/,
      )
      await refused(svc(), boss, 'set_company', { company: 'locked', name: ' ' }, 'invalid_parameter', /"name" cannot be empty/)
      await refused(
        svc(),
        admin,
        'set_company',
        { company: 'locked', admins: ['ghost'] },
        'invalid_parameter',
        /Invalid user identification in "admins": ghost/,
      )
      await refused(svc(), admin, 'set_company', { company: 'ghostco', name: 'X' }, 'unknown_company', /^No such company "ghostco"/)
    })
  })

  describe('drop_company', () => {
    it('drops a company once its users have moved elsewhere', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'gone', name: 'Gone' })
      await userCookie(svc(), 'gone_last', { company: 'gone' })
      await refused(svc(), admin, 'drop_company', { company: 'gone' }, 'invalid_parameter', /^The company "gone" still has 1 user \(gone_last\); move them/)
      await dbmOk(svc(), admin, 'set_user', { uid: 'gone_last', company: 'main' })
      expect(await dbmOk(svc(), admin, 'drop_company', { company: 'gone' })).to.equal(true)
      expect((await dbmOk<Table>(svc(), admin, 'list_companies')).company).not.to.include('gone')
      await dbmFails(svc(), admin, 'get_company', { company: 'gone' }, /^No such company "gone"/)
    })

    it('never drops a company while a user is being added to it', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'race', name: 'Race' })
      const [added, dropped] = await Promise.all([
        dbm(svc(), admin, 'add_user', { uid: 'race_user', first: 'R', last: 'U', email: 'r@example.com', company: 'race' }),
        dbm(svc(), admin, 'drop_company', { company: 'race' }),
      ])
      const company = await dbm(svc(), admin, 'get_company', { company: 'race' })
      if (added.rc === 0) {
        expect(dropped.rc).to.equal(1)
        expect(company.rc).to.equal(0)
      } else {
        expect(dropped.rc).to.equal(0)
        expect(added.msg).to.match(/No such company "race"/)
      }
    })

    it('refuses anyone but an administrator, and unknown companies', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'kept', name: 'Kept' })
      const bob = await userCookie(svc(), 'drop_bob')
      await refused(svc(), bob, 'drop_company', { company: 'kept' }, 'forbidden', /^Only an administrator may drop companies/)
      await refused(svc(), admin, 'drop_company', { company: 'nowhere' }, 'unknown_company', /^No such company "nowhere"/)
    })
  })
})
