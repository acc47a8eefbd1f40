/**
 * Issue 17, the metadata and dbm rows, through HTTP: `!cols` formats carry the column's width;
 * metadata read from `!cols` can be sent back to upload_table as it is; a table shared on its
 * own is readable by its path; every dbm transaction reports a missing required parameter the
 * same way; a Content-Length that does not match the body gets a JSON answer; and the node
 * client's version, prime-latest, is served without configuration.
 */
import { expect } from 'chai'
import net from 'node:net'
import { dbm, dbmFails, dbmOk, userCookie } from '../helpers/dbm.js'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

type Columns = Record<string, unknown[]>

/** The rows of a column-major table as objects, one per row. */
function rowsOf(cols: Columns): Record<string, unknown>[] {
  const keys = Object.keys(cols)
  return (cols[keys[0]] ?? []).map((_, i) => Object.fromEntries(keys.map((k) => [k, cols[k][i]])))
}

interface Catalogue {
  name: string[]
  params: { name: string; type: string; required: boolean; values?: string[] }[][]
  one_of: string[][][]
}

/** A value of the parameter's type that passes validation, so only the one left out is missing. */
function sample(p: Catalogue['params'][number][number]): unknown {
  switch (p.type) {
    case 'string':
      return p.values?.[0] ?? 'x'
    case 'path':
      return 'nowhere.at_all'
    case 'name':
      return 'nobody'
    case 'names':
      return ['nobody']
    case 'boolean':
      return true
    case 'integer':
      return 1
    case 'object':
      return {}
    case 'array':
      return []
    default:
      return 1
  }
}

