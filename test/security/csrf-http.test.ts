/**
 * Issue 16, part 1 (cross-site request forgery), over real HTTP against a real gateway on
 * loopback, on the memory store and on a real redis-server: every state-changing endpoint under
 * the matrix of headers a browser sends. Each refused attempt is followed by a header-less read
 * that shows nothing changed; the same request without browser headers (a non-browser client)
 * goes through and does change it, which is what makes each refusal the guard's doing.
 */
import { expect } from 'chai'
import type { Response } from 'supertest'
import { KEYS } from '../../gateway/catalog/records.js'
import { SESSION_KEYS } from '../../gateway/auth/sessions.js'
import { INSTANCE_KEYS } from '../../gateway/instances/records.js'
import { loadConfig } from '../../shared/config.js'
import { userCookie } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

/** The Host every request names: the service's own origin follows from it (TRUST_PROXY=0). */
const HOST = 'tabula.test:8080'
const OWN = `http://${HOST}`
/** The one origin ALLOWED_ORIGINS lets in. */
const NOTEBOOK = 'http://notebook.test:8888'

type Headers = Record<string, string>

/** What browsers send on requests another site makes them send. */
const CROSS_SITE: Record<string, Headers> = {
  'Sec-Fetch-Site: cross-site': { 'Sec-Fetch-Site': 'cross-site' },
  'Sec-Fetch-Site: same-site': { 'Sec-Fetch-Site': 'same-site' },
  'a foreign Origin': { Origin: 'http://evil.test' },
  'another port of the same host': { Origin: 'http://tabula.test:8081' },
  'another scheme of the same host': { Origin: 'https://tabula.test:8080' },
  'Origin: null': { Origin: 'null' },
  'cross-site with its Origin': { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.test' },
  'same-origin claimed with a foreign Origin': { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.test' },
  'only a foreign Referer (plain HTTP, no Fetch Metadata)': { Referer: 'http://tabula.test:8081/attack.html' },
}

/** What passes: no browser headers, the service's own origin, a typed URL, an allowed origin. */
const PASSING: Record<string, Headers> = {
  'no browser headers (curl, the node client, the CLI)': {},
  'same-origin with its own Origin': { 'Sec-Fetch-Site': 'same-origin', Origin: OWN },
  'Sec-Fetch-Site: none (address bar)': { 'Sec-Fetch-Site': 'none' },
  'an Origin listed in ALLOWED_ORIGINS': { 'Sec-Fetch-Site': 'same-site', Origin: NOTEBOOK },
  'only a Referer from a page of its own': { Referer: `${OWN}/v1/api/run` },
}

interface Action {
  readonly name: string
  /** Sends the state change with these extra headers; `n` makes each attempt's value distinct. */
  attempt(h: Headers, n: number): Promise<Response>
  /** Everything the change would alter, read without browser headers. */
  state(): Promise<unknown>
  /** Puts things back after an attempt that passed (so the victim stays logged in, say). */
  reset?(passed: Response): Promise<void>
}

forEachStore(
  'security: cross-site state changes are refused, over HTTP',
  (svc) => {
    let victim = ''
    let runTag = 0
    let dynTag = 0
    let pathTag = 0
    const http = () => svc().http
    const on = <T extends { set(k: string, v: string): T }>(req: T, h: Headers, cookie = victim): T => {
      let r = req.set('Host', HOST).set('Cookie', cookie)
      for (const [k, v] of Object.entries(h)) r = r.set(k, v)
      return r
    }
    const table = async (path: string) => ({
      record: await svc().deps.store.get(KEYS.table(path)),
      data: (await on(http().get(`/v1/api/${path}:json`), {})).body as unknown,
    })
    const dynVars = async () => (await on(http().post(`/v1/api/${dynTag}:json`).type('json').send(''), {})).body as unknown
    const names = async () => (await on(http().post('/v1/api/dbm:json'), {}).send({ cmd: ['get_names_in_dir', { path: 'uploads.vic' }] })).body as unknown
    const vicAlive = async () => ({
      sid: await svc().deps.store.get(SESSION_KEYS.userSession('vic')),
      status: (await on(http().get('/v1/api:json'), {})).status,
    })

    async function makeInstances(): Promise<void> {
      runTag = (await on(http().post('/v1/api/new/run:json').type('json').send('{}'), {})).body.tag
      const xml =
        '<dynamic x="1"><widget name="index"><table cols="x">{@x}</table></widget><widget name="chooser" class_="dropdown" value_="@x"><table cols="v">1;2</table></widget></dynamic>'
      dynTag = (await on(http().post('/v1/api/new:json').type('json'), {}).send({ xml })).body.tag
      expect(dynTag).to.be.a('number')
      // An index widget and a declared `path`: a trailing segment api/{tag}/{y} sets it (reference §1.1).
      const withPath = '<dynamic path="start"><widget name="index" class_="text" text_="{@path}"/></dynamic>'
      pathTag = (await on(http().post('/v1/api/new:json').type('json'), {}).send({ xml: withPath })).body.tag
      expect(pathTag).to.be.a('number')
    }

    before(async function () {
      this.timeout(30_000)
      victim = await userCookie(svc(), 'vic')
      await userCookie(svc(), 'mallory').then((c) => http().post('/v1/api/!logout:json').set('Cookie', c).type('json').send('{}'))
      const saved = await on(http().post('/v1/api/run:json').type('form'), {}).send({ xml: '<table cols="n">1</table>', savetable: 'uploads.vic.mine' })
      expect(saved.status, saved.text).to.equal(200)
      await makeInstances()
    })

    const actions: Action[] = [
      {
        name: "run with savetable and replace=1 over the victim's own table (form POST)",
        attempt: (h, n) =>
          on(http().post('/v1/api/run:json').type('form'), h).send({ xml: `<table cols="n">${1000 + n}</table>`, savetable: 'uploads.vic.mine', replace: '1' }),
        state: () => table('uploads.vic.mine'),
      },
      {
        name: 'run with savetable into a new table (JSON POST)',
        attempt: (h, n) =>
          on(http().post('/v1/api/run:json').type('json'), h).send({ xml: '<base table="pub.demo.retail.stores"/>', savetable: `uploads.vic.copy${n}` }),
        state: names,
      },
      {
        name: 'a run instance with savetable',
        attempt: (h, n) =>
          on(http().post(`/v1/api/${runTag}:json`).type('form'), h).send({
            xml: `<table cols="n">${2000 + n}</table>`,
            savetable: 'uploads.vic.mine',
            replace: '1',
          }),
        state: () => table('uploads.vic.mine'),
      },
      {
        name: 'dbm make_dir (JSON body)',
        attempt: (h, n) => on(http().post('/v1/api/dbm:json').type('json'), h).send({ cmd: ['make_dir', { path: `uploads.vic.dir${n}` }] }),
        state: names,
      },
      {
        name: 'dbm upload_table (cmd as a form field, as an HTML form sends it)',
        attempt: (h, n) =>
          on(http().post('/v1/api/dbm:json').type('form'), h).send({ cmd: JSON.stringify(['upload_table', { path: `uploads.vic.up${n}`, data: { n: [n] } }]) }),
        state: names,
      },
      {
        name: 'new with xml',
        attempt: (h) => on(http().post('/v1/api/new:json').type('form'), h).send({ xml: '<table cols="n">1</table>' }),
        state: () => svc().deps.store.get(INSTANCE_KEYS.counter),
      },
      {
        name: 'new/sql',
        attempt: (h) => on(http().post('/v1/api/new/sql:json').type('json'), h).send('{}'),
        state: () => svc().deps.store.get(INSTANCE_KEYS.counter),
      },
      {
        name: "a dynamic instance's variable by POST",
        attempt: (h, n) => on(http().post(`/v1/api/${dynTag}:json`).type('form'), h).send({ x: String(3000 + n) }),
        state: dynVars,
      },
      {
        name: "a dynamic instance's variable by GET (an <img> or a link)",
        attempt: (h, n) => on(http().get(`/v1/api/${dynTag}:json?x=${4000 + n}`), h),
        state: dynVars,
      },
      {
        name: 'a widget bound to a variable',
        attempt: (h, n) => on(http().post(`/v1/api/${dynTag}/chooser:json`).type('form'), h).send({ value: String(5000 + n) }),
        state: dynVars,
      },
      {
        name: "a dynamic instance's path by a trailing segment (GET api/{tag}/{y})",
        attempt: (h, n) => on(http().get(`/v1/api/${pathTag}/p${n}:json`), h),
        state: async () => (await on(http().get(`/v1/api/${pathTag}:json`), {})).body as unknown,
      },
      {
        name: '!login as another user (login CSRF)',
        attempt: (h) => on(http().post('/v1/api/!login:json').type('form'), h, '').send({ uid: 'mallory', pw: 'mallory-pass-1' }),
        state: async () => svc().deps.store.get(SESSION_KEYS.userSession('mallory')),
        async reset(passed) {
          const { uid, sid, epw } = passed.body as { uid: string; sid: string; epw: string }
          const out = await http().post('/v1/api/!logout:json').set('Cookie', `session=${uid}|${sid}|${epw}`).type('json').send('{}')
          expect(out.status, out.text).to.equal(200)
        },
      },
      {
        name: '!logout of the victim',
        attempt: (h) => on(http().post('/v1/api/!logout:json').type('json'), h).send('{}'),
        state: vicAlive,
        async reset() {
          victim = await svc().login('vic', 'vic-pass-1')
          // Instances end with their session: the victim's new session gets new ones.
          await makeInstances()
        },
      },
    ]

    for (const action of actions) {
      describe(action.name, () => {
        let n = 0
        for (const [label, headers] of Object.entries(CROSS_SITE)) {
          it(`is refused with 403 cross_site when ${label}, and changes nothing`, async () => {
            const before = await action.state()
            const res = await action.attempt(headers, ++n)
            expect(res.status, res.text).to.equal(403)
            expect(res.body.code).to.equal('cross_site')
            expect(res.body.error).to.match(/ALLOWED_ORIGINS/)
            expect(res.headers['set-cookie'], 'no cookie is set').to.equal(undefined)
            expect(await action.state()).to.deep.equal(before)
          })
        }
        for (const [label, headers] of Object.entries(PASSING)) {
          it(`goes through with ${label}`, async () => {
            const before = await action.state()
            const res = await action.attempt(headers, ++n)
            expect(res.status, res.text).to.equal(200)
            if (res.body.rc !== undefined) expect(String(res.body.rc), res.text).to.equal('0')
            expect(await action.state(), 'the change happened').to.not.deep.equal(before)
            await action.reset?.(res)
          })
        }
      })
    }

    describe('methods', () => {
      it('refuses GET and HEAD of run with savetable (405, Allow: POST) and leaves the table as it was', async () => {
        const before = await table('uploads.vic.mine')
        const query = `xml=${encodeURIComponent('<table cols="n">9</table>')}&savetable=uploads.vic.mine&replace=1`
        for (const path of [`/v1/api/run:json?${query}`, `/v1/api/run?${query}`, `/v1/api/${runTag}:json?${query}`]) {
          const get = await on(http().get(path), {})
          expect(get.status, `${path}: ${get.text}`).to.equal(405)
          expect(get.headers.allow).to.equal('POST')
          if (path.includes(':json')) expect(get.body.error).to.match(/takes POST, not GET/)
          const head = await on(http().head(path), {})
          expect(head.status, path).to.equal(405)
        }
        expect(await table('uploads.vic.mine')).to.deep.equal(before)
      })

      it('keeps reads on GET: run without savetable, sql, listings, an instance read, !data', async () => {
        const xml = encodeURIComponent('<table cols="n">7</table>')
        for (const path of [
          `/v1/api/run:json?xml=${xml}`,
          '/v1/api/sql:json?sql=select%201%20as%20one',
          '/v1/api/ls/uploads.vic:json',
          `/v1/api/${dynTag}:json`,
          '/v1/api/sql/!data:json',
        ]) {
          const res = await on(http().get(path), { 'Sec-Fetch-Site': 'cross-site' })
          expect(res.status, `${path}: ${res.text}`).to.equal(200)
        }
      })

      it('refuses !stop from another site but not from a header-less client', async () => {
        const cross = await on(http().post('/v1/api/sql/!stop:json').type('json').send('{}'), { 'Sec-Fetch-Site': 'cross-site' })
        expect(cross.status, cross.text).to.equal(403)
        expect(cross.body.code).to.equal('cross_site')
        const plain = await on(http().get('/v1/api/sql/!stop:json'), {})
        expect(plain.status, plain.text).to.equal(200)
        expect(plain.body).to.deep.equal({ stopped: false })
      })

      it('answers a cross-site page navigation with the HTML error page, not a change', async () => {
        const before = await dynVars()
        const res = await on(http().get(`/v1/api/${dynTag}?x=77`), { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' })
        expect(res.status).to.equal(403)
        expect(res.type).to.equal('text/html')
        expect(res.text).to.contain('ALLOWED_ORIGINS')
        expect(await dynVars()).to.deep.equal(before)
      })
    })

    describe('CORS for ALLOWED_ORIGINS', () => {
      it('answers a preflight from an allowed origin with methods, headers and credentials', async () => {
        const res = await http()
          .options('/v1/api/dbm:json')
          .set('Host', HOST)
          .set('Origin', NOTEBOOK)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'content-type')
        expect(res.status).to.equal(204)
        expect(res.headers['access-control-allow-origin']).to.equal(NOTEBOOK)
        expect(res.headers['access-control-allow-credentials']).to.equal('true')
        expect(res.headers['access-control-allow-methods']).to.equal('GET, HEAD, POST')
        expect(res.headers['access-control-allow-headers']).to.match(/Content-Type/i)
        expect(res.headers.vary).to.match(/Origin/)
      })

      it('adds nothing for an origin that is not listed, preflight or not', async () => {
        const pre = await http().options('/v1/api/dbm:json').set('Host', HOST).set('Origin', 'http://evil.test').set('Access-Control-Request-Method', 'POST')
        expect(pre.status).to.not.equal(204)
        expect(pre.headers['access-control-allow-origin']).to.equal(undefined)
        const get = await on(http().get('/v1/api/ls:json'), { Origin: 'http://evil.test' })
        expect(get.status).to.equal(200)
        expect(get.headers['access-control-allow-origin']).to.equal(undefined)
        expect(get.headers['access-control-allow-credentials']).to.equal(undefined)
        expect(get.headers.vary).to.match(/Origin/)
      })

      it('lets the allowed origin read answers and errors with the cookie', async () => {
        const ok = await on(http().get('/v1/api/ls:json'), { Origin: NOTEBOOK, 'Sec-Fetch-Site': 'same-site' })
        expect(ok.status).to.equal(200)
        expect(ok.headers['access-control-allow-origin']).to.equal(NOTEBOOK)
        expect(ok.headers['access-control-allow-credentials']).to.equal('true')
        expect(ok.headers['access-control-expose-headers'])
          .to.match(/X-Request-Id/)
          .and.to.match(/X-Tabula-Engine/)
        const err = await on(http().get('/v1/api/no.such.table:json'), { Origin: NOTEBOOK })
        expect(err.status).to.equal(404)
        expect(err.headers['access-control-allow-origin']).to.equal(NOTEBOOK)
      })
    })
  },
  { ALLOWED_ORIGINS: `${NOTEBOOK}, https://other.test:8443` },
  { skip: ['cluster'] },
)

describe('security: the own origin behind a balancer (TRUST_PROXY=1), and no CORS by default', function () {
  let svc: TestService
  let cookie = ''
  before(async function () {
    this.timeout(60_000)
    svc = await startTestService('memory', { TRUST_PROXY: '1' })
    cookie = await svc.login()
  })
  after(async function () {
    this.timeout(30_000)
    await svc?.close()
  })
  const makeDir = (h: Headers, path: string) => {
    let r = svc.http.post('/v1/api/dbm:json').set('Cookie', cookie)
    for (const [k, v] of Object.entries(h)) r = r.set(k, v)
    return r.send({ cmd: ['make_dir', { path }] })
  }

  it("takes the scheme and host a trusted balancer forwards as the service's own origin", async () => {
    const res = await makeDir(
      {
        Host: 'gw1:8080',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'tabula.example',
        Origin: 'https://tabula.example',
        'Sec-Fetch-Site': 'same-origin',
      },
      'pub.behind',
    )
    expect(res.status, res.text).to.equal(200)
    expect(res.body.rc, res.text).to.equal(0)
    const direct = await makeDir(
      { Host: 'gw1:8080', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'tabula.example', Origin: 'http://gw1:8080' },
      'pub.direct',
    )
    expect(direct.status, direct.text).to.equal(403)
    expect(direct.body.code).to.equal('cross_site')
  })

  it('adds no CORS header and no Vary: Origin while ALLOWED_ORIGINS is empty', async () => {
    const res = await svc.http.get('/v1/api/ls:json').set('Cookie', cookie).set('Origin', 'http://notebook.test:8888')
    expect(res.status).to.equal(200)
    expect(res.headers['access-control-allow-origin']).to.equal(undefined)
    expect(res.headers.vary ?? '').to.not.match(/Origin/)
    const pre = await svc.http.options('/v1/api/ls:json').set('Origin', 'http://notebook.test:8888').set('Access-Control-Request-Method', 'POST')
    expect(pre.headers['access-control-allow-origin']).to.equal(undefined)
  })

  it('ignores X-Forwarded-Host when the balancer is not trusted', async function () {
    this.timeout(60_000)
    const direct = await startTestService('memory', { DEMO_DATA: '0' })
    try {
      const c = await direct.login()
      const res = await direct.http
        .post('/v1/api/dbm:json')
        .set('Cookie', c)
        .set('Host', 'gw1:8080')
        .set('X-Forwarded-Host', 'evil.test')
        .set('Origin', 'http://evil.test')
        .send({ cmd: ['make_dir', { path: 'pub.forged' }] })
      expect(res.status, res.text).to.equal(403)
      expect(res.body.code).to.equal('cross_site')
    } finally {
      await direct.close()
    }
  })
})

describe('security: ALLOWED_ORIGINS is validated', () => {
  it('keeps exact origins, normalised as browsers send them', () => {
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://Notebook.Example:443, http://127.0.0.1:8888' }).allowedOrigins).to.deep.equal([
      'https://notebook.example',
      'http://127.0.0.1:8888',
    ])
    expect(loadConfig({}).allowedOrigins).to.deep.equal([])
  })
  for (const bad of [
    '*',
    'notebook.example',
    'https://notebook.example/',
    'https://notebook.example/lab',
    'ftp://files.example',
    'null',
    'https://u:p@notebook.example',
  ]) {
    it(`refuses "${bad}" with a message naming the variable`, () => {
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad })).to.throw(/ALLOWED_ORIGINS entries must be exact origins/)
    })
  }
})
