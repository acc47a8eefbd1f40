/**
 * Proves that secrets stay secret (issue 8): a password never appears in a response or a log
 * line, whatever shape the login or the dbm transaction takes (wrong, malformed, throttled, too
 * short); session ids and tokens come from node:crypto, never Math.random, and 1,000 sessions get
 * distinct ones of the documented shape; and a password change or a deactivation logs out the
 * user's other clients on every gateway (the API suite runs on the memory store, on Redis and
 * through three gateways).
 */
import { expect } from 'chai'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMemoryStore } from '../../shared/store/index.js'
import { SESSION_KEYS, SessionManager } from '../../gateway/auth/sessions.js'
import { createUser } from '../../gateway/catalog/users.js'
import { dbm, dbmOk } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

/** The repository root: the nearest folder above this compiled file that holds the sources. */
function sourceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'gateway', 'auth', 'sessions.ts'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('cannot find the TypeScript sources above the compiled tests')
    dir = up
  }
  return dir
}

describe('session ids and tokens', () => {
  const SID = /^[1-9]\d{14}$/
  const EPW = /^_{7}[0-9a-f]{48}$/

  it('are never made with Math.random anywhere in gateway/auth', () => {
    const folder = join(sourceRoot(), 'gateway', 'auth')
    const files = readdirSync(folder).filter((f) => f.endsWith('.ts'))
    expect(files).to.include.members(['sessions.ts', 'password.ts', 'throttle.ts'])
    for (const file of files) expect(readFileSync(join(folder, file), 'utf8'), file).not.to.match(/Math\s*(\.\s*|\[\s*['"`])random/)
    const sessions = readFileSync(join(folder, 'sessions.ts'), 'utf8')
    expect(sessions).to.match(/import \{[^}]*\brandomBytes\b[^}]*\brandomInt\b[^}]*\} from 'node:crypto'/)
    expect(sessions)
      .to.match(/randomInt\(/)
      .and.to.match(/randomBytes\(24\)/)
  })

  it('differ over 1,000 sessions and have the documented shape', async () => {
    const store = createMemoryStore()
    await store.connect()
    try {
      const sessions = new SessionManager(store, 3600)
      const sids = new Set<string>()
      const epws = new Set<string>()
      for (let i = 0; i < 1000; i++) {
        const c = await sessions.login(`u${i}`, 'possess')
        expect(c.sid).to.match(SID)
        expect(c.epw).to.match(EPW)
        sids.add(c.sid)
        epws.add(c.epw)
      }
      expect(sids.size).to.equal(1000)
      expect(epws.size).to.equal(1000)
    } finally {
      await store.close()
    }
  })

  it('keep the token a request presented out of the stored record', async () => {
    const store = createMemoryStore()
    await store.connect()
    try {
      const sessions = new SessionManager(store, 3600)
      const first = await sessions.login('ann', 'possess')
      const second = await sessions.login('ann', 'possess')
      const session = await sessions.authenticate(first)
      expect(session?.presentedEpwHash).to.match(/^[0-9a-f]{64}$/)
      await sessions.keepOnlyPresentedToken(session!)
      const stored = JSON.parse((await store.get(SESSION_KEYS.session(first.sid)))!)
      expect(stored).not.to.have.property('presentedEpwHash')
      expect(stored.epwHashes).to.deep.equal([session!.presentedEpwHash])
      expect(await sessions.authenticate(first)).not.to.equal(null)
      expect(await sessions.authenticate(second)).to.equal(null)
    } finally {
      await store.close()
    }
  })
})

const SECRET = 'Zebra-Quartz-7731'
type Reply = { status: number; text: string; headers: Record<string, unknown> }

/** Nothing the service said or logged holds any of the secrets. */
function expectUnsaid(svc: TestService, replies: readonly Reply[], secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const r of replies) {
      expect(r.text, `a ${r.status} answer`).not.to.include(secret)
      expect(JSON.stringify(r.headers), `headers of a ${r.status} answer`).not.to.include(secret)
    }
    for (const line of svc.logs) expect(JSON.stringify(line), 'a log line').not.to.include(secret)
  }
}

