import { expect } from 'chai'
import { DEMO_ROWS } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { createUser } from '../../gateway/catalog/users.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { writeTableVersion } from '../../engine/storage/index.js'

const BY_STORE = 'select store, count(*) n from pub.demo.retail.item group by store'

forEachStore('api/sql', (svc) => {
  let cookie: string
  const post = (path: string, body?: object) => {
    const req = svc().http.post(path).set('Cookie', cookie)
    return body === undefined ? req : req.send(body)
  }
  before(async () => {
    cookie = await svc().login()
  })

  describe('formats', () => {
    it('answers column-major JSON under :json', async () => {
      const res = await post('/v1/api/sql:json', { sql: BY_STORE })
      expect(res.status).to.equal(200)
      expect(res.type).to.equal('application/json')
      expect(Object.keys(res.body)).to.deep.equal(['store', 'n'])
      expect(res.body.store.length).to.equal(res.body.n.length).and.be.greaterThan(10)
      expect(res.body.n.reduce((a: number, b: number) => a + b, 0)).to.equal(DEMO_ROWS)
    })

    it('answers {cols, rows} under :json.rows', async () => {
      const res = await post('/v1/api/sql:json.rows', { sql: BY_STORE })
      expect(res.body.cols).to.deep.equal(['store', 'n'])
      expect(res.body.rows[0]).to.have.length(2)
    })

    it('answers a list of row objects under :json.keyed', async () => {
      const res = await post('/v1/api/sql:json.keyed', { sql: BY_STORE })
      expect(res.body).to.be.an('array')
      expect(res.body[0]).to.have.keys('store', 'n')
    })

    it('answers an aligned text table under :text', async () => {
      const res = await post('/v1/api/sql:text', { sql: BY_STORE + ' order by store limit 3' })
      expect(res.type).to.equal('text/plain')
      const lines = res.text.trimEnd().split('\n')
      expect(lines[0]).to.match(/^store\s+n$/)
      expect(lines).to.have.length(2 + 3)
    })

    it('answers an HTML page with the table and links to text and JSON without a suffix', async () => {
      const res = await post('/v1/api/sql', { sql: BY_STORE })
      expect(res.type).to.equal('text/html')
      expect(res.text).to.contain('<table').and.to.contain('!data:text').and.to.contain('!data:json')
    })

    it('streams a result of more than 2,000 rows complete in every format', async () => {
      const sql = 'select trans, payment, sales from pub.demo.retail.item'
      const json = await post('/v1/api/sql:json', { sql })
      expect(json.body.trans).to.have.length(DEMO_ROWS)
      const rows = await post('/v1/api/sql:json.rows', { sql })
      expect(rows.body.rows).to.have.length(DEMO_ROWS)
      const keyed = await post('/v1/api/sql:json.keyed', { sql })
      expect(keyed.body).to.have.length(DEMO_ROWS)
      const text = await post('/v1/api/sql:text', { sql })
      expect(text.text.trimEnd().split('\n')).to.have.length(DEMO_ROWS + 2)
      const html = await post('/v1/api/sql', { sql })
      expect(html.text.match(/<tr>/g)).to.have.length(DEMO_ROWS + 1)
      expect(html.text.trimEnd()).to.match(/<\/html>$/)
    })

    it('accepts the SQL as a form field and as a query-string value on GET', async () => {
      const form = await svc().http.post('/v1/api/sql:json').set('Cookie', cookie).type('form').send({ sql: 'select 2 as two' })
      expect(form.body).to.deep.equal({ two: [2] })
      const get = await svc().http.get('/v1/api/sql:json').query({ sql: 'select 3 as three' }).set('Cookie', cookie)
      expect(get.body).to.deep.equal({ three: [3] })
    })

    it('treats api/sql/new like api/sql', async () => {
      const res = await post('/v1/api/sql/new:text', { sql: 'select 1 as one' })
      expect(res.text).to.match(/^one\n/)
    })

    it('ignores the client meta keys fmt_ and method_', async () => {
      const res = await post('/v1/api/sql:json', { sql: 'select 1 as a', fmt_: 'html', method_: 'GET' })
      expect(res.body).to.deep.equal({ a: [1] })
    })
  })

  describe('table paths', () => {
    it('reads a table by quoted path and keeps N/A as null', async () => {
      const res = await post('/v1/api/sql:json', { sql: 'select count(*) n, count(customer) c from "pub.demo.retail.item"' })
      expect(res.body.n).to.deep.equal([DEMO_ROWS])
      expect(res.body.c[0]).to.be.below(DEMO_ROWS)
      // The rows whose customer is N/A come back with null in every JSON shape, not 0 or "".
      // With some numbers beside them: a column of nothing but NULL is text (docs/sql.md).
      const missing = DEMO_ROWS - res.body.c[0]
      const sql = 'select trans, customer from "pub.demo.retail.item" where customer is null or customer = 5 order by customer, trans'
      const cols = await post('/v1/api/sql:json', { sql })
      const nulls = cols.body.customer.filter((v: unknown) => v === null)
      expect(nulls).to.have.length(missing)
      expect(cols.body.customer.slice(missing)).to.satisfy((rest: unknown[]) => rest.length > 0 && rest.every((v) => v === 5))
      const rows = await post('/v1/api/sql:json.rows', { sql: `${sql} limit ${missing + 1}` })
      expect(rows.body.rows.map((r: unknown[]) => r[1])).to.deep.equal([...nulls, 5])
      const keyed = await post('/v1/api/sql:json.keyed', { sql: `${sql} limit ${missing + 1}` })
      expect(keyed.body[0]).to.have.property('customer', null)
      expect(keyed.body[missing]).to.have.property('customer', 5)
    })

    it('joins tables by bare paths with aliases and by the last path segment', async () => {
      const sql = `select p.dept, sum(item.sales) s, count(*) n from pub.demo.retail.item join pub.demo.retail.products p on p.sku = item.sku
                   group by p.dept order by p.dept`
      const res = await post('/v1/api/sql:json', { sql })
      expect(res.status, res.text).to.equal(200)
      // The same join worked out here from the two tables read whole: every group, its count
      // exactly, its sum to rounding (the order of addition may differ).
      const items = (await post('/v1/api/sql:json', { sql: 'select sku, sales from pub.demo.retail.item' })).body as { sku: number[]; sales: number[] }
      const products = (await post('/v1/api/sql:json', { sql: 'select sku, dept from pub.demo.retail.products' })).body as { sku: number[]; dept: unknown[] }
      const deptOf = new Map<number, unknown[]>()
      products.sku.forEach((sku, i) => deptOf.set(sku, [...(deptOf.get(sku) ?? []), products.dept[i]]))
      const want = new Map<string, { s: number; n: number }>()
      items.sku.forEach((sku, i) => {
        for (const dept of deptOf.get(sku) ?? []) {
          const g = want.get(JSON.stringify(dept)) ?? { s: 0, n: 0 }
          want.set(JSON.stringify(dept), { s: g.s + items.sales[i], n: g.n + 1 })
        }
      })
      expect(res.body.dept.map((d: unknown) => JSON.stringify(d)).sort()).to.deep.equal([...want.keys()].sort())
      expect(res.body.dept.length).to.be.greaterThan(1)
      res.body.dept.forEach((dept: unknown, i: number) => {
        const g = want.get(JSON.stringify(dept))!
        expect(res.body.n[i], String(dept)).to.equal(g.n)
        expect(res.body.s[i], String(dept)).to.be.closeTo(g.s, Math.abs(g.s) * 1e-12 + 1e-9)
      })
    })

    it('reports an unknown table with 404', async () => {
      const res = await post('/v1/api/sql:json', { sql: 'select * from pub.demo.retail.nope' })
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('unknown_table')
      expect(res.body.error).to.contain('pub.demo.retail.nope')
    })

    it('reports a table the user may not read exactly like a missing one', async () => {
      const { store, config } = svc().deps
      await ensureDir(store, { path: 'priv', owner: 'admin', users: [], inherit: false })
      const meta = await writeTableVersion(config.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([1, 2])] })
      await commitTable(store, { path: 'priv.secret', owner: 'admin' }, meta)
      await createUser(store, { uid: 'bob', password: 'bob-pass-1' })
      const bob = await svc().login('bob', 'bob-pass-1')
      const hidden = await svc().http.post('/v1/api/sql:json').set('Cookie', bob).send({ sql: 'select * from priv.secret' })
      const missing = await svc().http.post('/v1/api/sql:json').set('Cookie', bob).send({ sql: 'select * from priv.nothere' })
      expect(hidden.status).to.equal(404)
      expect(hidden.body.error.replace('secret', 'X')).to.equal(missing.body.error.replace('nothere', 'X'))
      const admin = await post('/v1/api/sql:json', { sql: 'select sum(x) s from priv.secret' })
      expect(admin.body).to.deep.equal({ s: [3] })
      const pub = await svc().http.post('/v1/api/sql:json').set('Cookie', bob).send({ sql: 'select count(*) n from pub.demo.retail.stores' })
      expect(pub.body.n[0]).to.be.greaterThan(0)
    })
  })

  describe('index widget', () => {
    let all: number[]
    before(async () => {
      const res = await post('/v1/api/sql:json', { sql: 'select trans, payment from pub.demo.retail.item order by trans limit 10' })
      all = res.body.trans
    })

    it('!rows answers the row count', async () => {
      expect((await post('/v1/api/sql/!rows:json')).body).to.equal(10)
    })

    it('!cols answers name, label and width column-major', async () => {
      const res = await post('/v1/api/sql/!cols:json')
      expect(res.body).to.have.keys('name', 'label', 'width')
      expect(res.body.name).to.deep.equal(['trans', 'payment'])
    })

    it('!data?range=2&to=4 returns exactly rows 2 and 3', async () => {
      const res = await post('/v1/api/sql/!data:json?range=2&to=4')
      expect(res.body.trans).to.deep.equal([all[2], all[3]])
    })

    it('!data without bounds returns every row, and bounds past the end are clipped', async () => {
      expect((await post('/v1/api/sql/!data:json')).body.trans).to.deep.equal(all)
      expect((await post('/v1/api/sql/!data:json?range=8&to=99')).body.trans).to.deep.equal(all.slice(8))
      expect((await post('/v1/api/sql/!data:json?to=1')).body.trans).to.deep.equal(all.slice(0, 1))
    })

    it('!data renders in json.rows, json.keyed, text and html', async () => {
      expect((await post('/v1/api/sql/!data:json.rows?range=0&to=1')).body).to.deep.equal({
        cols: ['trans', 'payment'],
        rows: [[all[0], (await post('/v1/api/sql/!data:json?to=1')).body.payment[0]]],
      })
      expect((await post('/v1/api/sql/!data:json.keyed?range=0&to=2')).body).to.have.length(2)
      expect((await post('/v1/api/sql/!data:text?range=0&to=2')).text.split('\n')[0]).to.match(/^trans\s+payment$/)
      expect((await post('/v1/api/sql/!data?range=0&to=2')).type).to.equal('text/html')
    })

    it('!head answers cols, rows and data together', async () => {
      const res = await post('/v1/api/sql/!head:json')
      expect(res.body.rows).to.equal(10)
      expect(res.body.cols.name).to.deep.equal(['trans', 'payment'])
      expect(res.body.data.trans).to.deep.equal(all)
    })

    it('accepts the long form @index/data and GET', async () => {
      const res = await svc().http.get('/v1/api/sql/@index/data:json?range=1&to=2').set('Cookie', cookie)
      expect(res.body.trans).to.deep.equal([all[1]])
    })

    it('accepts an empty JSON body as no parameters', async () => {
      const res = await svc().http.post('/v1/api/sql/!rows:json').set('Cookie', cookie).set('Content-Type', 'application/json').send('')
      expect(res.status).to.equal(200)
      expect(res.body).to.equal(10)
    })

    it('answers 404 for an unknown method', async () => {
      const res = await post('/v1/api/sql/!nosuch:json')
      expect(res.status).to.equal(404)
      expect(res.body.error).to.contain('!cols')
    })

    it('answers 404 no_result before any query in the session', async () => {
      await svc().http.post('/v1/api/!login:json').send({ uid: 'admin', pw: 'admin-secret-1', kill: 'yes' })
      const fresh = await svc().login()
      const res = await svc().http.post('/v1/api/sql/!data:json').set('Cookie', fresh)
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('no_result')
      cookie = fresh
      await post('/v1/api/sql:json', { sql: 'select trans, payment from pub.demo.retail.item order by trans limit 10' })
    })
  })

  describe('bad input', () => {
    const cases: { name: string; body: string; type?: string; status: number; code: string; hint: RegExp }[] = [
      { name: 'a write statement', body: JSON.stringify({ sql: 'delete from pub.demo.retail.item' }), status: 400, code: 'sql_not_read_only', hint: /DELETE/ },
      { name: 'two statements', body: JSON.stringify({ sql: 'select 1; select 2' }), status: 400, code: 'sql_multiple_statements', hint: /one/i },
      { name: 'a syntax error', body: JSON.stringify({ sql: 'select from where' }), status: 400, code: 'sql_error', hint: /syntax/ },
      { name: 'an unknown column', body: JSON.stringify({ sql: 'select nope from pub.demo.retail.item' }), status: 400, code: 'sql_error', hint: /nope/ },
      { name: 'an empty body', body: '', status: 400, code: 'missing_parameter', hint: /sql/ },
      { name: 'an empty query', body: JSON.stringify({ sql: '   ' }), status: 400, code: 'missing_parameter', hint: /sql/ },
      { name: 'a non-JSON body', body: '{"sql": "select 1"', status: 400, code: 'bad_json', hint: /JSON/ },
      { name: 'a JSON array body', body: '[1,2]', status: 400, code: 'invalid_parameter', hint: /object/ },
      { name: 'a non-string sql', body: JSON.stringify({ sql: { a: 1 } }), status: 400, code: 'invalid_parameter', hint: /sql/ },
      { name: 'PRAGMA', body: JSON.stringify({ sql: 'pragma table_info(x)' }), status: 400, code: 'sql_not_read_only', hint: /PRAGMA/i },
      { name: 'ATTACH', body: JSON.stringify({ sql: "attach 'x.db' as x" }), status: 400, code: 'sql_not_read_only', hint: /ATTACH/i },
    ]
    for (const c of cases) {
      it(`answers ${c.name} with ${c.status} ${c.code} and keeps serving`, async () => {
        const res = await svc()
          .http.post('/v1/api/sql:json')
          .set('Cookie', cookie)
          .set('Content-Type', c.type ?? 'application/json')
          .send(c.body)
        expect(res.status, res.text).to.equal(c.status)
        expect(res.body.code).to.equal(c.code)
        expect(res.body.error).to.match(c.hint)
        const ok = await post('/v1/api/sql:json', { sql: 'select 1 as ok' })
        expect(ok.body).to.deep.equal({ ok: [1] })
      })
    }
  })

  describe('paths', () => {
    it('answers an unknown version with 404 naming the accepted versions', async () => {
      const res = await svc().http.post('/v9/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1' })
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('unknown_version')
      expect(res.body.error).to.contain('v1')
    })

    it('answers an unknown format suffix with 400 listing the suffixes', async () => {
      const res = await post('/v1/api/sql:xml', { sql: 'select 1' })
      expect(res.status).to.equal(400)
      expect(res.body.error).to.contain(':json.rows')
    })

    it('answers an unknown endpoint with 404', async () => {
      const res = await post('/v1/api/nosuch:json')
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('not_found')
    })

    it('lists the endpoints at api', async () => {
      const res = await post('/v1/api:json')
      expect(res.body.name).to.include('sql').and.include('!login')
    })
  })
})
