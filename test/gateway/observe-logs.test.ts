/**
 * Request ids and structured logs (issue 9): every answer has an X-Request-Id, every error body
 * (4xx and 5xx, JSON and HTML) carries the same id, and the JSON log line of the request has it
 * too. A well-formed id sent by the caller is kept, anything else replaced. The gateway runs with
 * a real pino logger writing into a stream the test reads, so redaction and levels are pino's
 * own; passwords never reach a line, whichever way they were sent.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import supertest from 'supertest'
import { loadConfig } from '../../shared/config.js'
import { createMemoryStore } from '../../shared/store/index.js'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps, closeDeps } from '../../gateway/compose.js'
import type { Deps } from '../../gateway/deps.js'
import { createPino, pinoLog, REDACTED, requestIdOf } from '../../gateway/observe/index.js'
import type { QueryRunner } from '../../gateway/pool/runner.js'
import { ensureAdmin } from '../../gateway/catalog/seed.js'

const ADMIN_PASSWORD = 'Logged-Never-4411'
const SECRET = 'Walrus-Topaz-9182'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

type Line = Record<string, unknown>

/** A gateway in this process whose pino output lands in `lines`, one parsed object each. */
interface LoggedGateway {
  readonly deps: Deps
  readonly http: ReturnType<typeof supertest>
  readonly lines: Line[]
  /** The same gateway with another runner (to make the engine fail). */
  withRunner(runner: QueryRunner): ReturnType<typeof supertest>
  close(): Promise<void>
}

