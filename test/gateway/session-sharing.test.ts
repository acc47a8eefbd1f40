/**
 * Two gateways on one Store: a session or a permission changed through one counts on the other at
 * its very next request, although the other has just served the same user from its memos
 * (parsed session and user records, principals, rendered answers; see gateway/auth and
 * gateway/cache). Each case first serves the user on the second gateway three times: the first
 * request learns which records the user's principal depends on, the second reads them all in
 * one round trip and remembers the principal, the third is served from that memo.
 */
import { expect } from 'chai'
import { writeTableVersion } from '../../engine/storage/index.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { dbm, dbmOk, userCookie } from '../helpers/dbm.js'
import { startSecondGateway, type SecondGateway } from '../helpers/second-gateway.js'
import { forEachStore } from '../helpers/suites.js'

const SQL = { sql: 'select 1 as one' }

forEachStore(
  'sessions and permissions shared by two gateways',
  (svc) => {
    let b: SecondGateway
    let admin: string
    before(async () => {
      b = await startSecondGateway(svc().deps)
      admin = await svc().login()
    })
    after(() => b.close())

    const onB = (cookie: string) => b.http.post('/v1/api/sql:json').set('Cookie', cookie).send(SQL)
    const managesUsersOnB = async (cookie: string) =>
      (
        await b.http
          .post('/v1/api/dbm:json')
          .set('Cookie', cookie)
          .send({ cmd: ['list_users', {}] })
      ).body.rc === 0
    const WARM = 3

    it('refuses a session on the other gateway at once after it logged out', async () => {
      const cookie = await userCookie(svc(), 'share_out')
      for (let i = 0; i < WARM; i++) expect((await onB(cookie)).status).to.equal(200)
      expect((await svc().http.post('/v1/api/!logout:json').set('Cookie', cookie)).status).to.equal(200)
      const res = await onB(cookie)
      expect(res.status).to.equal(403)
      expect(res.body.code).to.equal('no_session')
    })

    it("refuses the other tokens of a session at once after a password change kept only the caller's", async () => {
      const first = await userCookie(svc(), 'share_pw')
      const second = await svc().login('share_pw', 'share_pw-pass-1')
      for (let i = 0; i < WARM; i++) for (const c of [first, second]) expect((await onB(c)).status).to.equal(200)
      await dbmOk(svc(), first, 'set_password', { old_password: 'share_pw-pass-1', new_password: 'share_pw-pass-2' })
      expect((await onB(first)).status).to.equal(200)
      expect((await onB(second)).status).to.equal(403)
    })

    it('refuses a deactivated user on the other gateway at once', async () => {
      const cookie = await userCookie(svc(), 'share_off')
      for (let i = 0; i < WARM; i++) expect((await onB(cookie)).status).to.equal(200)
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'share_off' })
      expect((await onB(cookie)).status).to.equal(403)
    })

    it("applies a role granted or revoked through one gateway at the other's next request", async () => {
      const cookie = await userCookie(svc(), 'share_role')
      for (let i = 0; i < WARM; i++) expect(await managesUsersOnB(cookie)).to.equal(false)
      await dbmOk(svc(), admin, 'grant_role', { uid: 'share_role', role: 'user_admin' })
      for (let i = 0; i < WARM; i++) expect(await managesUsersOnB(cookie)).to.equal(true)
      await dbmOk(svc(), admin, 'revoke_role', { uid: 'share_role', role: 'user_admin' })
      expect(await managesUsersOnB(cookie)).to.equal(false)
    })

    it("applies a change to a role's capabilities at the other gateway's next request", async () => {
      await dbmOk(svc(), admin, 'add_role', { role: 'share_auditor', capabilities: ['manage_users'] })
      const cookie = await userCookie(svc(), 'share_aud', { roles: ['share_auditor'] })
      for (let i = 0; i < WARM; i++) expect(await managesUsersOnB(cookie)).to.equal(true)
      await dbmOk(svc(), admin, 'set_role', { role: 'share_auditor', capabilities: [] })
      expect(await managesUsersOnB(cookie)).to.equal(false)
    })

    it("applies a change to a company's administrators at the other gateway's next request", async () => {
      await dbmOk(svc(), admin, 'add_company', { company: 'shco', name: 'Share Co.' })
      const cookie = await userCookie(svc(), 'shco_kim', { company: 'shco' })
      for (let i = 0; i < WARM; i++) expect(await managesUsersOnB(cookie)).to.equal(false)
      await dbmOk(svc(), admin, 'set_company', { company: 'shco', admins: ['shco_kim'] })
      for (let i = 0; i < WARM; i++) expect(await managesUsersOnB(cookie)).to.equal(true)
      await dbmOk(svc(), admin, 'set_company', { company: 'shco', admins: [] })
      expect(await managesUsersOnB(cookie)).to.equal(false)
    })

    it('opens and closes a table shared with a group at the other gateway as membership changes', async () => {
      const { store, config } = svc().deps
      const cookie = await userCookie(svc(), 'share_member')
      await dbmOk(svc(), admin, 'add_group', { group: 'share_team' })
      await ensureDir(store, { path: 'shareteam', owner: 'admin', users: ['share_team'], inherit: false })
      const meta = await writeTableVersion(config.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([1, 2, 3])] })
      await commitTable(store, { path: 'shareteam.t', owner: 'admin' }, meta)
      const query = () => b.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select sum(x) s from shareteam.t' })
      for (let i = 0; i < WARM; i++) expect((await query()).status).to.equal(404)
      await dbmOk(svc(), admin, 'set_group', { group: 'share_team', add: ['share_member'] })
      const granted = await query()
      expect(granted.status, granted.text).to.equal(200)
      expect(granted.body).to.deep.equal({ s: [6] })
      for (let i = 0; i < WARM; i++) expect((await query()).status).to.equal(200)
      await dbmOk(svc(), admin, 'set_group', { group: 'share_team', remove: ['share_member'] })
      expect((await query()).status).to.equal(404)
    })

    it('serves the same bytes for a repeated answer and page as for the first one, in every format', async () => {
      const cookie = await svc().login()
      for (const format of ['json', 'json.rows', 'json.keyed', 'text']) {
        const ask = () =>
          b.http
            .post(`/v1/api/sql:${format}`)
            .set('Cookie', cookie)
            .send({ sql: 'select store, count(*) n from pub.demo.retail.item group by store order by store' })
        const first = await ask()
        expect(first.status).to.equal(200)
        expect((await ask()).text).to.equal(first.text)
        const page = () => b.http.get(`/v1/api/sql/!data:${format}?range=2&to=5`).set('Cookie', cookie)
        const p1 = await page()
        expect(p1.status).to.equal(200)
        expect((await page()).text).to.equal(p1.text)
        const other = await b.http.get(`/v1/api/sql/!data:${format}?range=3&to=5`).set('Cookie', cookie)
        expect(other.text, 'another range').not.to.equal(p1.text)
      }
      const rows = await b.http.get('/v1/api/sql/!data:json.rows?range=2&to=4').set('Cookie', cookie)
      expect(rows.body.rows).to.have.length(2)
    })

    it('still refuses a forged token for a session both gateways know', async () => {
      const cookie = await userCookie(svc(), 'share_forge')
      for (let i = 0; i < WARM; i++) expect((await onB(cookie)).status).to.equal(200)
      const [uidSid] = cookie.split('|_')
      expect((await onB(`${uidSid}|_______${'0'.repeat(48)}`)).status).to.equal(403)
      expect((await dbm(svc(), cookie, 'list_roles')).rc).to.equal(0)
    })
  },
  {},
  { skip: ['cluster'] },
) // the cluster runs are processes already, each with its own memos
