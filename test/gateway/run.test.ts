import { expect } from 'chai'
import { DEMO_ROWS, loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { createUser } from '../../gateway/catalog/users.js'
import { KEYS } from '../../gateway/catalog/records.js'

const BY_STORE =
  '<base table="pub.demo.retail.item"/><tabu breaks="store"><break col="store" sort="up"/><tcol fun="cnt" name="n"/><tcol source="sales" fun="sum" name="s"/></tabu>'

forEachStore('api/run', (svc) => {
  const session = loggedIn(svc)
  const { post } = session

  describe('results', () => {
    it('answers a tabulation as column-major JSON that agrees with SQL', async () => {
      const res = await post('/v1/api/run:json', { xml: BY_STORE })
      expect(res.status, res.text).to.equal(200)
      expect(Object.keys(res.body)).to.deep.equal(['store', 'n', 's'])
      expect(res.body.n.reduce((a: number, b: number) => a + b, 0)).to.equal(DEMO_ROWS)
      const sql = await post('/v1/api/sql:json', { sql: 'select store, count(*) n, sum(sales) s from pub.demo.retail.item group by store order by store' })
      expect(res.body.store).to.deep.equal(sql.body.store)
      expect(res.body.n).to.deep.equal(sql.body.n)
      res.body.s.forEach((v: number, i: number) => expect(v).to.be.closeTo(sql.body.s[i], 1e-6))
    })

    it('renders json.rows, json.keyed, text and html', async () => {
      expect((await post('/v1/api/run:json.rows', { xml: BY_STORE })).body.cols).to.deep.equal(['store', 'n', 's'])
      expect((await post('/v1/api/run:json.keyed', { xml: BY_STORE })).body[0]).to.have.keys('store', 'n', 's')
      expect((await post('/v1/api/run:text', { xml: BY_STORE })).text.split('\n')[0]).to.match(/^\s*store\s+n\s+s$/)
      const html = await post('/v1/api/run', { xml: BY_STORE })
      expect(html.type).to.equal('text/html')
      expect(html.text).to.contain('<table').and.to.contain('/v1/api/run/!data:text')
    })

    it('links products and selects with an expression over the linked columns', async () => {
      const xml = `<base table="pub.demo.retail.item"/>
        <link table2="pub.demo.retail.products" col="sku" col2="sku" cols="dept,price" type="select"/>
        <sel value="dept=1 &amp; qty>=2"/>
        <tabu breaks=""><tcol fun="cnt" name="n"/></tabu>`
      const res = await post('/v1/api/run:json', { xml })
      expect(res.status, res.text).to.equal(200)
      const sql = await post('/v1/api/sql:json', {
        sql: 'select count(*) n from pub.demo.retail.item i join pub.demo.retail.products p on p.sku = i.sku where p.dept = 1 and i.qty >= 2',
      })
      expect(res.body.n).to.deep.equal(sql.body.n)
    })
  })

  describe('index widget', () => {
    let all: number[]
    before(async () => {
      const res = await post('/v1/api/run:json', {
        xml: '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/><willbe name="row" value="i_()"/><colord cols="trans,row,payment"/>',
      })
      all = res.body.trans
      expect(res.body.row).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    })

    it('!data?range_=2&to_=4 returns exactly rows 2 and 3, numbered from 0 while i_() counts from 1', async () => {
      const res = await post('/v1/api/run/!data:json?range_=2&to_=4')
      expect(res.body.trans).to.deep.equal([all[2], all[3]])
      expect(res.body.row).to.deep.equal([3, 4])
    })

    it('!cols answers name, label, desc, type, fixed, width and format', async () => {
      const res = await post('/v1/api/run/!cols:json')
      expect(res.body).to.have.keys('name', 'label', 'desc', 'type', 'fixed', 'width', 'format')
      expect(res.body.name).to.deep.equal(['trans', 'row', 'payment'])
      expect(res.body.type).to.deep.equal(['i', 'i', 'a'])
    })

    it('!rows, !head, json.rows and json.keyed read the kept result', async () => {
      expect((await post('/v1/api/run/!rows:json')).body).to.equal(10)
      const head = await post('/v1/api/run/!head:json')
      expect(head.body.rows).to.equal(10)
      expect(head.body.data.trans).to.deep.equal(all)
      expect((await post('/v1/api/run/!data:json.rows?range_=0&to_=1')).body.rows).to.have.length(1)
      expect((await post('/v1/api/run/!data:json.keyed?to_=2')).body).to.have.length(2)
      const get = await session.get('/v1/api/run/@index/data:json?range_=9')
      expect(get.body.trans).to.deep.equal([all[9]])
    })
  })

  describe('bad queries', () => {
    const cases: [string, string, number, string, RegExp][] = [
      ['malformed XML', '<base table="pub.demo.retail.item">\n<sel value="x"/>', 400, 'parse_error', /line/i],
      ['an unknown column', '<base table="pub.demo.retail.item"/>\n<sel value="nope=1"/>', 400, 'check_error', /Line 2.*nope/],
      ['a bad expression', '<base table="pub.demo.retail.item"/><sel value="store=(1"/>', 400, 'expr_error', /\)/],
      ['an unknown operation', '<base table="pub.demo.retail.item"/><frobnicate/>', 400, 'check_error', /frobnicate/],
      // Refused by the checker, no longer by the interpreter on a worker: the same answer, only earlier.
      [
        'a list of values as a tcol source',
        '<base table="pub.demo.retail.item"/><tabu breaks="store"><tcol source="1 2" fun="sum"/></tabu>',
        400,
        'check_error',
        /^A list of values cannot be a column\.$/,
      ],
      ['an unknown table', '<base table="pub.demo.retail.nope"/>', 404, 'unknown_table', /pub\.demo\.retail\.nope/],
    ]
    for (const [what, xml, status, code, message] of cases) {
      it(`answers ${what} with ${status} ${code}`, async () => {
        const res = await post('/v1/api/run:json', { xml })
        expect(res.status, res.text).to.equal(status)
        expect(res.body.code).to.equal(code)
        expect(res.body.error).to.match(message)
      })
    }

    it('answers a missing xml parameter with 400 and shows a form in HTML', async () => {
      expect((await post('/v1/api/run:json', {})).status).to.equal(400)
      const page = await session.get('/v1/api/run')
      expect(page.text).to.contain('<textarea').and.to.contain('name="xml"')
    })
  })

  describe('savetable', () => {
    const SAVE = '<base table="pub.demo.retail.stores"/><tabu breaks="region"><break col="region" sort="up"/><tcol fun="cnt" name="n"/></tabu>'

    it('saves the result as a table with its title, readable by run and sql', async () => {
      const res = await post('/v1/api/run:json', { xml: SAVE, savetable: 'uploads.admin.by_region', title: 'Stores by region' })
      expect(res.status, res.text).to.equal(200)
      const record = JSON.parse((await svc().deps.store.get(KEYS.table('uploads.admin.by_region')))!)
      expect(record).to.include({ title: 'Stores by region', owner: 'admin', rows: res.body.n.length })
      const back = await post('/v1/api/run:json', { xml: '<base table="uploads.admin.by_region"/>' })
      expect(back.body).to.deep.equal(res.body)
      const sql = await post('/v1/api/sql:json', { sql: 'select sum(n) n from uploads.admin.by_region' })
      expect(sql.body.n).to.deep.equal([100])
    })

    it('refuses replace=0 over an existing table and leaves it untouched', async () => {
      const before = await svc().deps.store.get(KEYS.table('uploads.admin.by_region'))
      const res = await post('/v1/api/run:json', { xml: '<table cols="x">1</table>', savetable: 'uploads.admin.by_region', replace: '0' })
      expect(res.status).to.equal(409)
      expect(res.body.code).to.equal('table_exists')
      expect(res.body.error).to.contain('replace=1')
      expect(await svc().deps.store.get(KEYS.table('uploads.admin.by_region'))).to.equal(before)
    })

    it('replaces the table with a new version when replace=1', async () => {
      const old = JSON.parse((await svc().deps.store.get(KEYS.table('uploads.admin.by_region')))!)
      const res = await post('/v1/api/run:json', { xml: '<table cols="x">1;2</table>', savetable: 'uploads.admin.by_region', replace: 1 })
      expect(res.status).to.equal(200)
      const now = JSON.parse((await svc().deps.store.get(KEYS.table('uploads.admin.by_region')))!)
      expect(now.version).not.to.equal(old.version)
      expect(now.title).to.equal('Stores by region')
      expect((await post('/v1/api/run:json', { xml: '<base table="uploads.admin.by_region"/>' })).body).to.deep.equal({ x: [1, 2] })
    })

    it('needs write permission on the folder, and keeps saved tables private to their owner', async () => {
      await createUser(svc().deps.store, { uid: 'dora', password: 'dora-pass-1' })
      const dora = await svc().login('dora', 'dora-pass-1')
      const denied = await post('/v1/api/run:json', { xml: SAVE, savetable: 'pub.demo.retail.mine' }, dora)
      expect(denied.status).to.equal(403)
      expect(denied.body.error).to.contain('uploads.dora')
      expect(await svc().deps.store.get(KEYS.table('pub.demo.retail.mine'))).to.equal(null)
      const own = await post('/v1/api/run:json', { xml: SAVE, savetable: 'uploads.dora.mine' }, dora)
      expect(own.status, own.text).to.equal(200)
      const hidden = await post('/v1/api/run:json', { xml: '<base table="uploads.admin.by_region"/>' }, dora)
      expect(hidden.status).to.equal(404)
      expect(hidden.body.code).to.equal('unknown_table')
      const intoUploads = await post('/v1/api/run:json', { xml: SAVE, savetable: 'uploads.mine' }, dora)
      expect(intoUploads.status).to.equal(403)
    })
  })
})
