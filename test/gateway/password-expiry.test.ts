/**
 * credentials_expired: a password given a last day (add_user, set_password `password_expires`)
 * logs in through that day and answers 403 credentials_expired from the next, with a message
 * saying what to do; a wrong password still answers 401 (expiry is told only to who knows the
 * password); a new password clears the expiry unless the administrator sets one again.
 */
import { expect } from 'chai'
import { dbmFails, dbmOk } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'

const day = (offsetDays: number): string => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)

describe('password expiry (credentials_expired)', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string

  before(async () => {
    svc = await startTestService('memory')
    admin = await svc.login()
  })
  after(async () => svc?.close())

  const login = (uid: string, pw: string) => svc.http.post('/v1/api/!login:json').type('form').send({ uid, pw })
  const addUser = (uid: string, extra: Record<string, unknown>) =>
    dbmOk(svc, admin, 'add_user', { uid, first: 'A', last: 'B', email: `${uid}@example.com`, password: `${uid}-pw-1`, ...extra })

  it('refuses the right password after its last day with 403 credentials_expired and what to do', async () => {
    const user = (await addUser('expired1', { password_expires: day(-1) })) as { password_expires: string }
    expect(user.password_expires).to.equal(day(-1))
    const res = await login('expired1', 'expired1-pw-1')
    expect(res.status).to.equal(403)
    expect(res.body.code).to.equal('credentials_expired')
    expect(res.body.error).to.equal(
      `The password of "expired1" expired after ${day(-1)}; ask an administrator to set a new one (dbm set_password), then log in again.`,
    )
    expect(res.headers['set-cookie']).to.equal(undefined)
  })

  it('answers a wrong password 401 as ever, expired or not: expiry is not told to who does not know the password', async () => {
    const res = await login('expired1', 'not-the-password')
    expect(res.status).to.equal(401)
    expect(res.body.code).to.equal('bad_credentials')
  })

  it('logs in through the last day', async () => {
    await addUser('lastday', { password_expires: day(0) })
    expect((await login('lastday', 'lastday-pw-1')).status).to.equal(200)
    await addUser('later', { password_expires: day(30) })
    expect((await login('later', 'later-pw-1')).status).to.equal(200)
  })

  it('lets an administrator renew the password: a new one without an expiry does not expire, one with it does', async () => {
    await dbmOk(svc, admin, 'set_password', { uid: 'expired1', new_password: 'renewed-pw-2' })
    expect((await login('expired1', 'renewed-pw-2')).status).to.equal(200)
    expect(((await dbmOk(svc, admin, 'get_user', { uid: 'expired1' })) as { password_expires: unknown }).password_expires).to.equal(null)
    await dbmOk(svc, admin, 'set_password', { uid: 'expired1', new_password: 'renewed-pw-3', password_expires: day(-2) })
    expect((await login('expired1', 'renewed-pw-3')).body.code).to.equal('credentials_expired')
  })

  it('refuses an expiry that is not a day, naming the parameter, and a user setting their own', async () => {
    for (const bad of ['2026-02-30', 'tomorrow', '2026-1-5', '20260105']) {
      await dbmFails(
        svc,
        admin,
        'add_user',
        { uid: 'baddate', first: 'A', last: 'B', email: 'b@example.com', password_expires: bad },
        /"password_expires" must be a day as YYYY-MM-DD/,
      )
    }
    await addUser('selfish', {})
    const own = await svc.login('selfish', 'selfish-pw-1')
    await dbmFails(
      svc,
      own,
      'set_password',
      { old_password: 'selfish-pw-1', new_password: 'selfish-pw-2', password_expires: day(400) },
      /Only an administrator sets when a password expires/,
    )
    expect((await login('selfish', 'selfish-pw-1')).status).to.equal(200)
  })
})
