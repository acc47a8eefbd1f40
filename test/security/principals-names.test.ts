/**
 * Issue 16, part 2: a principal's name must not outlive the principal. The finding: an
 * administrator shares a folder with a group, drops the group, and whoever then makes a group of
 * that name (with only themselves as member) reads the folder's tables and writes into it.
 *
 * For each kind of principal (group, user, company, role) the scenario is played over real HTTP
 * against a real gateway on loopback, on the memory store and on a real redis-server: grant →
 * drop → re-create by someone else (a non-administrator where the product lets one) → the new
 * principal's members can neither read nor write, and the object's permissions no longer name the
 * dropped principal.
 */
import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { dbm, dbmFails, dbmOk, refused, userCookie } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { KEYS } from '../../gateway/catalog/records.js'

type View = Record<string, unknown>
interface Permissions {
  owner: string
  users: string[]
  uploaders: string[]
  inherit: number
}

/** Status of a query on the table: 200 when the caller may read it, 404 when it is hidden. */
async function readStatus(svc: TestService, cookie: string, table: string): Promise<number> {
  const res = await svc.http
    .post('/v1/api/sql:json')
    .set('Cookie', cookie)
    .send({ sql: `select count(*) n from ${table}` })
  return res.status
}

/** Tries to write into the folder twice (a table, a sub-folder); returns the two answers. */
async function tryWrites(svc: TestService, cookie: string, folder: string, tag: string): Promise<{ table: number; dir: number }> {
  const table = await dbm(svc, cookie, 'upload_table', { path: `${folder}.loot_${tag}`, data: { x: [1, 2, 3] } })
  const dir = await dbm(svc, cookie, 'make_dir', { path: `${folder}.sub_${tag}` })
  return { table: table.rc, dir: dir.rc }
}

/**
 * A folder with a table in it, readable by nobody but the administrator; returns its path.
 * `salaries` inherits the folder's readers, as the payroll table of the finding did.
 */
async function payrollFolder(svc: TestService, admin: string, name: string): Promise<string> {
  await dbmOk(svc, admin, 'make_dir', { path: name, inherit: false, users: [], uploaders: [] })
  await dbmOk(svc, admin, 'upload_table', { path: `${name}.salaries`, data: { who: ['ann', 'ben'], pay: [5000, 6000] } })
  return name
}

const permissions = (svc: TestService, cookie: string, path: string): Promise<Permissions> => dbmOk<Permissions>(svc, cookie, 'get_permissions', { path })

