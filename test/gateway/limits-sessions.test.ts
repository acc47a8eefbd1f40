/**
 * MAX_QUERIES_PER_SESSION: the session slots in the Store (gateway/query/running/session-slots.ts) grant
 * exactly the limit, also to concurrent requests on two connections, ignore lapsed slots and keep
 * refreshed ones; and through the API, on every kind of service, a session with the limit of
 * queries running is refused with 429 and Retry-After while other sessions are not, and gets its
 * slots back when its queries fail, time out or are stopped.
 */
import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import { acquireSlot, slotsKey, type SlotLease } from '../../gateway/query/running/index.js'
import { userCookie } from '../helpers/dbm.js'
import { loggedIn, redisAvailable } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { forever, refusal, twoStoreConnections } from '../helpers/query-slots.js'
import { interruptible } from '../helpers/interruptible-store.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const kind of ['memory', 'redis'] as const) {
  describe(`session slots (${kind} store)`, () => {
    before(function () {
      if (kind === 'redis' && !redisAvailable()) this.skip()
    })
    /** Two connections to one Store (one and the same memory store): two gateways. */
    const pair = twoStoreConnections(kind)

    it('grants the limit, refuses one more with TOO_MANY_REQUESTS, and grants again after a release', async () => {
      const leases = [await acquireSlot(pair()[0], { uid: 'u', sid: 's1' }, 2), await acquireSlot(pair()[1], { uid: 'u', sid: 's1' }, 2)]
      const refused = await refusal(acquireSlot(pair()[0], { uid: 'u', sid: 's1' }, 2))
      expect(refused.code).to.equal('TOO_MANY_REQUESTS')
      expect(refused.message).to.contain('MAX_QUERIES_PER_SESSION = 2')
      expect(refused.detail).to.deep.equal({ limit: 2, retryAfterSeconds: 1 })
      // Another session has its own slots.
      const other = await acquireSlot(pair()[1], { uid: 'u', sid: 's2' }, 2)
      await leases[0].release()
      await leases[0].release()
      leases[0] = await acquireSlot(pair()[1], { uid: 'u', sid: 's1' }, 2)
      await Promise.all([...leases, other].map((l) => l.release()))
      expect(await pair()[0].keys('sessq:')).to.deep.equal([])
    })

    it('grants exactly the limit to many requests at once on two connections', async () => {
      const attempts = Array.from({ length: 12 }, (_, i) =>
        acquireSlot(pair()[i % 2], { uid: 'u', sid: 'busy' }, 4).then(
          (lease) => lease,
          (err: unknown) => err,
        ),
      )
      const outcomes = await Promise.all(attempts)
      const granted = outcomes.filter((o): o is SlotLease => !(o instanceof Error))
      expect(granted).to.have.length(4)
      for (const o of outcomes) if (o instanceof Error) expect((o as AppError).code).to.equal('TOO_MANY_REQUESTS')
      await Promise.all(granted.map((l) => l.release()))
    })

    it('gives back a slot whose release the Store missed within seconds of its return, not after the slot TTL', async () => {
      const cut = interruptible(pair()[0])
      const lease = await acquireSlot(cut.store, { uid: 'u', sid: 's4' }, 1)
      cut.down = true
      await lease.release()
      cut.down = false
      // The release failed: the slot still counts.
      expect((await refusal(acquireSlot(pair()[1], { uid: 'u', sid: 's4' }, 1))).code).to.equal('TOO_MANY_REQUESTS')
      const deadline = Date.now() + 3000
      let again: SlotLease | null = null
      while (again === null) {
        again = await acquireSlot(pair()[1], { uid: 'u', sid: 's4' }, 1).catch(() => null)
        if (again === null && Date.now() > deadline) throw new Error('the slot was not given back within 3 s of the Store coming back')
        if (again === null) await sleep(50)
      }
      await again.release()
    })

    it('does not count a slot whose time is up (a gateway that died), and counts one that is not', async () => {
      await pair()[0].set(slotsKey({ uid: 'u', sid: 's3' }), JSON.stringify({ dead: Date.now() - 1 }), { ttl: 30 })
      const lease = await acquireSlot(pair()[1], { uid: 'u', sid: 's3' }, 1)
      await lease.release()
      await pair()[0].set(slotsKey({ uid: 'u', sid: 's3' }), JSON.stringify({ alive: Date.now() + 20_000 }), { ttl: 30 })
      expect((await refusal(acquireSlot(pair()[1], { uid: 'u', sid: 's3' }, 1))).code).to.equal('TOO_MANY_REQUESTS')
    })

    it('keeps the slot of a query that runs longer than the slot TTL', async function () {
      this.timeout(10_000)
      const lease = await acquireSlot(pair()[0], { uid: 'u', sid: 's4' }, 1, 1)
      await sleep(1800)
      expect((await refusal(acquireSlot(pair()[1], { uid: 'u', sid: 's4' }, 1, 1))).code).to.equal('TOO_MANY_REQUESTS')
      await lease.release()
      await (await acquireSlot(pair()[1], { uid: 'u', sid: 's4' }, 1, 1)).release()
    })
  })
}

