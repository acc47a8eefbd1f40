/**
 * The client library against a gateway process: every method, every result format, and errors
 * as TabulaError carrying the API's status, code and message.
 */
import { expect } from 'chai'
import { tableFromIPC } from 'apache-arrow'
import { Client, type RowsResult } from '../../client/index.js'
import { ADMIN_PASSWORD, adminClient, failure, startGateway, type Gateway } from './helpers.js'

const Q = 'select store, count(*) n from pub.demo.retail.item where store <= 3 group by store order by store'

describe('client: library against the API', function () {
  this.timeout(60_000)
  let g: Gateway
  let c: Client
  before(async () => {
    g = await startGateway()
    c = await adminClient(g)
  })
  after(async () => {
    await g?.close()
  })

  it('asks for CSV (text), Arrow and Parquet (bytes) with the format option', async () => {
    const rows = (await c.sql(Q, { format: 'json.rows' })).rows
    expect(await c.sql(Q, { format: 'csv' })).to.equal('store,n\r\n' + rows.map((r) => `${r.join(',')}\r\n`).join(''))
    const arrow = await c.results('sql').data({ format: 'arrow' })
    expect(arrow).to.be.instanceOf(Uint8Array)
    const t = tableFromIPC(arrow)
    expect(t.schema.fields.map((f) => f.name)).to.deep.equal(['store', 'n'])
    expect(t.numRows).to.equal(3)
    const parquet = await c.results('sql').data({ format: 'parquet' })
    // A Parquet file starts and ends with the magic bytes PAR1.
    expect(Buffer.from(parquet.subarray(0, 4)).toString()).to.equal('PAR1')
    expect(Buffer.from(parquet.subarray(parquet.length - 4)).toString()).to.equal('PAR1')
  })

  it('logs in from the root URL and the version, building the cookie from uid|sid|epw', async () => {
    const other = new Client({ baseUrl: g.url, version: 'v1' })
    const s = await other.login('admin', ADMIN_PASSWORD)
    expect(s.uid).to.equal('admin')
    expect(other.apiBase).to.equal(g.api)
    // A client given only those three parts is logged in too.
    const copy = new Client({ baseUrl: g.url, session: s })
    expect(await copy.sql('select 7 as x')).to.deep.equal({ x: [7] })
  })

  it('answers sql in every format', async () => {
    const json = await c.sql(Q)
    expect(json.store).to.deep.equal([1, 2, 3])
    const rows = await c.sql(Q, { format: 'json.rows' })
    expect(rows.cols).to.deep.equal(['store', 'n'])
    expect(rows.rows.map((r) => r[0])).to.deep.equal([1, 2, 3])
    const keyed = await c.sql(Q, { format: 'json.keyed' })
    expect(keyed.map((r) => r.store)).to.deep.equal([1, 2, 3])
    expect(keyed.map((r) => r.n)).to.deep.equal(json.n)
    const text = await c.sql(Q, { format: 'text' })
    expect(text).to.be.a('string').and.match(/store/)
  })

  it('runs macro queries, reads the kept result in parts, and saves a table', async () => {
    const xml = '<base table="pub.demo.retail.item"/><sel value="store=1"/><colord cols="trans,store"/>'
    const all = await c.run(xml, { format: 'json.rows' })
    const kept = c.results('run')
    expect(await kept.rows()).to.equal(all.rows.length)
    const cols = await kept.cols()
    expect(cols.name).to.deep.equal(['trans', 'store'])
    const part = await kept.data({ from: 1, to: 3, format: 'json.rows' })
    expect(part.rows).to.deep.equal(all.rows.slice(1, 3))
    const head = await kept.head()
    expect(head.rows).to.equal(all.rows.length)
    const saved = await c.run(xml, { savetable: 'uploads.admin.store1', title: 'Store 1' })
    expect(saved.store.every((s) => s === 1)).to.equal(true)
    const table = c.table('uploads.admin.store1')
    expect(await table.rows()).to.equal(all.rows.length)
    expect(((await table.data({ from: 0, to: 2, format: 'json.rows' })) as RowsResult).rows).to.deep.equal(all.rows.slice(0, 2))
  })

  it('reads the sql result in parts with range/to', async () => {
    await c.sql(Q)
    const part = await c.results('sql').data({ from: 1, format: 'json.keyed' })
    expect(part.map((r) => r.store)).to.deep.equal([2, 3])
  })

  it('lists folders and endpoints', async () => {
    const ls = await c.ls('pub.demo.retail', { format: 'json.keyed' })
    expect(ls.map((r) => r.name)).to.include.members(['item', 'products', 'stores'])
    const root = await c.ls()
    expect(root.name).to.include('pub')
    const api = await c.endpoints()
    expect(api.name).to.include.members(['sql', 'run', 'dbm'])
  })

  it('creates instances of apps and of queries, sets variables, and reads their results', async () => {
    const inst = await c.newInstance('sql')
    expect(inst.tag).to.be.a('number')
    await inst.sql(Q)
    expect(await inst.rows()).to.equal(3)
    expect(((await inst.data({ from: 2, format: 'json.rows' })) as RowsResult).rows).to.deep.equal([[3, (await c.sql(Q)).n[2]]])
    expect((await inst.cols()).name).to.deep.equal(['store', 'n'])
    expect(await inst.status()).to.include({ running: false })
    expect(await inst.stop()).to.equal(false)
    const same = c.instance(inst.tag)
    expect(await same.rows()).to.equal(3)
    const dyn = await c.newInstance(
      '<dynamic s="1"><widget name="index" class_="grid"><base table="pub.demo.retail.stores"/><sel value="store={@s}"/></widget></dynamic>',
    )
    const reply = (await dyn.set({ s: 5 })) as Record<string, unknown>
    expect(reply).to.be.an('object')
    const rows = await dyn.data({ format: 'json.keyed' })
    expect(rows.map((r) => r.store)).to.deep.equal([5])
  })

  it('runs dbm transactions and uploads in chunks', async () => {
    const names = await c.dbm('get_names_in_dir', { path: 'pub' })
    expect(names[1]).to.include('pub.demo')
    const seen: number[] = []
    const table = await c.upload('uploads.admin.chunked', ['a,b\n1,x\n2,y\n', 'a,b\n3,x\n'], { onChunk: (p) => seen.push(p.rows) })
    expect(seen).to.deep.equal([2, 3])
    expect(table).to.include({ path: 'uploads.admin.chunked', rows: 3 })
    expect(await c.sql("select group_concat(b, '') s from uploads.admin.chunked")).to.deep.equal({ s: ['xyx'] })
  })

  it('throws TabulaError with the API status, code, message and detail', async () => {
    const sql = await failure(c.sql('select nope from pub.demo.retail.item'))
    expect(sql).to.include({ status: 400, code: 'sql_error' })
    expect(sql.message).to.contain('nope')
    const parse = await failure(c.run('<base table="pub.demo.retail.item"'))
    expect(parse).to.include({ status: 400, code: 'parse_error' })
    const missing = await failure(c.table('pub.nothing.here').rows())
    expect(missing.status).to.equal(404)
    // dbm answers its failures with HTTP 200 and rc 1: the error still has the code's status.
    const dbm = await failure(c.dbm('make_dir', { path: 'pub' }))
    expect(dbm).to.include({ status: 409, code: 'already_exists' })
    const unknown = await failure(c.dbm('no_such_transaction' as 'list_roles', {}))
    expect(unknown.code).to.equal('unknown_transaction')
    const login = await failure(new Client({ baseUrl: g.api }).login('admin', 'not-the-password'))
    expect(login).to.include({ status: 401, code: 'bad_credentials' })
  })

  it('logs out: the session is refused afterwards with no_session', async () => {
    const d = await adminClient(g)
    const parts = d.session!
    await d.logout()
    expect(d.session).to.equal(null)
    const err = await failure(new Client({ baseUrl: g.api, session: parts }).sql('select 1'))
    expect(err).to.include({ status: 403, code: 'no_session' })
    expect(err.isSessionError).to.equal(true)
    // The shared session of `c` was ended by that logout too (one session per user): log in again.
    await c.login('admin', ADMIN_PASSWORD)
  })
})