forEachStore('conformance: metadata and dbm (issue 17)', (svc) => {
  let admin: string
  let alice: string
  let bob: string
  let carol: string
  before(async () => {
    admin = await svc().login()
    alice = await userCookie(svc(), 'cm_alice', { roles: ['folder_creator'] })
    bob = await userCookie(svc(), 'cm_bob')
    carol = await userCookie(svc(), 'cm_carol')
  })

  const run = async (cookie: string, xml: string) => svc().http.post('/v1/api/run:json').set('Cookie', cookie).send({ xml })
  const cols = async (cookie: string): Promise<Columns> => {
    const res = await svc().http.post('/v1/api/run/!cols:json').set('Cookie', cookie)
    expect(res.status, res.text).to.equal(200)
    return res.body as Columns
  }

  describe('!cols format', () => {
    it("carries every column's width:<n>, the same number as its width", async () => {
      for (const table of ['pub.demo.retail.stores', 'pub.demo.retail.item', 'pub.demo.retail.products']) {
        expect((await run(admin, `<base table="${table}"/>`)).status).to.equal(200)
        const meta = await cols(admin)
        meta.name.forEach((name, i) => {
          const widths = [...String(meta.format[i]).matchAll(/(?:^|;)width:(\d+)/g)].map((m) => Number(m[1]))
          expect(widths, `${table}.${String(name)}: ${String(meta.format[i])}`).to.deep.equal([meta.width[i]])
        })
      }
    })

    it("keeps a column's own width (state: 2) and puts it in formats that gave none (type:nocommas, type:date)", async () => {
      await run(admin, '<base table="pub.demo.retail.stores"/>')
      const meta = rowsOf(await cols(admin))
      const of = (name: string) => meta.find((m) => m.name === name)!
      expect(of('state')).to.include({ width: 2, format: 'type:char;width:2' })
      expect(of('store')).to.include({ width: 10, format: 'type:nocommas;width:10' })
      expect(of('opened')).to.include({ width: 10, format: 'type:date;width:10' })
      expect(of('sqft')).to.include({ width: 10, format: 'type:num;width:10;dec:0' })
      // dbm reports the same metadata as !cols.
      const dbmCols = await dbmOk<Columns>(svc(), admin, 'get_table_cols', { path: 'pub.demo.retail.stores' })
      expect(rowsOf(dbmCols)).to.deep.equal(meta)
    })
  })

  describe('upload_table with the type letters !cols reports', () => {
    it('takes !cols metadata back unchanged, and the table reads back with the same metadata and values', async () => {
      const xml = '<base table="pub.demo.retail.stores"/><willbe name="ratio" value="sqft/7" format="type:num;dec:3"/>'
      const original = await run(admin, xml)
      expect(original.status, original.text).to.equal(200)
      const meta = await cols(admin)
      expect([...new Set(meta.type)].sort()).to.deep.equal(['a', 'f', 'i'])
      const r = await dbmOk<{ cols: { name: string; type: string }[] }>(svc(), admin, 'upload_table', {
        path: 'cm_roundtrip',
        cols: rowsOf(meta),
        data: original.body,
      })
      // The letters became our types: the date column (i with type:date) stays a date.
      expect(r.cols.map((c) => c.type)).to.deep.equal(['int', 'text', 'text', 'text', 'int', 'date', 'float'])
      const back = await run(admin, '<base table="uploads.admin.cm_roundtrip"/>')
      expect(back.body).to.deep.equal(original.body)
      expect(await cols(admin)).to.deep.equal(meta)
    })

    it('reads i, j, f and a as int, bigint, float and text', async () => {
      const r = await dbmOk<{ cols: { name: string; type: string }[] }>(svc(), admin, 'upload_table', {
        path: 'cm_letters',
        cols: [
          { name: 'a', type: 'i' },
          { name: 'b', type: 'j' },
          { name: 'c', type: 'f' },
          { name: 'd', type: 'a' },
        ],
        data: { a: [1], b: [9007199254740991], c: [1.5], d: [7] },
      })
      expect(r.cols.map((c) => c.type)).to.deep.equal(['int', 'bigint', 'float', 'text'])
      expect((await run(admin, '<base table="uploads.admin.cm_letters"/>')).body).to.deep.equal({ a: [1], b: [9007199254740991], c: [1.5], d: ['7'] })
    })

    it('still refuses a type that is neither ours nor a letter, naming both kinds', async () => {
      await dbmFails(svc(), admin, 'upload_table', { path: 'cm_bad', cols: [{ name: 'a', type: 'k' }], data: { a: [1] } }, /int, float, text, date.*i, j, f, a/)
    })
  })

  describe('share of one table', () => {
    before(async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'cm_private', users: [], inherit: false })
      await dbmOk(svc(), alice, 'upload_table', { path: 'cm_private.t', data: { x: [1, 2, 3] } })
    })

    it('lets the user read the table by its path (run, sql, dbm) while the folder stays hidden', async () => {
      expect((await run(bob, '<base table="cm_private.t"/>')).status).to.equal(404)
      expect(await dbmOk(svc(), alice, 'share', { path: 'cm_private.t', add: ['cm_bob'] })).to.deep.equal({ users: ['cm_bob'], inherit: 1 })
      const ran = await run(bob, '<base table="cm_private.t"/>')
      expect(ran.status, ran.text).to.equal(200)
      expect(ran.body).to.deep.equal({ x: [1, 2, 3] })
      const sql = await svc().http.post('/v1/api/sql:json').set('Cookie', bob).send({ sql: 'select sum(x) s from cm_private.t' })
      expect(sql.body).to.deep.equal({ s: [6] })
      expect(await dbmOk(svc(), bob, 'get_table_info', { path: 'cm_private.t', include: ['path', 'rows'] })).to.deep.equal({ path: 'cm_private.t', rows: 3 })
      expect((await dbmOk<Columns>(svc(), bob, 'get_table_cols', { path: 'cm_private.t' })).name).to.deep.equal(['x'])
      // The folder: as hidden as before.
      await dbmFails(svc(), bob, 'get_names_in_dir', { path: 'cm_private' }, /no such directory "cm_private"/i)
      await dbmFails(svc(), bob, 'get_dir_info', { path: 'cm_private' }, /no such directory/i)
      // Nobody else gained anything.
      expect((await run(carol, '<base table="cm_private.t"/>')).status).to.equal(404)
    })

    it('takes the right away again with remove', async () => {
      await dbmOk(svc(), alice, 'share', { path: 'cm_private.t', remove: ['cm_bob'] })
      expect((await run(bob, '<base table="cm_private.t"/>')).status).to.equal(404)
      await dbmFails(svc(), bob, 'get_table_info', { path: 'cm_private.t' }, /no such table/i)
    })
  })

  describe('required parameters', () => {
    it('get_names_in_dir without path: rc 1 naming "path"; "" still lists the root', async () => {
      const r = await dbm(svc(), admin, 'get_names_in_dir', {})
      expect(r).to.include({ rc: 1, code: 'missing_parameter' })
      expect(r.msg).to.contain('"path"')
      const [kinds, names] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: '' })
      expect(names).to.include('pub')
      expect(kinds[names.indexOf('pub')]).to.equal('dir')
    })

    it('every transaction reports each missing required parameter, and each missing one-of group, the same way', async () => {
      const cat = await dbmOk<Catalogue>(svc(), admin, 'list_transactions')
      let checked = 0
      for (let t = 0; t < cat.name.length; t++) {
        const params = cat.params[t]
        const required = params.filter((p) => p.required)
        const full = Object.fromEntries(required.map((p) => [p.name, sample(p)]))
        for (const p of required) {
          const { [p.name]: _left, ...rest } = full
          const r = await dbm(svc(), admin, cat.name[t], rest)
          expect(r, `${cat.name[t]} without ${p.name}`).to.include({ rc: 1, code: 'missing_parameter' })
          expect(r.msg).to.contain(`Transaction "${cat.name[t]}" needs the parameter "${p.name}"`)
          checked++
        }
        for (const group of cat.one_of[t]) {
          const r = await dbm(svc(), admin, cat.name[t], full)
          expect(r, `${cat.name[t]} without any of ${group.join(', ')}`).to.include({ rc: 1, code: 'missing_parameter' })
          expect(r.msg).to.contain(`Transaction "${cat.name[t]}" needs ${group.map((n) => `"${n}"`).join(' or ')}`)
          checked++
        }
      }
      // The catalogue has dozens of required parameters; a walk that checked few walked nothing.
      expect(checked).to.be.greaterThan(40)
      const at = (name: string) => cat.name.indexOf(name)
      expect(cat.params[at('get_names_in_dir')].find((p) => p.name === 'path')).to.include({ required: true })
      expect(cat.one_of[at('upload_table')]).to.deep.equal([['data', 'csv', 'parquet', 'arrow']])
    })
  })
})

