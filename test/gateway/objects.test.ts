import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTableVersion } from '../../engine/storage/index.js'
import { NA_INT } from '../../shared/table.js'
import type { TableRecord } from '../../gateway/catalog/records.js'
import { ensureDir } from '../../gateway/catalog/tables.js'
import { tableData } from '../../gateway/tables/table-data.js'
import { TableCache } from '../../gateway/tables/table-cache.js'
import { catalogSnapshot, userCookie } from '../helpers/dbm.js'
import { ITEM, ITEM_COLS, makePrivateObjects, shape, STORES } from '../helpers/catalog-objects.js'
import { DEMO_ROWS, loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { dataOf } from '../helpers/columns.js'

describe('tableData()', () => {
  let dataDir: string
  let tables: TableCache
  let record: TableRecord
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-table-data-'))
    tables = new TableCache(dataDir, 1 << 20)
    const columns = [
      { name: 'n', type: 'int' as const },
      { name: 'd', type: 'date' as const, label: 'Day' },
      { name: 'x', type: 'float' as const },
      { name: 's', type: 'text' as const },
    ]
    const meta = await writeTableVersion(dataDir, {
      columns,
      data: [
        Int32Array.from([1, NA_INT, 3, 4, 5]),
        Int32Array.from([20240101, 20240102, NA_INT, 20240104, 20240105]),
        Float64Array.from([0.5, 1.5, NaN, 3.5, 4.5]),
        ['a', '', 'c', 'a', 'e'],
      ],
    })
    // The catalog's labels win over the files' (they are edited without a new version).
    const edited = [columns[0], { ...columns[1], label: 'Business day' }, columns[2], columns[3]]
    record = {
      kind: 'table',
      id: 1,
      path: 't.x',
      title: 'x',
      owner: 'admin',
      users: [],
      inherit: true,
      sdesc: '',
      ldesc: '',
      version: meta.version,
      rows: meta.rows,
      columns: edited,
      created: '',
      updated: '',
    }
  })
  after(() => rm(dataDir, { recursive: true, force: true }))

  it('reports the columns of the catalog record and the row count without reading any column', async () => {
    const kept = tableData(tables, record)
    expect(kept.rowCount).to.equal(5)
    expect(kept.cols.map((c) => [c.name, c.label, c.type, c.logical])).to.deep.equal([
      ['n', 'n', 'i', 'int'],
      ['d', 'Business day', 'i', 'date'],
      ['x', 'x', 'f', 'float'],
      ['s', 's', 'a', 'text'],
    ])
    expect(tables.stats.misses).to.equal(0)
  })

  it('answers a range with N/A kept, numbers as views over the cached columns and only those rows of text', async () => {
    const kept = tableData(tables, record)
    const part = await kept.rows(1, 4)
    expect(part.rowCount).to.equal(3)
    const [n, d, x, s] = part.columns
    expect(Array.from(dataOf(n) as Int32Array)).to.deep.equal([NA_INT, 3, 4])
    expect(Array.from(dataOf(d) as Int32Array)).to.deep.equal([20240102, NA_INT, 20240104])
    expect(Array.from(dataOf(x) as Float64Array)).to.deep.equal([1.5, NaN, 3.5])
    expect(dataOf(s)).to.deep.equal(['', 'c', 'a'])
    // No copy: the numbers are the cache's shared memory.
    expect((dataOf(n) as Int32Array).buffer).to.equal((await tables.column(record.version, 0)).buffer)
    expect((dataOf(x) as Float64Array).buffer).to.equal((await tables.column(record.version, 2)).buffer)
  })

  it('clips ranges to the table', async () => {
    const kept = tableData(tables, record)
    expect((await kept.rows(3, 99)).rowCount).to.equal(2)
    expect((await kept.rows(7, 9)).rowCount).to.equal(0)
  })
})

