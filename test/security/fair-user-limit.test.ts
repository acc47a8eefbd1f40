/**
 * Issue 16, part 3: MAX_QUERIES_PER_USER bounds the queries one user runs at once over all their
 * sessions and all gateways. A user could otherwise start a new session (`kill=yes`) while the old
 * one's queries still run and so run any number of them. The count shares the Store mechanism of
 * MAX_QUERIES_PER_SESSION (gateway/query/running/session-slots.ts): tested on two Store connections (two
 * gateways) on memory and Redis, and over HTTP with two sessions of one user on two gateways.
 */
import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import { loadConfig } from '../../shared/config.js'
import { acquireQuerySlot, userSlotsKey, type SlotLease } from '../../gateway/query/running/index.js'
import { redisAvailable, startTestService, type TestService } from '../helpers/service.js'
import { startSecondGateway, type SecondGateway } from '../helpers/second-gateway.js'
import { userCookie } from '../helpers/dbm.js'
import { forever, refusal, twoStoreConnections } from '../helpers/query-slots.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
describe('MAX_QUERIES_PER_USER setting', () => {
  it('defaults to 8 (two sessions at MAX_QUERIES_PER_SESSION) and refuses a bad value naming the variable and the range', () => {
    expect(loadConfig({}).maxQueriesPerUser).to.equal(8)
    expect(loadConfig({ MAX_QUERIES_PER_USER: '3' }).maxQueriesPerUser).to.equal(3)
    for (const bad of ['0', '-1', 'many', '2.5', '100001']) {
      expect(() => loadConfig({ MAX_QUERIES_PER_USER: bad })).to.throw(`MAX_QUERIES_PER_USER must be a whole number from 1 to 100000 (got "${bad}")`)
    }
  })
})

for (const kind of ['memory', 'redis'] as const) {
  describe(`MAX_QUERIES_PER_USER slots over two Store connections (${kind} store)`, () => {
    before(function () {
      if (kind === 'redis' && !redisAvailable()) this.skip()
    })
    /** Two connections to one Store (one and the same memory store): two gateways. */
    const pair = twoStoreConnections(kind)

    const limits = { perSession: 4, perUser: 3 }

    it("counts a user's queries over all their sessions, refuses one more naming MAX_QUERIES_PER_USER, and frees on release", async () => {
      const leases = [
        await acquireQuerySlot(pair()[0], { sid: 's1', uid: 'u' }, limits),
        await acquireQuerySlot(pair()[1], { sid: 's2', uid: 'u' }, limits),
        await acquireQuerySlot(pair()[0], { sid: 's2', uid: 'u' }, limits),
      ]
      const refused = await refusal(acquireQuerySlot(pair()[1], { sid: 's3', uid: 'u' }, limits))
      expect(refused.code).to.equal('TOO_MANY_REQUESTS')
      expect(refused.message).to.contain('MAX_QUERIES_PER_USER = 3')
      expect(refused.message).to.contain('"u"')
      expect(refused.detail).to.deep.equal({ limit: 3, retryAfterSeconds: 1 })
      // Another user, even in a session id seen above, is not counted with u.
      const other = await acquireQuerySlot(pair()[1], { sid: 's3', uid: 'v' }, limits)
      await leases[1].release()
      leases[1] = await acquireQuerySlot(pair()[1], { sid: 's3', uid: 'u' }, limits)
      await Promise.all([...leases, other].map((l) => l.release()))
      expect(await pair()[0].keys('userq:')).to.deep.equal([])
      expect(await pair()[0].keys('sessq:')).to.deep.equal([])
    })

    it('names the session limit when that one is full, and takes no user slot then', async () => {
      const one = { perSession: 1, perUser: 5 }
      const lease = await acquireQuerySlot(pair()[0], { sid: 's1', uid: 'w' }, one)
      const refused = await refusal(acquireQuerySlot(pair()[1], { sid: 's1', uid: 'w' }, one))
      expect(refused.message).to.contain('MAX_QUERIES_PER_SESSION = 1')
      expect(Object.keys(JSON.parse((await pair()[0].get(userSlotsKey('w')))!))).to.have.length(1)
      await lease.release()
    })

    it('grants exactly the user limit to many requests of several sessions at once on two connections', async () => {
      const attempts = Array.from({ length: 12 }, (_, i) =>
        acquireQuerySlot(pair()[i % 2], { sid: `s${i % 4}`, uid: 'busy' }, { perSession: 4, perUser: 5 }).then(
          (lease) => lease,
          (err: unknown) => err,
        ),
      )
      const outcomes = await Promise.all(attempts)
      const granted = outcomes.filter((o): o is SlotLease => !(o instanceof Error))
      expect(granted).to.have.length(5)
      for (const o of outcomes) if (o instanceof Error) expect((o as AppError).code).to.equal('TOO_MANY_REQUESTS')
      await Promise.all(granted.map((l) => l.release()))
    })
  })
}

