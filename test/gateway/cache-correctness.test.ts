/**
 * The request path's caches never serve a stale answer: on one gateway, and (in the cluster run,
 * where no two consecutive requests of a session reach the same gateway) across gateways. Each
 * case changes something through one request and checks the very next one sees it.
 */
import { expect } from 'chai'
import { dbmOk, userCookie } from '../helpers/dbm.js'
import { ADMIN_PASSWORD, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

function post(svc: TestService, cookie: string, path: string, body: Record<string, unknown>) {
  return svc.http.post(`/v1/api/${path}`).set('Cookie', cookie).send(body)
}

/** Saves (or replaces) a table from inline rows through api/run savetable. */
async function saveTable(svc: TestService, cookie: string, path: string, cols: string, rows: string): Promise<void> {
  const res = await post(svc, cookie, 'run:json', { xml: `<table cols="${cols}">${rows}</table>`, savetable: path, replace: '1' })
  expect(res.status, res.text).to.equal(200)
}

forEachStore('request-path caches stay correct', (svc) => {
  describe('sessions', () => {
    it('refuses a session at once after !logout', async () => {
      const cookie = await svc().login()
      expect((await post(svc(), cookie, 'sql:json', { sql: 'select 1 as one' })).status).to.equal(200)
      expect((await post(svc(), cookie, '!logout:json', {})).status).to.equal(200)
      const after = await post(svc(), cookie, 'sql:json', { sql: 'select 1 as one' })
      expect(after.status).to.equal(403)
    })

    it('refuses the replaced session at once after a kill=yes login', async () => {
      const first = await svc().login()
      expect((await post(svc(), first, 'sql:json', { sql: 'select 2 as two' })).status).to.equal(200)
      const fresh = await svc().http.post('/v1/api/!login:json').send({ uid: 'admin', pw: ADMIN_PASSWORD, kill: 'yes' })
      expect(fresh.status).to.equal(200)
      expect((await post(svc(), first, 'sql:json', { sql: 'select 2 as two' })).status).to.equal(403)
      const second = `session=${fresh.body.uid}|${fresh.body.sid}|${fresh.body.epw}`
      expect((await post(svc(), second, 'sql:json', { sql: 'select 2 as two' })).status).to.equal(200)
    })

    it('refuses a deactivated user at once', async () => {
      const admin = await svc().login()
      const user = await userCookie(svc(), 'cache_kim')
      expect((await post(svc(), user, 'sql:json', { sql: 'select 3 as three' })).status).to.equal(200)
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'cache_kim' })
      expect((await post(svc(), user, 'sql:json', { sql: 'select 3 as three' })).status).to.equal(403)
    })
  })

  describe('tables and compiled queries', () => {
    let cookie: string
    before(async () => {
      cookie = await svc().login()
    })

    it('reads a table replaced through savetable fresh, with the same query texts', async () => {
      const sql = { sql: 'select sum(x) s from uploads.admin.cache_fresh' }
      const run = { xml: '<base table="uploads.admin.cache_fresh"/><tabu><tcol source="x" fun="sum" name="s"/></tabu>' }
      for (const x of [1, 5, 9]) {
        await saveTable(svc(), cookie, 'uploads.admin.cache_fresh', 'x', `${x};${x}`)
        expect((await post(svc(), cookie, 'sql:json', sql)).body, `sql after saving x=${x}`).to.deep.equal({ s: [2 * x] })
        expect((await post(svc(), cookie, 'run:json', run)).body, `run after saving x=${x}`).to.deep.equal({ s: [2 * x] })
      }
    })

    it('checks a repeated query again once its table no longer has the column it uses', async () => {
      const xml = { xml: '<base table="uploads.admin.cache_reshaped"/><sel value="a=1"/>' }
      await saveTable(svc(), cookie, 'uploads.admin.cache_reshaped', 'a', '1;2')
      for (let i = 0; i < 2; i++) expect((await post(svc(), cookie, 'run:json', xml)).body).to.deep.equal({ a: [1] })
      await saveTable(svc(), cookie, 'uploads.admin.cache_reshaped', 'b', '1;2')
      const refused = await post(svc(), cookie, 'run:json', xml)
      expect(refused.status, refused.text).to.equal(400)
      expect(refused.text).to.match(/\ba\b/)
      await saveTable(svc(), cookie, 'uploads.admin.cache_reshaped', 'a', '1;1;3')
      expect((await post(svc(), cookie, 'run:json', xml)).body).to.deep.equal({ a: [1, 1] })
    })

    it('refuses a bad SQL text every time it is sent, not only the first', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await post(svc(), cookie, 'sql:json', { sql: 'delete from uploads.admin.cache_fresh' })
        expect(res.status, `attempt ${i + 1}`).to.equal(400)
      }
    })

    it('answers !data when the Store copy of a repeated result is gone (the repeat did not write it again)', async () => {
      const sql = { sql: 'select trans, store from pub.demo.retail.item where store = 2 order by trans limit 50' }
      const first = await post(svc(), cookie, 'sql:json', sql)
      const again = await post(svc(), cookie, 'sql:json', sql)
      expect(again.body).to.deep.equal(first.body)
      const kept = await svc().deps.store.keys('res:')
      if (kept.length > 0) await svc().deps.store.del(...kept)
      const page = await svc().http.get('/v1/api/sql/!data:json?range=10&to=20').set('Cookie', cookie)
      expect(page.status, page.text).to.equal(200)
      expect(page.body.trans).to.deep.equal(first.body.trans.slice(10, 20))
    })
  })
})
