import { expect } from 'chai'
import { ADMIN_PASSWORD } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { createUser } from '../../gateway/catalog/users.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

forEachStore('api/!login and sessions', (svc) => {
  it('answers uid, a digit sid and an opaque epw, and sets the session cookie', async () => {
    const res = await svc().http.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: ADMIN_PASSWORD })
    expect(res.status).to.equal(200)
    expect(res.type).to.equal('application/json')
    expect(res.body.uid).to.equal('admin')
    expect(res.body.sid).to.match(/^\d{15}$/)
    expect(res.body.epw).to.match(/^_+[0-9a-f]{48}$/)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).to.contain(`session=admin|${res.body.sid}|${res.body.epw}`)
    expect(cookie).to.contain('HttpOnly').and.to.contain('SameSite=Lax').and.not.to.contain('Secure')
  })

  it('marks the cookie Secure for X-Forwarded-Proto: https only behind a trusted balancer (TRUST_PROXY)', async () => {
    const res = await svc().http.post('/v1/api/!login:json').set('X-Forwarded-Proto', 'https').type('form').send({ uid: 'admin', pw: ADMIN_PASSWORD })
    expect(res.status).to.equal(200)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).to.contain('HttpOnly').and.to.contain('SameSite=Lax')
    // The cluster's gateways run with TRUST_PROXY=1; in-process services keep the default 0.
    if (svc().deps.config.trustProxy) expect(cookie).to.contain('Secure')
    else expect(cookie).not.to.contain('Secure')
  })

  it('accepts the credentials as a JSON body and on the plain !login path', async () => {
    const res = await svc().http.post('/v1/api/!login').send({ uid: 'admin', pw: ADMIN_PASSWORD })
    expect(res.status).to.equal(200)
    expect(res.body).to.have.keys('uid', 'sid', 'epw')
  })

  it('answers a wrong password with 401 and a JSON error member', async () => {
    const res = await svc().http.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: 'wrong' })
    expect(res.status).to.equal(401)
    expect(res.type).to.equal('application/json')
    expect(res.body.error).to.equal('Invalid user id or password.')
    expect(res.body.code).to.equal('bad_credentials')
  })

  it('answers an unknown user exactly like a wrong password', async () => {
    const res = await svc().http.post('/v1/api/!login:json').send({ uid: 'nobody', pw: 'x' })
    expect(res.status).to.equal(401)
    expect(res.body.error).to.equal('Invalid user id or password.')
  })

  it('refuses GET on !login with 405 and an Allow header', async () => {
    const res = await svc().http.get('/v1/api/!login:json?uid=admin&pw=x')
    expect(res.status).to.equal(405)
    expect(res.headers.allow).to.equal('POST')
    expect(res.body.error).to.be.a('string')
  })

  it('asks for the missing parameter when uid or pw is absent', async () => {
    const res = await svc().http.post('/v1/api/!login:json').send({ uid: 'admin' })
    expect(res.status).to.equal(400)
    expect(res.body.error).to.contain('"pw"')
  })

  it('refuses requests without a cookie with 403', async () => {
    const res = await svc().http.post('/v1/api/sql:json').send({ sql: 'select 1' })
    expect(res.status).to.equal(403)
    expect(res.body.code).to.equal('no_session')
  })

  it('refuses forged, malformed and borrowed credentials with 403', async () => {
    const cookie = await svc().login()
    const [uid, sid, epw] = cookie.slice('session='.length).split('|')
    for (const forged of [
      `session=${uid}|${sid}|_______${'0'.repeat(48)}`,
      `session=${uid}|123456789012345|${epw}`,
      `session=bob|${sid}|${epw}`,
      `session=${uid}|${sid}`,
      'session=garbage',
      `session=${uid}|${sid}|${epw}|extra`,
    ]) {
      const res = await svc().http.post('/v1/api/sql:json').set('Cookie', forged).send({ sql: 'select 1' })
      expect(res.status, forged).to.equal(403)
    }
  })

  it('ignores other cookies such as siduids', async () => {
    const cookie = await svc().login()
    const res = await svc().http.post('/v1/api/sql:json').set('Cookie', `siduids=1|admin; ${cookie}; theme=dark`).send({ sql: 'select 1 as x' })
    expect(res.status).to.equal(200)
    expect(res.body).to.deep.equal({ x: [1] })
  })

  it('joins the live session on a second login (kill=possess) so both tokens work', async () => {
    const a = await svc().login()
    const b = await svc().login()
    expect(a.split('|')[1]).to.equal(b.split('|')[1])
    for (const c of [a, b]) expect((await svc().http.post('/v1/api/sql:json').set('Cookie', c).send({ sql: 'select 1' })).status).to.equal(200)
  })

  it('refuses a second session with kill=no and replaces the first with kill=yes', async () => {
    const old = await svc().login()
    const refused = await svc().http.post('/v1/api/!login:json').send({ uid: 'admin', pw: ADMIN_PASSWORD, kill: 'no' })
    expect(refused.status).to.equal(409)
    expect(refused.body.error).to.contain('kill=yes')
    const fresh = await svc().http.post('/v1/api/!login:json').send({ uid: 'admin', pw: ADMIN_PASSWORD, kill: 'yes' })
    expect(fresh.status).to.equal(200)
    expect((await svc().http.post('/v1/api/sql:json').set('Cookie', old).send({ sql: 'select 1' })).status).to.equal(403)
  })

  it('logs out: the cookie stops working and logging out again answers the same', async () => {
    const cookie = await svc().login()
    const res = await svc().http.post('/v1/api/!logout:json').set('Cookie', cookie)
    expect(res.status).to.equal(200)
    expect(res.body).to.deep.equal({ rc: '0', msg: 'Logged out' })
    expect((await svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1' })).status).to.equal(403)
    const again = await svc().http.post('/v1/api/!logout:json').set('Cookie', cookie)
    expect(again.body).to.deep.equal({ rc: '0', msg: 'Logged out' })
  })

  it('stores passwords only as salted scrypt hashes', async () => {
    await createUser(svc().deps.store, { uid: 'carol', password: 'carol-pass-9' })
    const raw = (await svc().deps.store.get('cat:user:carol'))!
    expect(raw).not.to.contain('carol-pass-9')
    expect(JSON.parse(raw).passwordHash).to.match(/^scrypt\$16384\$8\$1\$/)
    expect((await svc().http.post('/v1/api/!login:json').send({ uid: 'carol', pw: 'carol-pass-9' })).status).to.equal(200)
  })

  it('keeps only a hash of the epw token in the store', async () => {
    const cookie = await svc().login()
    const [, sid, epw] = cookie.split('|')
    const raw = (await svc().deps.store.get(`sess:${sid}`))!
    expect(raw).not.to.contain(epw)
  })
})

forEachStore(
  'session expiry',
  (svc) => {
    it('keeps an active session alive and ends an idle one after SESSION_TTL', async function () {
      this.timeout(20_000)
      const cookie = await svc().login()
      const ask = () => svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1' })
      // TTL 3 s: two requests 1.8 s apart keep it alive (each restarts the timer), 4.5 s idle ends it.
      await sleep(1800)
      expect((await ask()).status).to.equal(200)
      await sleep(1800)
      expect((await ask()).status, 'refreshed by the request before').to.equal(200)
      await sleep(4500)
      const res = await ask()
      expect(res.status).to.equal(403)
      expect(res.body.error).to.contain('log in again')
    })
  },
  { SESSION_TTL: '3' },
)