for (const kind of ['memory', 'redis'] as const) {
  describe(`MAX_QUERIES_PER_USER over HTTP: two sessions of one user on two gateways (${kind} store)`, function () {
    this.timeout(90_000)
    let svc: TestService
    let second: SecondGateway
    let serial = Date.now() % 100_000
    before(async function () {
      if (kind === 'redis' && !redisAvailable()) return this.skip()
      svc = await startTestService(kind, { WORKERS: '2', MAX_QUERIES_PER_SESSION: '4', MAX_QUERIES_PER_USER: '2', QUERY_TIMEOUT_MS: '60000' })
      second = await startSecondGateway(svc.deps)
    })
    after(async () => {
      await second?.close()
      await svc?.close()
    })

    it("refuses a user's third query with 429 on either gateway while two run in two sessions; other users run; the slot comes back", async () => {
      const uid = `limit_${randomBytes(3).toString('hex')}`
      const first = await userCookie(svc, uid)
      const gateways = [svc.http, second.http]
      const post = (g: number, path: string, body: object, cookie: string) => gateways[g].post(`/v1/api/${path}`).set('Cookie', cookie).send(body)
      const running = async (g: number, cookie: string) => (await gateways[g].get('/v1/api/sql/!status:json').set('Cookie', cookie)).body.running === true
      const untilRunning = async (g: number, cookie: string) => {
        const deadline = Date.now() + 20_000
        while (!(await running(g, cookie))) {
          if (Date.now() > deadline) throw new Error('the query did not start')
          await sleep(30)
        }
      }

      // Session 1 runs one query on gateway 1, bounded by its own timeout_.
      const old = post(0, 'sql:json', { sql: forever(++serial), timeout_: 8000 }, first).then((r) => r)
      await untilRunning(0, first)
      // A new session of the same user (the old one ends; its query runs on), one query on gateway 2.
      const login = await second.http
        .post('/v1/api/!login:json')
        .type('form')
        .send({ uid, pw: `${uid}-pass-1`, kill: 'yes' })
      expect(login.status, login.text).to.equal(200)
      const fresh = `session=${login.body.uid}|${login.body.sid}|${login.body.epw}`
      expect(login.body.sid).to.not.equal(first.split('|')[1])
      const current = post(1, 'sql:json', { sql: forever(++serial) }, fresh).then((r) => r)
      await untilRunning(1, fresh)

      // Its session has one query running of 4 allowed; the user has two of 2.
      for (const g of [0, 1]) {
        const third = await post(g, 'run:json', { xml: `<table cols="x">${++serial}</table>` }, fresh)
        expect(third.status, third.text).to.equal(429)
        expect(third.headers['retry-after']).to.equal('1')
        expect(third.body.code).to.equal('too_many_requests')
        expect(third.body.error).to.contain('MAX_QUERIES_PER_USER = 2')
      }
      const other = await userCookie(svc, `other_${randomBytes(3).toString('hex')}`)
      expect((await post(1, 'sql:json', { sql: `select ${++serial} as x` }, other)).body).to.deep.equal({ x: [serial] })

      // The old session's query ends at its time limit; its slot is the user's again.
      expect((await old).status).to.equal(504)
      const again = await post(0, 'sql:json', { sql: `select ${++serial} as x` }, fresh)
      expect(again.status, again.text).to.equal(200)
      await post(1, 'sql/!stop:json', {}, fresh)
      expect((await current).status).to.equal(409)
    })
  })
}