forEachStore(
  'MAX_QUERIES_PER_SESSION',
  (svc, kind) => {
    const session = loggedIn(svc)
    let serial = 0
    const post = (path: string, body: object, as = session.cookie) => svc().http.post(`/v1/api/${path}`).set('Cookie', as).send(body)
    const running = async (path: string) => (await session.get(`/v1/api/${path}/!status:json`)).body.running === true

    async function untilRunning(path: string): Promise<void> {
      const deadline = Date.now() + 20_000
      while (!(await running(path))) {
        if (Date.now() > deadline) throw new Error(`the query of api/${path} did not start`)
        await sleep(30)
      }
    }

    /** Two queries at once from the session: both must run into their timeout_ (504), neither be refused. */
    async function expectTwoAtOnce(): Promise<void> {
      const answers = await Promise.all([
        post('sql:json', { sql: forever(++serial), timeout_: 1500 }),
        post('run:json', { xml: slowMacro(++serial), timeout_: 1500 }),
      ])
      expect(
        answers.map((a) => a.status),
        answers.map((a) => a.text).join('\n'),
      ).to.deep.equal([504, 504])
    }

    it('refuses a third query of a session running two with 429 and Retry-After, on any gateway; other sessions run', async function () {
      this.timeout(60_000)
      const tag = (await post('new/sql:json', {})).body.tag as number
      const first = post('sql:json', { sql: forever(++serial) }).then((r) => r)
      const second = post(`${tag}:json`, { sql: forever(++serial) }).then((r) => r)
      await Promise.all([untilRunning('sql'), untilRunning(String(tag))])
      for (const path of ['run:json', 'sql:json', `${tag}:json`]) {
        const third = await post(path, { xml: '<table cols="x">1</table>', sql: 'select 1' })
        expect(third.status, third.text).to.equal(429)
        expect(third.headers['retry-after']).to.equal('1')
        expect(third.body.code).to.equal('too_many_requests')
        expect(third.body.error).to.contain('MAX_QUERIES_PER_SESSION')
      }
      const other = await userCookie(svc(), `slots_${randomBytes(3).toString('hex')}`)
      expect((await post('sql:json', { sql: 'select 5 as five' }, other)).body).to.deep.equal({ five: [5] })
      await session.post('/v1/api/sql/!stop:json')
      await session.post(`/v1/api/${tag}/!stop:json`)
      expect((await first).status).to.equal(409)
      expect((await second).status).to.equal(409)
      await expectTwoAtOnce()
    })

    it('answers a query whose result this gateway holds while every slot is taken (it runs nothing), and refuses a new one', async function () {
      // Behind the balancer the next request goes to another gateway, which does not hold the result.
      if (kind === 'cluster') return this.skip()
      this.timeout(60_000)
      const n = ++serial
      expect((await post('sql:json', { sql: `select ${n} as held` })).status).to.equal(200)
      const tag = (await post('new/sql:json', {})).body.tag as number
      const first = post('sql:json', { sql: forever(++serial) }).then((r) => r)
      const second = post(`${tag}:json`, { sql: forever(++serial) }).then((r) => r)
      await Promise.all([untilRunning('sql'), untilRunning(String(tag))])
      const again = await post('sql:json', { sql: `select ${n} as held` })
      expect(again.status, again.text).to.equal(200)
      expect(again.body).to.deep.equal({ held: [n] })
      expect((await post('sql:json', { sql: `select ${++serial} as fresh` })).status).to.equal(429)
      await session.post('/v1/api/sql/!stop:json')
      await session.post(`/v1/api/${tag}/!stop:json`)
      expect((await first).status).to.equal(409)
      expect((await second).status).to.equal(409)
      await expectTwoAtOnce()
    })

    it('gives the slots back when queries fail at run time, time out or are stopped', async function () {
      this.timeout(60_000)
      for (let i = 0; i < 3; i++) {
        const failed = await post('sql:json', { sql: `select abs(-9223372036854775808) + ${++serial}` })
        expect(failed.status, failed.text).to.equal(400)
        expect(failed.body.code).to.equal('sql_error')
      }
      const timedOut = await Promise.all([1, 2].map(() => post('sql:json', { sql: forever(++serial), timeout_: 300 })))
      expect(timedOut.map((r) => r.status)).to.deep.equal([504, 504])
      const stopped = post('sql:json', { sql: forever(++serial) }).then((r) => r)
      await untilRunning('sql')
      await session.post('/v1/api/sql/!stop:json')
      expect((await stopped).status).to.equal(409)
      await expectTwoAtOnce()
    })
  },
  { MAX_QUERIES_PER_SESSION: '2', WORKERS: '3', QUERY_TIMEOUT_MS: '60000' },
)

/** Sorts of two million generated rows, for a macro query that runs until its timeout_; `n` makes it distinct. */
function slowMacro(n: number): string {
  const sorts = Array.from({ length: 40 }, (_, i) => `<sort col="r" dir="${i % 2 ? 'up' : 'down'}"/>`).join('')
  return `<table depth="2000000"/><willbe name="r" value="mod(i_()*7919.0;1000003)+${n}"/>${sorts}`
}