forEachStore(
  'secrets and the end of sessions',
  (svc, kind) => {
    let admin: string
    before(async () => {
      admin = await svc().login()
    })

    const loginAt = (path = '/v1/api/!login:json') => svc().http.post(path)
    const sqlStatus = async (cookie: string): Promise<number> =>
      (await svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select 1 as one' })).status

    it('never echoes a password from a login, whatever its form', async () => {
      for (const uid of ['lk_a', 'lk_b', 'lk_c', 'lk_t']) await createUser(svc().deps.store, { uid, password: `${uid}-pass-1` })
      const replies: Reply[] = []
      const expectStatus = (status: number, r: Reply) => {
        expect(r.status, r.text).to.equal(status)
        replies.push(r)
      }
      expectStatus(401, await loginAt().type('form').send({ uid: 'lk_a', pw: SECRET }))
      expectStatus(401, await loginAt().send({ uid: 'lk_nobody', pw: SECRET }))
      expectStatus(401, await loginAt('/v1/api/!login').type('form').send({ uid: 'lk_a', pw: SECRET }))
      expectStatus(400, await loginAt().type('form').send({ pw: SECRET }))
      expectStatus(400, await loginAt().type('form').send({ uid: '  ', pw: SECRET }))
      expectStatus(401, await loginAt().send({ uid: 'lk_b', pw: SECRET, password: SECRET, remember: true, nested: { pw: SECRET } }))
      // As the real client sends it: not URL-escaped, so `&` splits the password into two fields.
      expectStatus(
        401,
        await loginAt()
          .type('form')
          .send(`uid=lk_b&pw=${SECRET.replace('-Quartz', '&Quartz')}`),
      )
      expectStatus(
        401,
        await loginAt()
          .type('form')
          .send({ uid: 'lk_c', pw: `${SECRET}&x=1` }),
      )
      expectStatus(400, await loginAt().type('json').send(`{"uid": "lk_b", "pw": "${SECRET}" "kill": "yes"}`))
      expectStatus(400, await loginAt().send({ uid: 'lk_b', pw: { value: SECRET } }))
      expectStatus(400, await loginAt().send({ uid: 'lk_b', pw: SECRET, kill: 'bogus' }))
      expectStatus(400, await svc().http.post(`/v1/api/!login:json?pw=${SECRET}`).send({ uid: 'lk_b' }))
      expectStatus(405, await svc().http.get(`/v1/api/!login:json?uid=lk_b&pw=${SECRET}`))
      // LOGIN_MAX_FAILURES=2 here: the third attempt is throttled, and the throttle logs a line.
      for (let i = 0; i < 2; i++)
        expectStatus(
          401,
          await loginAt()
            .type('form')
            .send({ uid: 'lk_t', pw: `${SECRET}${i}` }),
        )
      expectStatus(429, await loginAt().type('form').send({ uid: 'lk_t', pw: SECRET }))
      if (kind !== 'cluster') expect(svc().logs.map((l) => l.msg)).to.include('login throttled: too many failures for one user id from one address')
      expectUnsaid(svc(), replies, [SECRET, 'Quartz-7731'])
    })

    it('asks for the password in the body when it comes in the URL', async () => {
      const res = await svc().http.post('/v1/api/!login:json?pw=whatever').send({ uid: 'admin' })
      expect(res.status).to.equal(400)
      expect(res.body).to.include({ code: 'invalid_parameter' })
      expect(res.body.error).to.match(/"pw" in the request body/)
    })

    it('never echoes a password refused by add_user or set_password', async () => {
      const user = { first: 'Lee', last: 'Kay', email: 'lk@example.com' }
      const short = 'Qz#9x'
      const long = `Long-${'Q'.repeat(130)}`
      const control = 'Tab\tSecret-99'
      const replies: Reply[] = []
      const expectRefused = async (cookie: string, name: string, params: Record<string, unknown>, msg: RegExp) => {
        const res = await svc()
          .http.post('/v1/api/dbm:json')
          .set('Cookie', cookie)
          .send({ cmd: [name, params] })
        expect(res.body.rc, res.text).to.equal(1)
        expect(res.body.msg).to.match(msg)
        replies.push(res)
      }
      await expectRefused(admin, 'add_user', { uid: 'lk_new', ...user, password: short }, /too short \(5 characters\)/)
      await expectRefused(admin, 'add_user', { uid: 'lk_new', ...user, password: long }, /too long/)
      await expectRefused(admin, 'add_user', { uid: 'lk_new', ...user, password: control }, /control character/)
      await expectRefused(admin, 'add_user', { uid: 'lk_new', ...user, password: [SECRET] }, /"password" must be a string/)
      await dbmOk(svc(), admin, 'add_user', { uid: 'lk_pw', ...user, password: 'lk_pw-pass-1' })
      const own = await svc().login('lk_pw', 'lk_pw-pass-1')
      await expectRefused(own, 'set_password', { old_password: 'lk_pw-pass-1', new_password: short }, /too short/)
      await expectRefused(own, 'set_password', { old_password: SECRET, new_password: 'Fine-New-Pass-1' }, /^Wrong password/)
      await expectRefused(own, 'set_password', { old_password: 'lk_pw-pass-1', new_password: { value: SECRET } }, /must be a string/)
      await expectRefused(admin, 'set_password', { uid: 'lk_pw', new_password: long }, /too long/)
      expectUnsaid(svc(), replies, [short, long.slice(5, 40), 'Secret-99', SECRET])
      expect(await sqlStatus(own), 'refused changes end no session').to.equal(200)
    })

    it('ends the other clients of a user who changes their own password, on every gateway; the caller stays', async () => {
      await createUser(svc().deps.store, { uid: 'lk_own', password: 'lk_own-pass-1' })
      const mine = await svc().login('lk_own', 'lk_own-pass-1')
      const other = await svc().login('lk_own', 'lk_own-pass-1')
      expect(await sqlStatus(other)).to.equal(200)
      expect(await dbmOk(svc(), mine, 'set_password', { old_password: 'lk_own-pass-1', new_password: 'lk_own-pass-2' })).to.equal(true)
      expect(await sqlStatus(other)).to.equal(403)
      expect(await sqlStatus(mine)).to.equal(200)
      expect((await loginAt().type('form').send({ uid: 'lk_own', pw: 'lk_own-pass-1' })).status).to.equal(401)
      const again = await svc().login('lk_own', 'lk_own-pass-2')
      expect(await sqlStatus(again)).to.equal(200)
      expect(await sqlStatus(mine)).to.equal(200)
    })

    it('ends every client of a user whose password an administrator resets', async () => {
      await createUser(svc().deps.store, { uid: 'lk_reset', password: 'lk_reset-pass-1' })
      const cookies = [await svc().login('lk_reset', 'lk_reset-pass-1'), await svc().login('lk_reset', 'lk_reset-pass-1')]
      expect(await dbmOk(svc(), admin, 'set_password', { uid: 'lk_reset', new_password: 'lk_reset-pass-2' })).to.equal(true)
      for (const c of cookies) expect(await sqlStatus(c)).to.equal(403)
      expect(await sqlStatus(await svc().login('lk_reset', 'lk_reset-pass-2'))).to.equal(200)
    })

    it('ends every client of a deactivated user', async () => {
      await createUser(svc().deps.store, { uid: 'lk_gone', password: 'lk_gone-pass-1' })
      const cookies = [await svc().login('lk_gone', 'lk_gone-pass-1'), await svc().login('lk_gone', 'lk_gone-pass-1')]
      await dbmOk(svc(), admin, 'deactivate_user', { uid: 'lk_gone' })
      for (const c of cookies) expect(await sqlStatus(c)).to.equal(403)
      expect((await dbm(svc(), admin, 'activate_user', { uid: 'lk_gone' })).rc).to.equal(0)
      for (const c of cookies) expect(await sqlStatus(c), 'activation brings no old session back').to.equal(403)
    })
  },
  { LOGIN_MAX_FAILURES: '2', LOGIN_MAX_FAILURES_PER_ADDRESS: '100' },
)
