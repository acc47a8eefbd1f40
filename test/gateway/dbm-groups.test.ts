import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { companyWithAdmin, dbm, dbmFails, dbmOk, refused, userCookie } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { writeTableVersion } from '../../engine/storage/index.js'
import { KEYS } from '../../gateway/catalog/records.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'

type View = Record<string, unknown>
type Table = Record<string, unknown[]>

const groupsRev = (svc: TestService): Promise<string | null> => svc.deps.store.get(KEYS.groupsRev)

forEachStore('dbm groups', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  describe('add_group', () => {
    it('creates a group the caller owns, with members, and tells every gateway groups changed', async () => {
      const gwen = await userCookie(svc(), 'gwen')
      await userCookie(svc(), 'gwen_pal')
      const rev = await groupsRev(svc())
      const view = await dbmOk<View>(svc(), gwen, 'add_group', { group: 'gwen_team', users: 'gwen gwen_pal', title: 'Team', description: 'Gwen and a pal' })
      expect(view).to.include({ group: 'gwen_team', owner: 'gwen', company: 'main', title: 'Team', description: 'Gwen and a pal' })
      expect(view.users).to.deep.equal(['gwen', 'gwen_pal'])
      expect(await groupsRev(svc()))
        .to.be.a('string')
        .and.not.equal(rev)
      expect(await dbmOk<View>(svc(), gwen, 'get_group', { group: 'gwen_team' })).to.deep.equal(view)
    })

    it("prefixes the id with the owner's uid or company", async () => {
      const hugo = await userCookie(svc(), 'hugo')
      expect(await dbmOk<View>(svc(), hugo, 'add_group', { group: 'crew', prefix: 'uid' })).to.include({ group: 'hugo_crew' })
      expect(await dbmOk<View>(svc(), hugo, 'add_group', { group: 'crew', prefix: 'company' })).to.include({ group: 'main_crew', owner: 'hugo' })
    })

    it('lets a group manager make a group for another owner of their company, and nobody else', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'ag')
      await userCookie(svc(), 'ag_worker', { company: 'ag' })
      expect(await dbmOk<View>(svc(), boss, 'add_group', { group: 'ag_workers', owner: 'ag_worker' })).to.include({ owner: 'ag_worker', company: 'ag' })
      await refused(svc(), boss, 'add_group', { group: 'ag_x', owner: 'admin' }, 'unknown_user', /^Invalid user identification "admin"/)
      const plain = await userCookie(svc(), 'ag_plain', { company: 'ag' })
      await refused(
        svc(),
        plain,
        'add_group',
        { group: 'ag_y', owner: 'ag_worker' },
        'forbidden',
        /Only group managers \(manage_groups\) may make a group for another owner/,
      )
    })

    it('refuses an id taken by a group or a user, and invalid characters', async () => {
      const ida = await userCookie(svc(), 'ida')
      await dbmOk(svc(), ida, 'add_group', { group: 'ida_only' })
      await refused(svc(), ida, 'add_group', { group: 'ida_only' }, 'already_exists', /^Group id "ida_only" already exists/)
      await refused(svc(), ida, 'add_group', { group: 'admin' }, 'already_exists', /^Group id "admin" already in use by a user/)
      await refused(svc(), ida, 'add_group', { group: 'bad-name' }, 'invalid_parameter', /^Invalid characters in group id "bad-name"/)
    })

    it('refuses members that do not exist, belong to another company, or are the group itself', async () => {
      const jon = await userCookie(svc(), 'jon')
      await dbmOk(svc(), admin, 'add_company', { company: 'elsewhere', name: 'Elsewhere' })
      await userCookie(svc(), 'far_away', { company: 'elsewhere' })
      await refused(
        svc(),
        jon,
        'add_group',
        { group: 'jon_g', users: ['jon', 'ghost', 'far_away'] },
        'invalid_parameter',
        /^Invalid members in "users": ghost, far_away; .*company "main"/,
      )
      await refused(svc(), jon, 'add_group', { group: 'jon_g', users: ['jon_g'] }, 'invalid_parameter', /cannot be a member of itself/)
      await refused(
        svc(),
        admin,
        'add_group',
        { group: 'jon_g', users: ['ghost'] },
        'invalid_parameter',
        /^Invalid member in "users": ghost; members must be existing users or groups\.$/,
      )
    })

    it('lets an administrator build a group across companies', async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'partner', name: 'Partner' })
      await userCookie(svc(), 'partner_pat', { company: 'partner' })
      await userCookie(svc(), 'home_hank')
      const view = await dbmOk<View>(svc(), admin, 'add_group', { group: 'joint', users: ['partner_pat', 'home_hank'] })
      expect(view).to.include({ company: 'main' })
      expect(view.users).to.deep.equal(['partner_pat', 'home_hank'])
    })
  })

  describe('get_group and list_groups', () => {
    before(async () => {
      await userCookie(svc(), 'vis_owner')
      await userCookie(svc(), 'vis_direct')
      await userCookie(svc(), 'vis_nested')
      await userCookie(svc(), 'vis_outsider')
      const owner = await svc().login('vis_owner', 'vis_owner-pass-1')
      await dbmOk(svc(), owner, 'add_group', { group: 'vis_inner', users: ['vis_nested'] })
      await dbmOk(svc(), owner, 'add_group', { group: 'vis_outer', users: ['vis_direct', 'vis_inner'] })
    })

    it('shows a group to its owner, direct and nested members, and administrators', async () => {
      for (const uid of ['vis_owner', 'vis_direct', 'vis_nested']) {
        const cookie = await svc().login(uid, `${uid}-pass-1`)
        expect(await dbmOk<View>(svc(), cookie, 'get_group', { group: 'vis_outer' }), uid).to.include({ group: 'vis_outer', owner: 'vis_owner' })
      }
      expect(await dbmOk<View>(svc(), admin, 'get_group', { group: 'vis_outer' })).to.include({ group: 'vis_outer' })
    })

    it('answers a group the caller may not see exactly like a missing one', async () => {
      const outsider = await svc().login('vis_outsider', 'vis_outsider-pass-1')
      const hidden = await dbm(svc(), outsider, 'get_group', { group: 'vis_outer' })
      const missing = await dbm(svc(), outsider, 'get_group', { group: 'vis_nothing' })
      expect(hidden.code).to.equal('unknown_group').and.to.equal(missing.code)
      expect(hidden.msg!.replace('vis_outer', 'X')).to.equal(missing.msg!.replace('vis_nothing', 'X'))
    })

    it('lists the groups a user owns or belongs to, column-major, optionally by owner', async () => {
      const nested = await svc().login('vis_nested', 'vis_nested-pass-1')
      const mine = await dbmOk<Table>(svc(), nested, 'list_groups')
      expect(mine).to.have.keys('group', 'owner', 'company', 'users', 'title', 'description', 'created', 'updated')
      expect(mine.group).to.deep.equal(['vis_inner', 'vis_outer'])
      expect((await dbmOk<Table>(svc(), await svc().login('vis_outsider', 'vis_outsider-pass-1'), 'list_groups')).group).to.deep.equal([])
      const all = await dbmOk<Table>(svc(), admin, 'list_groups', { owner: 'vis_owner' })
      expect(all.group).to.deep.equal(['vis_inner', 'vis_outer'])
    })

    it('shows a company group manager every group of their company', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'lg')
      await userCookie(svc(), 'lg_someone', { company: 'lg' })
      const someone = await svc().login('lg_someone', 'lg_someone-pass-1')
      await dbmOk(svc(), someone, 'add_group', { group: 'lg_private' })
      expect((await dbmOk<Table>(svc(), boss, 'list_groups')).group).to.deep.equal(['lg_private'])
      expect(await dbmOk<View>(svc(), boss, 'get_group', { group: 'lg_private' })).to.include({ owner: 'lg_someone' })
    })
  })

  describe('set_group', () => {
    it('adds, removes and replaces members and changes the title', async () => {
      const kai = await userCookie(svc(), 'kai')
      for (const uid of ['kai_a', 'kai_b', 'kai_c']) await userCookie(svc(), uid)
      await dbmOk(svc(), kai, 'add_group', { group: 'kai_g', users: ['kai_a'] })
      const rev = await groupsRev(svc())
      const added = await dbmOk<View>(svc(), kai, 'set_group', { group: 'kai_g', add: ['kai_b', 'kai_c'], remove: ['kai_a'], title: 'Renamed' })
      expect(added).to.include({ title: 'Renamed' })
      expect(added.users).to.deep.equal(['kai_b', 'kai_c'])
      expect(await groupsRev(svc())).not.to.equal(rev)
      await dbmOk(svc(), kai, 'set_group', { group: 'kai_g', users: ['kai_a'] })
      expect((await dbmOk<View>(svc(), kai, 'get_group', { group: 'kai_g' })).users).to.deep.equal(['kai_a'])
    })

    it('hands the group to a new owner, after which the old owner may no longer change it', async () => {
      const lin = await userCookie(svc(), 'lin')
      await userCookie(svc(), 'lin_heir')
      await dbmOk(svc(), lin, 'add_group', { group: 'lin_g', users: ['lin'] })
      expect(await dbmOk<View>(svc(), lin, 'set_group', { group: 'lin_g', owner: 'lin_heir' })).to.include({ owner: 'lin_heir' })
      await refused(
        svc(),
        lin,
        'set_group',
        { group: 'lin_g', title: 'Mine again' },
        'forbidden',
        /^You do not own the specified group "lin_g": only its owner \(lin_heir\)/,
      )
    })

    it('lets a company group manager change any group of the company', async () => {
      const boss = await companyWithAdmin(svc(), admin, 'sg')
      await userCookie(svc(), 'sg_owner', { company: 'sg' })
      await dbmOk(svc(), await svc().login('sg_owner', 'sg_owner-pass-1'), 'add_group', { group: 'sg_g' })
      expect((await dbmOk<View>(svc(), boss, 'set_group', { group: 'sg_g', add: ['sg_boss'] })).users).to.deep.equal(['sg_boss'])
    })

    it('refuses members, outsiders, bad members and owners, and renaming', async () => {
      const mia = await userCookie(svc(), 'mia')
      const member = await userCookie(svc(), 'mia_member')
      const outsider = await userCookie(svc(), 'mia_outsider')
      await dbmOk(svc(), admin, 'add_company', { company: 'miaco', name: 'Other' })
      await userCookie(svc(), 'mia_far', { company: 'miaco' })
      await dbmOk(svc(), mia, 'add_group', { group: 'mia_g', users: ['mia_member'] })
      await refused(svc(), member, 'set_group', { group: 'mia_g', add: ['mia_outsider'] }, 'forbidden', /^You do not own the specified group "mia_g"/)
      await refused(svc(), outsider, 'set_group', { group: 'mia_g', add: ['mia_outsider'] }, 'unknown_group', /^No such group "mia_g"/)
      await refused(svc(), mia, 'set_group', { group: 'mia_g', add: ['mia_far'] }, 'invalid_parameter', /^Invalid member in "add": mia_far/)
      await refused(svc(), mia, 'set_group', { group: 'mia_g', add: ['mia_g'] }, 'invalid_parameter', /cannot be a member of itself/)
      await refused(svc(), mia, 'set_group', { group: 'mia_g', owner: 'mia_far' }, 'invalid_parameter', /^Invalid owner "mia_far"/)
      await refused(svc(), mia, 'set_group', { group: 'mia_g', name: 'mia_h' }, 'invalid_parameter', /has no parameter "name"/)
    })
  })

  describe('drop_group', () => {
    it('drops the group and takes it out of other groups in the same change', async () => {
      const ned = await userCookie(svc(), 'nedd')
      await dbmOk(svc(), ned, 'add_group', { group: 'nedd_in' })
      await dbmOk(svc(), ned, 'add_group', { group: 'nedd_out', users: ['nedd', 'nedd_in'] })
      expect(await dbmOk(svc(), ned, 'drop_group', { group: 'nedd_in' })).to.equal(true)
      expect((await dbmOk<View>(svc(), ned, 'get_group', { group: 'nedd_out' })).users).to.deep.equal(['nedd'])
      await dbmFails(svc(), ned, 'get_group', { group: 'nedd_in' }, /^No such group "nedd_in"/)
      expect((await dbmOk<Table>(svc(), ned, 'list_groups')).group).to.deep.equal(['nedd_out'])
    })

    it('never leaves a dropped group listed in another group, however the changes interleave', async () => {
      const pia = await userCookie(svc(), 'pia')
      await dbmOk(svc(), pia, 'add_group', { group: 'pia_outer' })
      for (let round = 0; round < 5; round++) {
        await dbmOk(svc(), pia, 'add_group', { group: `pia_in${round}` })
        await Promise.all([
          dbm(svc(), pia, 'set_group', { group: 'pia_outer', add: [`pia_in${round}`] }),
          dbm(svc(), pia, 'drop_group', { group: `pia_in${round}` }),
        ])
      }
      expect((await dbmOk<View>(svc(), pia, 'get_group', { group: 'pia_outer' })).users).to.deep.equal([])
    })

    it('refuses members who do not own it and hides it from outsiders', async () => {
      const ola = await userCookie(svc(), 'ola')
      const member = await userCookie(svc(), 'ola_member')
      const outsider = await userCookie(svc(), 'ola_outsider')
      await dbmOk(svc(), ola, 'add_group', { group: 'ola_g', users: ['ola_member'] })
      await refused(svc(), member, 'drop_group', { group: 'ola_g' }, 'forbidden', /^You do not own the specified group "ola_g"/)
      await refused(svc(), outsider, 'drop_group', { group: 'ola_g' }, 'unknown_group', /^No such group "ola_g"/)
    })
  })

  describe('nested groups and table access', () => {
    it('gives a member of an inner group read access to a table shared with the outer group, until the inner group is dropped', async () => {
      const { store, config } = svc().deps
      const reader = await userCookie(svc(), 'nest_reader')
      await dbmOk(svc(), admin, 'add_group', { group: 'nest_inner', users: ['nest_reader'] })
      await dbmOk(svc(), admin, 'add_group', { group: 'nest_outer' })
      await ensureDir(store, { path: 'nestshare', owner: 'admin', users: ['nest_outer'], inherit: false })
      const meta = await writeTableVersion(config.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([4, 5, 6])] })
      await commitTable(store, { path: 'nestshare.t', owner: 'admin' }, meta)
      const query = () => svc().http.post('/v1/api/sql:json').set('Cookie', reader).send({ sql: 'select sum(x) s from nestshare.t' })

      expect((await query()).status).to.equal(404)
      await dbmOk(svc(), admin, 'set_group', { group: 'nest_outer', add: ['nest_inner'] })
      const granted = await query()
      expect(granted.status, granted.text).to.equal(200)
      expect(granted.body).to.deep.equal({ s: [15] })
      await dbmOk(svc(), admin, 'drop_group', { group: 'nest_inner' })
      expect((await query()).status).to.equal(404)
      expect((await dbmOk<View>(svc(), admin, 'get_group', { group: 'nest_outer' })).users).to.deep.equal([])
    })

    it('refuses a member of group B a table shared only with group A, while a member of A reads it (issue 37)', async () => {
      // A mutation that let any member of any group pass any share list was caught only by the
      // nested-groups case above: here the two groups are unrelated.
      const { store, config } = svc().deps
      const inA = await userCookie(svc(), 'share_a_member')
      const inB = await userCookie(svc(), 'share_b_member')
      await dbmOk(svc(), admin, 'add_group', { group: 'share_ga', users: ['share_a_member'] })
      await dbmOk(svc(), admin, 'add_group', { group: 'share_gb', users: ['share_b_member'] })
      await ensureDir(store, { path: 'onlya', owner: 'admin', users: ['share_ga'], inherit: false })
      const meta = await writeTableVersion(config.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([1, 2])] })
      await commitTable(store, { path: 'onlya.t', owner: 'admin' }, meta)
      const query = (cookie: string) => svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select sum(x) s from onlya.t' })
      const a = await query(inA)
      expect(a.status, a.text).to.equal(200)
      expect(a.body).to.deep.equal({ s: [3] })
      const b = await query(inB)
      expect(b.status, b.text).to.equal(404)
      expect((await svc().http.get('/v1/api/onlya.t:json').set('Cookie', inB)).status).to.equal(404)
    })
  })
})