async function startLoggedGateway(level: 'debug' | 'warn' = 'debug'): Promise<LoggedGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-logs-'))
  const config = loadConfig({ DATA_DIR: dataDir, WORKERS: '1', ADMIN_PASSWORD, DEMO_DATA: '0' })
  const store = createMemoryStore({ dataDir })
  await store.connect()
  const lines: Line[] = []
  const destination = { write: (text: string) => void lines.push(JSON.parse(text) as Line) }
  const deps = await buildDeps(config, pinoLog(createPino({ level, destination })), store)
  await ensureAdmin(deps.store, config)
  return {
    deps,
    http: supertest(createApp(deps).callback()),
    lines,
    withRunner: (runner) => supertest(createApp({ ...deps, runner }).callback()),
    async close() {
      await closeDeps(deps)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

describe('request ids and JSON logs', () => {
  let gw: LoggedGateway
  let cookie: string
  before(async function () {
    this.timeout(60_000)
    gw = await startLoggedGateway()
    const res = await gw.http.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: ADMIN_PASSWORD })
    expect(res.status, res.text).to.equal(200)
    cookie = `session=${res.body.uid}|${res.body.sid}|${res.body.epw}`
  })
  after(async () => {
    await gw?.close()
  })

  const accessLine = (requestId: string): Line | undefined => gw.lines.find((l) => l.msg === 'request' && l.requestId === requestId)

  it('puts the X-Request-Id of the answer into every 4xx error body and into the log line', async () => {
    const cases: [string, () => Promise<supertest.Response>, number, string][] = [
      ['no such endpoint', () => gw.http.get('/v1/api/no/such/endpoint/here:json'), 404, 'not_found'],
      ['unknown version', () => gw.http.get('/v9/api/sql:json'), 404, 'unknown_version'],
      ['no session', () => gw.http.post('/v1/api/sql:json').send({ sql: 'select 1' }), 403, 'no_session'],
      ['wrong password', () => gw.http.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: SECRET }), 401, 'bad_credentials'],
      ['wrong method', () => gw.http.get('/v1/api/!login:json'), 405, 'method_not_allowed'],
      ['bad JSON', () => gw.http.post('/v1/api/sql:json').set('Cookie', cookie).type('json').send('{"sql": '), 400, 'bad_json'],
      ['missing parameter', () => gw.http.post('/v1/api/sql:json').set('Cookie', cookie).send({}), 400, 'missing_parameter'],
      ['bad SQL', () => gw.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1 +' }), 400, 'sql_error'],
    ]
    const ids = new Set<string>()
    for (const [label, request, status, code] of cases) {
      const res = await request()
      expect(res.status, `${label}: ${res.text}`).to.equal(status)
      const id = res.headers['x-request-id']
      expect(id, label).to.match(UUID)
      expect(res.body, label).to.include({ code, requestId: id })
      const line = accessLine(id)
      expect(line, `${label}: a log line with the id`).to.not.equal(undefined)
      expect(line, label).to.include({ level: 'info', status, requestId: id })
      expect(line!.route, label).to.be.a('string')
      ids.add(id)
    }
    expect(ids.size, 'a new id per request').to.equal(cases.length)
  })

  it('puts it into a 5xx body and its error line with the cause', async () => {
    const failing: QueryRunner = { pending: 0, run: () => Promise.reject(new Error('the engine fell over')), close: async () => undefined }
    const res = await gw.withRunner(failing).post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1 as one' })
    expect(res.status, res.text).to.equal(500)
    const id = res.headers['x-request-id']
    expect(res.body).to.deep.equal({ error: 'Internal error', code: 'internal', requestId: id })
    const error = gw.lines.find((l) => l.level === 'error' && l.requestId === id)
    expect(error, 'an error line with the id').to.not.equal(undefined)
    expect(String(error!.err)).to.include('the engine fell over')
    expect(accessLine(id)).to.include({ status: 500 })
  })

  it('shows the id on the HTML error page of a browser request', async () => {
    const res = await gw.http.get('/v1/api/no/such/page').set('Cookie', cookie)
    expect(res.status).to.equal(404)
    const id = res.headers['x-request-id']
    expect(res.text).to.include(`Request id <code>${id}</code>`)
  })

  it('gives successful answers an id too, logged only at debug', async () => {
    const res = await gw.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 2 as two' })
    expect(res.status, res.text).to.equal(200)
    const id = res.headers['x-request-id']
    expect(id).to.match(UUID)
    expect(accessLine(id)).to.include({ level: 'debug', method: 'POST', route: 'sql', path: '/v1/api/sql:json', status: 200 })
    expect(accessLine(id)!.ms).to.be.a('number')
    expect(accessLine(id)!.time, 'ISO time').to.match(/^\d{4}-\d\d-\d\dT/)
  })

  it('keeps a well-formed incoming X-Request-Id and replaces any other', async () => {
    const kept = await gw.http.get('/v1/api/nowhere:json').set('X-Request-Id', 'lb-7f3a.92:c_1')
    expect(kept.headers['x-request-id']).to.equal('lb-7f3a.92:c_1')
    expect(kept.body.requestId).to.equal('lb-7f3a.92:c_1')
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '{"json":1}', '<script>']) {
      const res = await gw.http.get('/v1/api/nowhere:json').set('X-Request-Id', bad)
      expect(res.headers['x-request-id'], bad).to.match(UUID)
      expect(res.body.requestId).to.equal(res.headers['x-request-id'])
    }
    expect(requestIdOf(undefined)).to.match(UUID)
    expect(requestIdOf('')).to.match(UUID)
  })

  it('never writes a password, a session token or a cookie, however they were sent', async () => {
    await gw.http.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: SECRET })
    await gw.http.post('/v1/api/!login:json').send({ uid: 'admin', pw: SECRET, password: SECRET, nested: { pw: SECRET } })
    await gw.http.post(`/v1/api/!login:json?pw=${SECRET}`).send({ uid: 'admin' })
    await gw.http.get(`/v1/api/sql:json?sql=select+1&pw=${SECRET}`).set('Cookie', `session=admin|1|${SECRET}`)
    await gw.http
      .post('/v1/api/dbm:json')
      .set('Cookie', cookie)
      .send({ cmd: ['set_password', { old_password: SECRET, new_password: `${SECRET}-2` }] })
    const epw = cookie.split('|')[2]
    const written = JSON.stringify(gw.lines)
    expect(gw.lines.length).to.be.above(5)
    expect(written).not.to.include(SECRET)
    expect(written).not.to.include(ADMIN_PASSWORD)
    expect(written).not.to.include(epw)
  })

  it('redacts secret fields should a caller ever log them', () => {
    const before = gw.lines.length
    gw.deps.log({
      level: 'warn',
      msg: 'careless',
      pw: SECRET,
      password: SECRET,
      epw: SECRET,
      params: { pw: SECRET, new_password: SECRET, uid: 'kept' },
      headers: { cookie: `session=a|1|${SECRET}`, authorization: `Bearer ${SECRET}` },
      req: { headers: { cookie: SECRET } },
    })
    const line = gw.lines[before]
    expect(JSON.stringify(line)).not.to.include(SECRET)
    expect(line).to.include({ level: 'warn', msg: 'careless', pw: REDACTED, password: REDACTED, epw: REDACTED })
    expect(line.params).to.deep.equal({ pw: REDACTED, new_password: REDACTED, uid: 'kept' })
  })
})

describe('LOG_LEVEL', () => {
  it('is info by default and refuses a level pino does not know', () => {
    expect(loadConfig({}).logLevel).to.equal('info')
    expect(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel).to.equal('debug')
    expect(loadConfig({ LOG_LEVEL: 'silent' }).logLevel).to.equal('silent')
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).to.throw(/LOG_LEVEL must be one of/)
  })

  it('leaves out lines below the level', async function () {
    this.timeout(60_000)
    const gw = await startLoggedGateway('warn')
    try {
      const res = await gw.http.get('/no/such/place')
      expect(res.status).to.equal(404)
      gw.deps.log({ level: 'error', msg: 'kept' })
      expect(gw.lines.map((l) => l.msg)).to.deep.equal(['kept'])
    } finally {
      await gw.close()
    }
  })
})