/** A request written to a raw connection and what came back before the server closed it. */
function rawRequest(
  svc: TestService,
  head: string,
  body: Buffer,
  opts: { halfClose?: boolean; waitMs?: number } = {},
): Promise<{ status: number; headers: string; body: string; closedAfterMs: number }> {
  const port = Number(new URL(svc.http.get('/').url).port)
  return new Promise((resolve, reject) => {
    const began = Date.now()
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true })
    const chunks: Buffer[] = []
    const giveUp = setTimeout(() => finish(Number.POSITIVE_INFINITY), opts.waitMs ?? 15_000)
    function finish(closedAfterMs: number): void {
      clearTimeout(giveUp)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, split), body: text.slice(split + 4), closedAfterMs })
    }
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('end', () => finish(Date.now() - began))
    socket.on('error', (err) => (chunks.length === 0 ? reject(err) : finish(Date.now() - began)))
    socket.on('connect', () => {
      socket.write(head)
      socket.write(body)
      if (opts.halfClose) socket.end()
    })
  })
}

describe('conformance: Content-Length and versions (issue 17)', function () {
  this.timeout(60_000)
  const BODY_TIMEOUT_MS = 700
  let svc: TestService
  before(async function () {
    this.timeout(90_000)
    svc = await startTestService('memory', { BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) })
  })
  const session = loggedIn(() => svc)
  after(async () => svc?.close())

  /** A make_dir whose title is non-ASCII, padded with one space so that a body cut one byte short is still valid JSON. */
  const makeDir = (path: string) => `${JSON.stringify({ cmd: ['make_dir', { path, title: 'Zürich' }] })} `
  const head = (declared: number) =>
    `POST /v1/api/dbm:json HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${session.cookie}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`
  const exists = async (path: string) => (await dbm(svc, session.cookie, 'get_dir_info', { path })).rc === 0

  it('answers a Content-Length counted in UTF-16 units (the node client) with a JSON 400, and does not act on the cut body', async () => {
    const text = makeDir('cm_short')
    const bytes = Buffer.from(text, 'utf8')
    expect(bytes.length).to.equal(text.length + 1)
    const reply = await rawRequest(svc, head(text.length), bytes)
    expect(reply.status, reply.headers).to.equal(400)
    expect(reply.headers)
      .to.match(/content-type: application\/json/i)
      .and.match(/connection: close/i)
    const answer = JSON.parse(reply.body) as { code: string; error: string; detail: { contentLength: number } }
    expect(answer.code).to.equal('body_length_mismatch')
    expect(answer.error)
      .to.match(/longer than its Content-Length \(\d+ bytes\)/)
      .and.contain('UTF-8')
    expect(answer.detail.contentLength).to.equal(text.length)
    expect(reply.closedAfterMs).to.be.below(5_000)
    // The first text.length bytes were a whole, valid request: it must not have run.
    await new Promise((r) => setTimeout(r, 200))
    expect(await exists('cm_short')).to.equal(false)
  })

  it('answers a Content-Length larger than the body with a JSON 400 when the client ends its side', async () => {
    const bytes = Buffer.from(makeDir('cm_long_end'), 'utf8')
    const reply = await rawRequest(svc, head(bytes.length + 3), bytes, { halfClose: true })
    expect(reply.status, reply.headers).to.equal(400)
    const answer = JSON.parse(reply.body) as { code: string; error: string }
    expect(answer.code).to.equal('body_length_mismatch')
    expect(answer.error).to.contain(`before the ${bytes.length + 3} bytes its Content-Length declares`)
    expect(await exists('cm_long_end')).to.equal(false)
  })

  it('answers a Content-Length larger than the body, the client waiting, at BODY_TIMEOUT_MS with JSON naming the length', async () => {
    const bytes = Buffer.from(makeDir('cm_long_wait'), 'utf8')
    const reply = await rawRequest(svc, head(bytes.length + 3), bytes)
    expect(reply.status, reply.headers).to.equal(408)
    const answer = JSON.parse(reply.body) as { code: string; error: string }
    expect(answer.code).to.equal('body_timeout')
    expect(answer.error).to.contain(`fewer bytes came than the ${bytes.length + 3} its Content-Length declares`)
    expect(reply.closedAfterMs)
      .to.be.at.least(BODY_TIMEOUT_MS - 50)
      .and.below(BODY_TIMEOUT_MS + 8_000)
    expect(await exists('cm_long_wait')).to.equal(false)
  })

  it('still serves the same body with its length counted in bytes', async () => {
    const bytes = Buffer.from(makeDir('cm_exact'), 'utf8')
    const reply = await rawRequest(svc, head(bytes.length), bytes, { halfClose: true })
    expect(reply.status, reply.body).to.equal(200)
    expect(JSON.parse(reply.body)).to.deep.include({ rc: 0 })
    expect(await exists('cm_exact')).to.equal(true)
  })

  it("serves prime-latest, the node client's version, without API_VERSIONS being set", async () => {
    expect(svc.deps.config.apiVersions).to.deep.equal(['v1', 'prime-latest'])
    const login = await svc.http.post('/prime-latest/api/!login:json').type('form').send({ uid: 'admin', pw: 'admin-secret-1' })
    expect(login.status, login.text).to.equal(200)
    const c = `session=${login.body.uid}|${login.body.sid}|${login.body.epw}`
    const names = await svc.http
      .post('/prime-latest/api/dbm:json')
      .set('Cookie', c)
      .send({ cmd: ['get_names_in_dir', { path: 'pub' }] })
    expect(names.body).to.deep.include({ rc: 0 })
    expect((names.body as { value: string[][] }).value[1]).to.include('pub.demo')
    expect((await svc.http.post('/v2/api/sql:json').set('Cookie', c).send({ sql: 'select 1' })).body.error).to.contain('v1, prime-latest')
  })
})
