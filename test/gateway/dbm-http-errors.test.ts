/**
 * api/dbm answers a transaction that fails with HTTP 200 and rc 1, so that macro callers see its
 * message. The HTTP errors it gives are exactly those that stop a request before any transaction
 * can run (session, origin, method, body, format), and the service failing (5xx, tested with the
 * Store away in test/faults/redis-outage.test.ts). Each is checked here, and that nothing moved.
 */
import { expect } from 'chai'
import { catalogSnapshot } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'

describe('api/dbm: which failures are HTTP errors', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string
  let before_: Record<string, unknown>

  before(async () => {
    svc = await startTestService('memory', { MAX_BODY_BYTES: '4096', MAX_FORM_FIELDS: '20' })
    admin = await svc.login()
    before_ = await catalogSnapshot(svc)
  })
  after(async () => svc?.close())

  const post = (suffix = ':json') => svc.http.post(`/v1/api/dbm${suffix}`).set('Cookie', admin)
  const MAKE_DIR = JSON.stringify({ cmd: ['make_dir', { path: 'httperr' }] })

  it('answers a failed transaction HTTP 200 with rc 1: bad cmd, unknown transaction, bad or missing parameter, no permission', async () => {
    for (const cmd of ['not json', ['frobnicate', {}], ['make_dir', { path: 'x', nonsense: 1 }], ['make_dir', {}], ['get_user', { uid: 'nobody_here' }]]) {
      const reply = await post().send({ cmd })
      expect(reply.status, JSON.stringify(cmd)).to.equal(200)
      expect(reply.body.rc, JSON.stringify(cmd)).to.equal(1)
    }
  })

  const httpErrors: [string, () => Promise<{ status: number; body: { code?: string } }>, number, string][] = [
    ['no session', () => svc.http.post('/v1/api/dbm:json').type('json').send(MAKE_DIR), 403, 'no_session'],
    [
      'a request from another site',
      () => post().set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site').type('json').send(MAKE_DIR),
      403,
      'cross_site',
    ],
    ['GET', () => svc.http.get('/v1/api/dbm:json').set('Cookie', admin).query({ cmd: '["make_dir",{"path":"httperr"}]' }), 405, 'method_not_allowed'],
    ['a body that is not JSON', () => post().type('json').send('{"cmd": ['), 400, 'bad_json'],
    ['a JSON body that is not an object', () => post().type('json').send('[1,2]'), 400, 'invalid_parameter'],
    [
      'a body over MAX_BODY_BYTES',
      () =>
        post()
          .type('json')
          .send(JSON.stringify({ cmd: ['make_dir', { path: 'httperr', title: 'x'.repeat(5000) }] })),
      413,
      'body_too_large',
    ],
    [
      'a form over MAX_FORM_FIELDS',
      () =>
        post()
          .type('form')
          .send(Array.from({ length: 30 }, (_, i) => `f${i}=1`).join('&')),
      413,
      'body_too_large',
    ],
    ['a body of a type not read', () => post().type('text/plain').send(MAKE_DIR), 415, 'unsupported_media_type'],
    ['a format its reply cannot take', () => post(':csv').type('json').send(MAKE_DIR), 400, 'invalid_parameter'],
    ['an unknown format', () => post(':yaml').type('json').send(MAKE_DIR), 400, 'invalid_parameter'],
  ]
  for (const [what, send, status, code] of httpErrors) {
    it(`answers ${what} with HTTP ${status} ${code}, before any transaction runs`, async () => {
      const res = await send()
      expect(res.status, JSON.stringify(res.body)).to.equal(status)
      expect(res.body.code).to.equal(code)
    })
  }

  it('changed nothing in the catalog through any of them', async () => {
    expect(await catalogSnapshot(svc)).to.deep.equal(before_)
  })
})