forEachStore('object URLs', (svc) => {
  const admin = loggedIn(svc)
  const { get } = admin
  let olga: string
  const post = (path: string, as = admin.cookie) => svc().http.post(path).set('Cookie', as)

  before(async () => {
    olga = await userCookie(svc(), 'olga')
    await makePrivateObjects(svc())
  })

  describe('api/{path} for a folder', () => {
    it('answers a dotted folder path and a single top-level name like api/ls', async () => {
      for (const path of ['pub', 'pub.demo', 'pub.demo.retail']) {
        const direct = await get(`/v1/api/${path}:json`, olga)
        expect(direct.status, direct.text).to.equal(200)
        expect(direct.body).to.deep.equal((await get(`/v1/api/ls/${path}:json`, olga)).body)
      }
    })

    it('serves the index-widget sub-paths of the listing', async () => {
      expect((await post('/v1/api/pub.demo.retail/!rows:json', olga)).body).to.equal(3)
      expect((await get('/v1/api/pub.demo.retail/!data:json.keyed?range_=2', olga)).body.map((r: { path: string }) => r.path)).to.deep.equal([STORES])
      expect((await get('/v1/api/pub/!cols:json', olga)).body.name[0]).to.equal('path')
      expect((await get('/v1/api/pub.demo/!head:json', olga)).body.data.path).to.deep.equal(['pub.demo.retail'])
    })

    it('titles the HTML page with the folder path', async () => {
      const html = await get('/v1/api/pub.demo')
      expect(html.text).to.contain('<title>pub.demo</title>').and.to.contain('href="/v1/api/pub.demo:json"')
    })
  })

  describe('api/{path} for a table', () => {
    it('returns every row of a table, equal to SQL over the same table, text and dates included', async () => {
      const res = await get(`/v1/api/${STORES}:json`, olga)
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.have.keys('store', 'city', 'state', 'region', 'sqft', 'opened')
      const sql = await post(`/v1/api/sql:json`, olga).send({ sql: `select * from ${STORES}` })
      expect(sql.status, sql.text).to.equal(200)
      expect(res.body).to.deep.equal(sql.body)
      expect(res.body.city).to.have.length(100)
      expect(res.body.opened[0]).to.be.a('number').within(19000101, 21000101)
    })

    it('renders a table as json.rows, json.keyed, text and an HTML page titled with its path', async () => {
      const rows = await get(`/v1/api/${STORES}:json.rows`)
      expect(rows.body.cols).to.deep.equal(['store', 'city', 'state', 'region', 'sqft', 'opened'])
      expect(rows.body.rows).to.have.length(100)
      const keyed = await post(`/v1/api/${STORES}:json.keyed`)
      expect(keyed.body).to.have.length(100)
      expect(keyed.body[0]).to.have.keys('store', 'city', 'state', 'region', 'sqft', 'opened')
      const text = await get(`/v1/api/${STORES}:text`)
      expect(text.text.split('\n')[0]).to.match(/^\s*store\s+city\s+state\s+region\s+sqft\s+opened$/)
      // Dates show to people as their type:date format does: mm/dd/yy.
      expect(text.text.split('\n')[2]).to.match(/\d{2}\/\d{2}\/\d{2}\s*$/)
      const html = await get(`/v1/api/${STORES}`)
      expect(html.type).to.equal('text/html')
      expect(html.text).to.contain(`<title>${STORES}</title>`).and.to.contain(`href="/v1/api/${STORES}:json.keyed"`)
      expect(html.text.match(/<tr>/g)).to.have.length(101)
    })

    it('!cols reports the columns of the catalog record, labels, descriptions and formats included', async () => {
      const res = await get(`/v1/api/${ITEM}/!cols:json`, olga)
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.have.keys('name', 'label', 'desc', 'type', 'fixed', 'width', 'format')
      expect(res.body.name).to.deep.equal(ITEM_COLS)
      expect(res.body.type).to.deep.equal(['i', 'i', 'i', 'i', 'i', 'i', 'f', 'f', 'a'])
      expect(res.body.label.slice(0, 2)).to.deep.equal(['Transaction ID', 'Date'])
      expect(res.body.desc[6]).to.equal('Amount paid, after discounts')
      expect(res.body.format[1]).to.equal('type:date;width:10') // the width, in the format too (SPEC 2.3)
    })

    it('!rows answers the row count of the table', async () => {
      expect((await get(`/v1/api/${ITEM}/!rows:json`, olga)).body).to.equal(DEMO_ROWS)
      expect((await get(`/v1/api/${ITEM}/!rows:text`, olga)).text).to.equal(`${DEMO_ROWS}\n`)
    })

    it('!data?range_=&to_= returns exactly those rows, as SQL reads them (text and date columns too)', async () => {
      const sql = await post('/v1/api/sql:json', olga).send({ sql: `select * from ${ITEM} limit 10 offset 1000` })
      expect(sql.status, sql.text).to.equal(200)
      const res = await get(`/v1/api/${ITEM}/!data:json?range_=1000&to_=1010`, olga)
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.deep.equal(sql.body)
      expect(res.body.payment.every((p: unknown) => typeof p === 'string')).to.equal(true)
      expect(res.body.date.every((d: unknown) => typeof d === 'number' && d > 19000101)).to.equal(true)
    })

    it('!data takes range_ alone, to_ alone, clips out-of-range bounds, and answers every shape', async () => {
      const tail = await get(`/v1/api/${ITEM}/!data:json?range_=${DEMO_ROWS - 3}`)
      expect(tail.body.trans).to.have.length(3)
      const last = await post('/v1/api/sql:json').send({ sql: `select trans from ${ITEM} limit 3 offset ${DEMO_ROWS - 3}` })
      expect(tail.body.trans).to.deep.equal(last.body.trans)
      const first = await get(`/v1/api/${ITEM}/!data:json?to_=2`)
      expect(first.body.trans).to.deep.equal((await get(`/v1/api/${ITEM}:json?to_=2`)).body.trans)
      expect(first.body.trans).to.have.length(2)
      expect((await get(`/v1/api/${ITEM}/!data:json?range_=${DEMO_ROWS + 5}&to_=${DEMO_ROWS + 9}`)).body.trans).to.deep.equal([])
      const rows = await get(`/v1/api/${ITEM}/!data:json.rows?range_=5&to_=7`)
      expect(rows.body.cols).to.deep.equal(ITEM_COLS)
      expect(rows.body.rows).to.have.length(2)
      const keyed = await post(`/v1/api/${ITEM}/@index/data:json.keyed?range_=5&to_=7`)
      expect(keyed.body.map((r: { trans: number }) => r.trans)).to.deep.equal(rows.body.rows.map((r: number[]) => r[0]))
    })

    it('!head answers the columns, the row count and the first 500 rows', async () => {
      const res = await get(`/v1/api/${ITEM}/!head:json`, olga)
      expect(res.body.cols.name).to.deep.equal(ITEM_COLS)
      expect(res.body.rows).to.equal(DEMO_ROWS)
      expect(res.body.data.trans).to.have.length(500)
      const sql = await post('/v1/api/sql:json', olga).send({ sql: `select trans, payment from ${ITEM} limit 500` })
      expect(res.body.data.trans).to.deep.equal(sql.body.trans)
      expect(res.body.data.payment).to.deep.equal(sql.body.payment)
    })

    it('answers an unknown method of a table with 404', async () => {
      const res = await get(`/v1/api/${ITEM}/!frob:json`)
      expect(res.status).to.equal(404)
      expect(res.body.error).to.contain('!frob')
    })

    it('serves a table its own list shares, inside a folder the caller may not read', async () => {
      const res = await get('/v1/api/vault.shared:json', olga)
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.deep.equal({ amount: [1.5, 2.25], note: ['first', 'second'] })
    })
  })

  describe('what the caller may not read', () => {
    const cases = [
      { what: 'a top-level folder', hidden: 'vault', missing: 'nothing' },
      { what: 'a table in an unreadable folder', hidden: 'vault.ledger', missing: 'vault.nothing' },
      { what: 'a folder in a readable folder', hidden: 'pub.hidden', missing: 'pub.nothing' },
      { what: 'a table in a readable folder', hidden: 'pub.secret_sales', missing: 'pub.no_sales' },
    ]
    for (const c of cases) {
      it(`answers ${c.what} exactly like a missing path, also under !data and !rows`, async () => {
        expect((await get(`/v1/api/${c.hidden}:json`)).status, 'admin reads it').to.equal(200)
        for (const sub of [':json', '/!data:json', '/!rows:json', ':text']) {
          const hidden = await get(`/v1/api/${c.hidden}${sub}`, olga)
          const missing = await get(`/v1/api/${c.missing}${sub}`, olga)
          expect(hidden.status).to.equal(404)
          expect(hidden.body.code).to.equal('not_found')
          expect(hidden.body.error).to.equal(`No such endpoint, folder or table "${c.hidden}"; see api:json for the endpoints and api/ls for folders.`)
          expect(hidden.type).to.equal(missing.type)
          expect(shape(hidden.body, c.hidden)).to.equal(shape(missing.body, c.missing))
        }
      })
    }

    it('changes nothing in the catalog by being asked', async () => {
      const before = await catalogSnapshot(svc())
      await get('/v1/api/vault.ledger/!head:json', olga)
      await get('/v1/api/ls/vault:json', olga)
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })
  })

  describe('other paths', () => {
    it('answers an unknown name, an unknown dotted path and an invalid name with 404 not_found', async () => {
      for (const path of ['nope', 'pub.demo.nope', 'Pub.Demo', '9lives']) {
        const res = await post(`/v1/api/${path}:json`)
        expect(res.status, path).to.equal(404)
        expect(res.body.code).to.equal('not_found')
        expect(res.body.error).to.contain(`"${path}"`).and.to.contain('api/ls')
      }
    })

    it('keeps api/{digits} for instances', async () => {
      const unknown = await post('/v1/api/987654:json')
      expect(unknown.status).to.equal(404)
      expect(unknown.body.error).to.match(/no such instance 987654/i)
      const tag = (await post('/v1/api/new/sql:json').send({})).body.tag
      const res = await post(`/v1/api/${tag}:json`).send({ sql: 'select 7 as seven' })
      expect(res.body).to.deep.equal({ seven: [7] })
      expect((await get(`/v1/api/${tag}/!rows:json`)).body).to.equal(1)
    })

    it('never lets a folder shadow a built-in endpoint: such a folder is reached through api/ls', async () => {
      await ensureDir(svc().deps.store, { path: 'sql', owner: 'admin', users: ['*'], inherit: false })
      const builtin = await post('/v1/api/sql:json').send({ sql: 'select 1 as one' })
      expect(builtin.body).to.deep.equal({ one: [1] })
      expect((await get('/v1/api/ls/sql:json')).body.path).to.deep.equal([])
      const dbmCols = await get('/v1/api/dbm/!cols:json')
      expect(dbmCols.status).to.equal(404)
      expect(dbmCols.body.code).to.equal('not_found')
    })

    it('asks for a session like every endpoint', async () => {
      expect((await svc().http.get(`/v1/api/${STORES}:json`)).status).to.equal(403)
      expect((await svc().http.get('/v1/api/ls:json')).status).to.equal(403)
    })
  })
})