forEachStore('security: principal names do not outlive their principal', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  describe('group', () => {
    it('a group re-created by another user after a drop gets nothing the dropped group had', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_g')
      const alice = await userCookie(svc(), 'g_alice')
      await dbmOk(svc(), admin, 'add_group', { group: 'finance', users: ['g_alice'] })
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['finance'], uploaders: ['finance'] })
      await dbmOk(svc(), admin, 'share', { path: `${folder}.salaries`, users: ['finance'], inherit: false })
      // The grant worked: a member reads and writes.
      expect(await readStatus(svc(), alice, `${folder}.salaries`)).to.equal(200)
      expect(await tryWrites(svc(), alice, folder, 'alice')).to.deep.equal({ table: 0, dir: 0 })

      await dbmOk(svc(), admin, 'drop_group', { group: 'finance' })
      // Dropping the group took it off every list, in the same change.
      const dirPerms = await permissions(svc(), admin, folder)
      expect(dirPerms.users).to.not.include('finance')
      expect(dirPerms.uploaders).to.not.include('finance')
      expect((await permissions(svc(), admin, `${folder}.salaries`)).users).to.not.include('finance')
      expect(await readStatus(svc(), alice, `${folder}.salaries`)).to.equal(404)

      // Anyone may make a group: mallory makes "finance" with only herself in it.
      const mallory = await userCookie(svc(), 'g_mallory')
      expect(await dbmOk<View>(svc(), mallory, 'add_group', { group: 'finance', users: ['g_mallory'] })).to.include({ group: 'finance', owner: 'g_mallory' })
      expect(await readStatus(svc(), mallory, `${folder}.salaries`)).to.equal(404)
      await dbmFails(svc(), mallory, 'get_dir_info', { path: folder }, /^No such directory "payroll_g"/)
      expect(await tryWrites(svc(), mallory, folder, 'mallory')).to.deep.equal({ table: 1, dir: 1 })
      expect(await readStatus(svc(), alice, `${folder}.salaries`)).to.equal(404)
      const after = await permissions(svc(), admin, folder)
      expect([...after.users, ...after.uploaders]).to.not.include('finance')
    })

    it('a group dropped while a member group lists it leaves no member entry for a namesake', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_nest')
      const bea = await userCookie(svc(), 'n_bea')
      await dbmOk(svc(), admin, 'add_group', { group: 'n_inner', users: ['n_bea'] })
      await dbmOk(svc(), admin, 'add_group', { group: 'n_outer', users: ['n_inner'] })
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['n_outer'] })
      expect(await readStatus(svc(), bea, `${folder}.salaries`)).to.equal(200)
      await dbmOk(svc(), admin, 'drop_group', { group: 'n_inner' })
      expect((await dbmOk<View>(svc(), admin, 'get_group', { group: 'n_outer' })).users).to.deep.equal([])
      const mel = await userCookie(svc(), 'n_mel')
      await dbmOk(svc(), mel, 'add_group', { group: 'n_inner', users: ['n_mel'] })
      expect(await readStatus(svc(), mel, `${folder}.salaries`)).to.equal(404)
    })

    it('a name an earlier release left behind in a list (the group dropped without cleanup) is taken out when the name is made again', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_old')
      // What releases before this fix left after drop_group: the folder still names a group that is gone.
      const { store } = svc().deps
      const raw = JSON.parse((await store.get(KEYS.dir(folder)))!) as Record<string, unknown>
      await store.set(KEYS.dir(folder), JSON.stringify({ ...raw, users: ['old_fin'], uploaders: ['old_fin'] }))
      expect((await permissions(svc(), admin, folder)).users).to.deep.equal(['old_fin'])
      // A stale name can always be taken off by hand, though it can no longer be given.
      await dbmFails(svc(), admin, 'share', { path: `${folder}.salaries`, users: ['old_fin'] }, /^Invalid user or group name in "users": old_fin\.$/)
      await dbmFails(svc(), admin, 'share', { path: `${folder}.salaries`, add: ['old_fin'] }, /^Invalid user or group name in "add": old_fin\.$/)
      expect(await dbmOk(svc(), admin, 'share', { path: `${folder}.salaries`, remove: ['old_fin'] })).to.deep.include({ users: [] })
      const mallory = await userCookie(svc(), 'o_mallory')
      await dbmOk(svc(), mallory, 'add_group', { group: 'old_fin', users: ['o_mallory'] })
      expect(await readStatus(svc(), mallory, `${folder}.salaries`)).to.equal(404)
      expect(await tryWrites(svc(), mallory, folder, 'mallory')).to.deep.equal({ table: 1, dir: 1 })
      const perms = await permissions(svc(), admin, folder)
      expect([...perms.users, ...perms.uploaders]).to.not.include('old_fin')
    })

    it('a stale member name in a group is purged when a user takes the name, on every gateway at once', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_mem')
      const pia = await userCookie(svc(), 'm_pia')
      await dbmOk(svc(), admin, 'add_group', { group: 'm_staff', users: ['m_pia'] })
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['m_staff'] })
      // An earlier release's leftover: the group still lists "m_ghost", a principal that is gone.
      const { store } = svc().deps
      const raw = JSON.parse((await store.get(KEYS.group('m_staff')))!) as Record<string, unknown>
      await store.batch([
        { op: 'set', key: KEYS.group('m_staff'), value: JSON.stringify({ ...raw, users: ['m_pia', 'm_ghost'] }) },
        { op: 'set', key: KEYS.groupsRev, value: 'leftover' },
      ])
      // Every gateway reads that membership now and caches it (one request per session, spread by the balancer).
      expect(await readStatus(svc(), pia, `${folder}.salaries`)).to.equal(200)
      expect(await readStatus(svc(), pia, `${folder}.salaries`)).to.equal(200)
      expect(await readStatus(svc(), pia, `${folder}.salaries`)).to.equal(200)
      const manager = await userCookie(svc(), 'm_manager', { roles: ['user_admin'] })
      await dbmOk(svc(), manager, 'add_user', { uid: 'm_ghost', first: 'M', last: 'Ghost', email: 'mg@example.com', password: 'm-ghost-pass-1' })
      expect((await dbmOk<View>(svc(), admin, 'get_group', { group: 'm_staff' })).users).to.deep.equal(['m_pia'])
      const ghost = await svc().login('m_ghost', 'm-ghost-pass-1')
      for (let i = 0; i < 3; i++) expect(await readStatus(svc(), ghost, `${folder}.salaries`), `request ${i + 1}`).to.equal(404)
      expect(await readStatus(svc(), pia, `${folder}.salaries`)).to.equal(200)
    })

    it('an upload naming a group that is dropped before its commit is refused, not saved with a stale reader', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_up')
      await userCookie(svc(), 'u_carl')
      await dbmOk(svc(), admin, 'add_group', { group: 'u_team', users: ['u_carl'] })
      // The reader list is checked at upload_begin; the group goes before the commit.
      const { upload: id } = await dbmOk<{ upload: string }>(svc(), admin, 'upload_begin', { path: `${folder}.report`, users: ['u_team'] })
      await dbmOk(svc(), admin, 'upload_chunk', { upload: id, data: { x: [1, 2] } })
      await dbmOk(svc(), admin, 'drop_group', { group: 'u_team' })
      const r = await dbmFails(svc(), admin, 'upload_commit', { upload: id }, /^Invalid user or group name in "users": u_team/)
      expect(r.code).to.equal('invalid_parameter')
      await dbmFails(svc(), admin, 'get_table_info', { path: `${folder}.report` }, /^No such table/)
      const nia = await userCookie(svc(), 'u_nia')
      await dbmOk(svc(), nia, 'add_group', { group: 'u_team', users: ['u_nia'] })
      expect(await readStatus(svc(), nia, `${folder}.report`)).to.equal(404)
    })

    it('grants racing with the drop never leave the dropped name in a list', async function () {
      this.timeout(60_000)
      const folder = await payrollFolder(svc(), admin, 'payroll_race')
      await userCookie(svc(), 'r_dan')
      const names = ['r_t1', 'r_t2', 'r_t3']
      for (const t of names) await dbmOk(svc(), admin, 'upload_table', { path: `${folder}.${t}`, data: { x: [1] } })
      const post = (cmd: string, params: Record<string, unknown>) =>
        svc()
          .http.post('/v1/api/dbm:json')
          .set('Cookie', admin)
          .send({ cmd: [cmd, params] })
      // Bounded: ten rounds of one drop against grants of the same name on three tables and the folder.
      for (let round = 0; round < 10; round++) {
        await dbmOk(svc(), admin, 'add_group', { group: 'r_crew', users: ['r_dan'] })
        const replies = await Promise.all([
          ...names.map((t) => post('share', { path: `${folder}.${t}`, add: ['r_crew'] })),
          post('set_dir_info', { path: folder, uploaders: ['r_crew'] }),
          post('drop_group', { group: 'r_crew' }),
        ])
        for (const r of replies) {
          expect(r.status, r.text).to.equal(200)
          // A grant that lost the race is a clear refusal naming the group, never a server error.
          if (r.body.rc !== 0) expect(r.body.msg, r.text).to.match(/Invalid user or group name in "(add|uploaders)": r_crew|No such group "r_crew"/)
        }
        for (const t of names) expect((await permissions(svc(), admin, `${folder}.${t}`)).users, `round ${round}`).to.not.include('r_crew')
        expect((await permissions(svc(), admin, folder)).uploaders, `round ${round}`).to.not.include('r_crew')
      }
    })
  })

  describe('user', () => {
    it("a dropped group's name given to a new user (by a non-admin user manager) carries no grant", async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_u')
      await userCookie(svc(), 'x_ed')
      await dbmOk(svc(), admin, 'add_group', { group: 'auditors', users: ['x_ed'] })
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['auditors'], uploaders: ['auditors'] })
      await dbmOk(svc(), admin, 'drop_group', { group: 'auditors' })
      // Users and groups share one namespace: a user manager (not an administrator) takes the name.
      const manager = await userCookie(svc(), 'x_manager', { roles: ['user_admin'] })
      await dbmOk(svc(), manager, 'add_user', { uid: 'auditors', first: 'Au', last: 'Ditor', email: 'auditors@example.com', password: 'auditors-pass-1' })
      const newcomer = await svc().login('auditors', 'auditors-pass-1')
      expect(await readStatus(svc(), newcomer, `${folder}.salaries`)).to.equal(404)
      expect(await tryWrites(svc(), newcomer, folder, 'newcomer')).to.deep.equal({ table: 1, dir: 1 })
      const perms = await permissions(svc(), admin, folder)
      expect([...perms.users, ...perms.uploaders]).to.not.include('auditors')
    })

    it('a user is deactivated, never dropped: the uid cannot be taken again, as a user or a group, and the old session is gone', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_d')
      const bob = await userCookie(svc(), 'd_bob')
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['d_bob'], uploaders: ['d_bob'] })
      expect(await readStatus(svc(), bob, `${folder}.salaries`)).to.equal(200)
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'd_bob' })
      expect(await readStatus(svc(), bob, `${folder}.salaries`)).to.equal(403)
      const manager = await userCookie(svc(), 'd_manager', { roles: ['user_admin'] })
      await refused(
        svc(),
        manager,
        'add_user',
        { uid: 'd_bob', first: 'New', last: 'Bob', email: 'nb@example.com', password: 'new-bob-pass-1' },
        'already_exists',
        /^User id "d_bob" already in use/,
      )
      const mallory = await userCookie(svc(), 'd_mallory')
      await refused(svc(), mallory, 'add_group', { group: 'd_bob', users: ['d_mallory'] }, 'already_exists', /already in use by a user/)
      const login = await svc().http.post('/v1/api/!login:json').type('form').send({ uid: 'd_bob', pw: 'd_bob-pass-1' })
      expect(login.status).to.equal(401)
    })
  })

  describe('company', () => {
    it('a company is dropped only after its groups, so a re-created company id inherits no group and no grant', async () => {
      const folder = await payrollFolder(svc(), admin, 'payroll_c')
      await dbmOk(svc(), admin, 'add_company', { company: 'acme', name: 'Acme' })
      const boss = await userCookie(svc(), 'acme_boss', { company: 'acme' })
      await dbmOk(svc(), admin, 'set_company', { company: 'acme', admins: ['acme_boss'] })
      await dbmOk(svc(), boss, 'add_group', { group: 'acme_fin', users: ['acme_boss'] })
      await dbmOk(svc(), admin, 'set_dir_info', { path: folder, users: ['acme_fin'], uploaders: ['acme_fin'] })
      expect(await readStatus(svc(), boss, `${folder}.salaries`)).to.equal(200)
      // The company's last user moves away; its group stays behind.
      await dbmOk(svc(), admin, 'set_user', { uid: 'acme_boss', company: 'main' })
      await refused(
        svc(),
        admin,
        'drop_company',
        { company: 'acme' },
        'invalid_parameter',
        /^Cannot drop the company "acme": 1 group \(acme_fin\) still belongs to the company "acme"; drop it with drop_group first\.$/,
      )
      await dbmOk(svc(), admin, 'drop_group', { group: 'acme_fin' })
      expect(await dbmOk(svc(), admin, 'drop_company', { company: 'acme' })).to.equal(true)

      // A new company of the same id, administered by someone else, who is not an administrator.
      await dbmOk(svc(), admin, 'add_company', { company: 'acme', name: 'Acme Again' })
      const eve = await userCookie(svc(), 'acme_eve', { company: 'acme' })
      await dbmOk(svc(), admin, 'set_company', { company: 'acme', admins: ['acme_eve'] })
      await dbmFails(svc(), eve, 'get_group', { group: 'acme_fin' }, /^No such group "acme_fin"/)
      expect(await dbmOk<View>(svc(), eve, 'add_group', { group: 'acme_fin', users: ['acme_eve'] })).to.include({ company: 'acme', owner: 'acme_eve' })
      expect(await readStatus(svc(), eve, `${folder}.salaries`)).to.equal(404)
      expect(await tryWrites(svc(), eve, folder, 'eve')).to.deep.equal({ table: 1, dir: 1 })
      const perms = await permissions(svc(), admin, folder)
      expect([...perms.users, ...perms.uploaders]).to.not.include('acme_fin')
    })

    it('a company id whose groups an earlier release left behind cannot be added again until they are dropped', async () => {
      const { store } = svc().deps
      const now = new Date().toISOString()
      // What drop_company used to leave: a group of the company "gone_co", which no longer exists.
      const group = { group: 'gone_co_fin', owner: 'admin', company: 'gone_co', users: [], title: 'x', description: '', created: now, updated: now }
      await store.batch([
        { op: 'set', key: KEYS.group('gone_co_fin'), value: JSON.stringify(group) },
        { op: 'sadd', key: KEYS.allGroups, members: ['gone_co_fin'] },
        { op: 'set', key: KEYS.groupsRev, value: 'leftover-co' },
      ])
      await refused(
        svc(),
        admin,
        'add_company',
        { company: 'gone_co', name: 'Gone' },
        'invalid_parameter',
        /^Cannot add the company "gone_co": 1 group \(gone_co_fin\) still belongs to the company "gone_co"; drop it with drop_group first\.$/,
      )
      await dbmOk(svc(), admin, 'drop_group', { group: 'gone_co_fin' })
      expect(await dbmOk<View>(svc(), admin, 'add_company', { company: 'gone_co', name: 'Gone' })).to.include({ company: 'gone_co' })
    })
  })

  describe('role', () => {
    it('a role re-created after a drop is not held by the users the dropped role was granted to', async () => {
      await dbmOk(svc(), admin, 'add_role', { role: 'top_maker', capabilities: ['create_top_folders'] })
      const carol = await userCookie(svc(), 'r_carol')
      await dbmOk(svc(), admin, 'grant_role', { uid: 'r_carol', role: 'top_maker' })
      await dbmOk(svc(), carol, 'make_dir', { path: 'carol_top' })
      await dbmOk(svc(), admin, 'drop_role', { role: 'top_maker' })
      expect((await dbmOk<View>(svc(), admin, 'get_user', { uid: 'r_carol' })).roles).to.deep.equal([])
      await dbmOk(svc(), admin, 'add_role', { role: 'top_maker', capabilities: ['create_top_folders', 'manage_users'] })
      expect((await dbmOk<View>(svc(), carol, 'get_user', {})).roles).to.deep.equal([])
      await dbmFails(svc(), carol, 'make_dir', { path: 'carol_top2' }, /no permission to create top-level folders/)
      await dbmFails(svc(), carol, 'list_users', {}, /Not authorised to list users/)
    })
  })
})
