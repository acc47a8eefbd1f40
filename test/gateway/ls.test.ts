/**
 * `api/ls` and `api/ls/{path}` (gateway/routes/ls.ts): the folders and tables a caller may read,
 * in every format and through the listing's index widget. Folder URLs (`api/pub.demo`) answer
 * through the same code and are tested with the other object URLs in objects.test.ts.
 */
import { expect } from 'chai'
import { userCookie } from '../helpers/dbm.js'
import { ITEM, ITEM_COLS, makePrivateObjects, shape, STORES } from '../helpers/catalog-objects.js'
import { DEMO_ROWS, loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

forEachStore('folder listings', (svc) => {
  const admin = loggedIn(svc)
  const { get } = admin
  let olga: string
  const post = (path: string, as = admin.cookie) => svc().http.post(path).set('Cookie', as)

  before(async () => {
    olga = await userCookie(svc(), 'olga')
    await makePrivateObjects(svc())
  })

  describe('api/ls', () => {
    it('lists the top-level folders the caller may read', async () => {
      const asAdmin = await get('/v1/api/ls:json')
      expect(asAdmin.status, asAdmin.text).to.equal(200)
      expect(asAdmin.body.path).to.include.members(['pub', 'vault'])
      const asOlga = await get('/v1/api/ls:json', olga)
      expect(asOlga.body.path).to.include('pub').and.not.include('vault')
      expect(asOlga.body.type[asOlga.body.path.indexOf('pub')]).to.equal('dir')
    })

    it("lists a folder's tables with their row and column counts, and folders with N/A counts", async () => {
      const retail = await get('/v1/api/ls/pub.demo.retail:json', olga)
      expect(retail.status, retail.text).to.equal(200)
      expect(retail.body.path).to.deep.equal(['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'])
      expect(retail.body.name).to.deep.equal(['item', 'products', 'stores'])
      expect(retail.body.type).to.deep.equal(['table', 'table', 'table'])
      expect(retail.body.rows[0]).to.equal(DEMO_ROWS)
      expect(retail.body.rows[2]).to.equal(100)
      expect(retail.body.cols[0]).to.equal(ITEM_COLS.length)
      expect(retail.body.owner).to.deep.equal(['admin', 'admin', 'admin'])
      expect(retail.body.title[0]).to.equal('Retail Demo: Line Items')
      const pub = await get('/v1/api/ls/pub:json', olga)
      const demo = pub.body.path.indexOf('pub.demo')
      expect(pub.body.type[demo]).to.equal('dir')
      expect(pub.body.rows[demo]).to.equal(null)
      expect(pub.body.cols[demo]).to.equal(null)
      expect(Object.keys(pub.body)).to.deep.equal(['path', 'name', 'title', 'type', 'owner', 'sdesc', 'rows', 'cols', 'updated', 'id'])
    })

    it('hides the entries of a folder the caller may not read', async () => {
      const asOlga = (await get('/v1/api/ls/pub:json', olga)).body.path
      expect(asOlga).to.include('pub.demo').and.not.include('pub.hidden').and.not.include('pub.secret_sales')
      const asAdmin = (await get('/v1/api/ls/pub:json')).body.path
      expect(asAdmin).to.include.members(['pub.demo', 'pub.hidden', 'pub.secret_sales'])
    })

    it('renders a listing as json.rows, json.keyed, text and an HTML page titled with the path', async () => {
      const rows = await get('/v1/api/ls/pub.demo.retail:json.rows')
      expect(rows.body.cols[0]).to.equal('path')
      expect(rows.body.rows.map((r: unknown[]) => r[0])).to.deep.equal(['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'])
      const keyed = await get('/v1/api/ls/pub.demo.retail:json.keyed')
      expect(keyed.body[2]).to.include({ path: STORES, type: 'table', rows: 100 })
      const text = await get('/v1/api/ls/pub.demo.retail:text')
      expect(text.type).to.equal('text/plain')
      expect(text.text.split('\n')[0]).to.match(/^\s*path\s+name\s+title\s+type\s+owner/)
      expect(text.text).to.contain('pub.demo.retail.stores')
      const html = await get('/v1/api/ls/pub.demo.retail')
      expect(html.type).to.equal('text/html')
      expect(html.text).to.contain('<title>pub.demo.retail</title>').and.to.contain('href="/v1/api/ls/pub.demo.retail:text"')
      expect(html.text).to.contain('data-path="pub.demo.retail.item"')
      expect((await get('/v1/api/ls')).text).to.contain('<title>Top-level folders</title>')
    })

    it('serves !cols, !rows, !data with range_ and to_, and !head over a listing', async () => {
      const cols = await get('/v1/api/ls/pub.demo.retail/!cols:json')
      expect(cols.body.name).to.deep.equal(['path', 'name', 'title', 'type', 'owner', 'sdesc', 'rows', 'cols', 'updated', 'id'])
      expect(cols.body.type).to.deep.equal(['a', 'a', 'a', 'a', 'a', 'a', 'i', 'i', 'a', 'i'])
      expect((await get('/v1/api/ls/pub.demo.retail/!rows:json')).body).to.equal(3)
      expect((await get('/v1/api/ls/pub.demo.retail/!data:json?range_=1&to_=3')).body.name).to.deep.equal(['products', 'stores'])
      const head = await post('/v1/api/ls/pub.demo.retail/@index/head:json')
      expect(head.body.rows).to.equal(3)
      expect(head.body.data.name).to.deep.equal(['item', 'products', 'stores'])
      expect((await get('/v1/api/ls/!rows:json')).body).to.equal((await get('/v1/api/ls:json')).body.path.length)
    })

    it('answers a folder the caller may not read exactly like a missing one: 404 unknown_directory', async () => {
      const hidden = await get('/v1/api/ls/vault:json', olga)
      const missing = await get('/v1/api/ls/nowhere:json', olga)
      expect(hidden.status).to.equal(404)
      expect(hidden.body.code).to.equal('unknown_directory')
      expect(hidden.body.error).to.match(/no such directory "vault"/i)
      expect(shape(hidden.body, 'vault')).to.equal(shape(missing.body, 'nowhere'))
      expect((await get('/v1/api/ls/vault/!rows:json', olga)).status).to.equal(404)
      expect((await get('/v1/api/ls/vault:json')).body.path).to.deep.equal(['vault.ledger', 'vault.shared'])
    })

    it('calls a table no folder: 404 unknown_directory', async () => {
      const res = await get(`/v1/api/ls/${ITEM}:json`)
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('unknown_directory')
    })
  })
})