forEachStore(
  'object URLs with MAX_RESULT_ROWS=100',
  (svc) => {
    const session = loggedIn(svc)
    const { get } = session

    it('refuses a whole table of more rows with 413, telling to read it with !data, range_ and to_', async () => {
      for (const path of [`/v1/api/${ITEM}:json`, `/v1/api/${ITEM}/!data:json`, `/v1/api/${ITEM}/!data:json?range_=10&to_=111`]) {
        const res = await get(path)
        expect(res.status, path).to.equal(413)
        expect(res.type).to.equal('application/json')
        expect(res.body.code).to.equal('result_too_large')
        expect(res.body.error).to.contain(ITEM).and.to.contain(`api/${ITEM}/!data?range_=0&to_=100`).and.to.contain('MAX_RESULT_ROWS')
      }
      // Without a suffix the same error is an HTML page (the workbench's error page).
      const html = await get(`/v1/api/${ITEM}`)
      expect(html.status).to.equal(413)
      expect(html.type).to.equal('text/html')
      expect(html.text).to.contain(`api/${ITEM}/!data?range_=0&amp;to_=100`).and.to.contain('result_too_large')
    })

    it('serves ranges of at most that many rows, and tables that fit', async () => {
      expect((await get(`/v1/api/${ITEM}/!data:json?range_=0&to_=100`)).body.trans).to.have.length(100)
      expect((await get(`/v1/api/${ITEM}/!data:json?range_=${DEMO_ROWS - 40}`)).body.trans).to.have.length(40)
      expect((await get(`/v1/api/${ITEM}:json?range_=7&to_=9`)).body.trans).to.have.length(2)
      expect((await get(`/v1/api/${ITEM}/!rows:json`)).body).to.equal(DEMO_ROWS)
      expect((await get(`/v1/api/${ITEM}/!head:json`)).body.rows).to.equal(DEMO_ROWS)
      const stores = await get(`/v1/api/${STORES}:json`)
      expect(stores.status, stores.text).to.equal(200)
      expect(stores.body.store).to.have.length(100)
    })
  },
  { MAX_RESULT_ROWS: '100' },
)
