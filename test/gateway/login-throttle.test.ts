/**
 * Proves the login throttle (issues 8 and 16): failed logins are counted per (user id, client
 * address), per address and per user id over all addresses in the Store, so all gateways share
 * them; an attacker's failures never lock the real user out of their own address; past a limit a
 * login answers 429 with
 * Retry-After (the counter's remaining TTL) even with the right password, with a JSON `error`
 * that does not tell whether the user exists; unknown user ids count but create no user; a
 * success clears the user id's count but not the address's; parallel guesses cannot exceed the
 * limit; and the throttle lifts when the window ends. The API suite runs on the memory store, on
 * Redis and through three gateways.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { LoginThrottle, THROTTLE_KEYS, THROTTLE_PREFIX, type ThrottleLimits } from '../../gateway/auth/throttle.js'
import { createUser } from '../../gateway/catalog/users.js'
import { ADMIN_PASSWORD } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    expect(err).to.be.instanceOf(AppError)
    return err as AppError
  }
  throw new Error('expected a rejection')
}

describe('LoginThrottle', () => {
  let store: Store
  const limits: ThrottleLimits = { maxFailuresPerUser: 3, maxFailuresPerAddress: 5, maxFailuresAnywhere: 6, windowSeconds: 60 }

  beforeEach(async () => {
    store = createMemoryStore()
    await store.connect()
  })
  afterEach(() => store.close())

  /** One login attempt that fails its password check. */
  async function fail(t: LoginThrottle, uid: string, address: string): Promise<void> {
    await t.begin(uid, address)
    await t.failed(uid, address)
  }

  it('refuses a user id from an address after the limit, before the password is checked, with the seconds left', async () => {
    const t = new LoginThrottle(store, limits)
    for (let i = 0; i < 3; i++) await fail(t, 'ann', '10.0.0.1')
    const e = await rejection(t.begin('ann', '10.0.0.1'))
    expect(e.code).to.equal('TOO_MANY_REQUESTS')
    expect(e.message).to.match(/^Too many failed logins for this user id from your address; try again in \d+ seconds\.$/)
    expect(e.detail.retryAfterSeconds).to.be.within(55, 60)
    // Other user ids are not affected.
    await t.begin('bob', '10.0.0.1')
  })

  it("never locks the user id out of other addresses: the attacker's failures stay the attacker's", async () => {
    const t = new LoginThrottle(store, limits)
    for (let i = 0; i < 3; i++) await fail(t, 'ann', '10.6.6.6')
    await rejection(t.begin('ann', '10.6.6.6'))
    await t.begin('ann', '10.0.0.2')
    await t.succeeded('ann', '10.0.0.2')
  })

  it('past the limit over all addresses, lets only addresses the user id logged in from try', async () => {
    const t = new LoginThrottle(store, limits)
    await t.begin('ann', '10.0.0.1')
    await t.succeeded('ann', '10.0.0.1')
    // Six attackers, one guess each: no address and no pair reaches its own limit.
    for (let i = 0; i < 6; i++) await fail(t, 'ann', `10.9.0.${i}`)
    const e = await rejection(t.begin('ann', '10.9.0.99'))
    expect(e.message).to.match(
      /^Too many failed logins for this user id from many addresses; only addresses it logged in from before may try now; try again in \d+ seconds\.$/,
    )
    expect(e.detail.retryAfterSeconds).to.be.within(55, 60)
    await t.begin('ann', '10.0.0.1')
    await t.begin('bob', '10.9.0.99')
    expect(await store.ttl(THROTTLE_KEYS.known('ann', '10.0.0.1'))).to.be.above(29 * 24 * 3600)
  })

  it('counts failures per address over all user ids and leaves other addresses alone', async () => {
    const t = new LoginThrottle(store, limits)
    for (const uid of ['a1', 'a2', 'a3', 'a4', 'a5']) await fail(t, uid, '10.0.0.9')
    const e = await rejection(t.begin('fresh', '10.0.0.9'))
    expect(e.message).to.match(/^Too many failed logins from your address/)
    expect(e.detail.retryAfterSeconds).to.be.within(55, 60)
    await t.begin('fresh', '10.0.0.10')
  })

  it("clears the (user id, address) count on success, but not the address's", async () => {
    const t = new LoginThrottle(store, limits)
    for (let round = 0; round < 2; round++) {
      await fail(t, 'ann', '10.0.0.1')
      await fail(t, 'ann', '10.0.0.1')
      await t.begin('ann', '10.0.0.1')
      await t.succeeded('ann', '10.0.0.1')
    }
    expect(await store.get(THROTTLE_KEYS.pair('ann', '10.0.0.1'))).to.equal(null)
    expect(await store.get(THROTTLE_KEYS.address('10.0.0.1'))).to.equal('4')
    await fail(t, 'bob', '10.0.0.1')
    expect((await rejection(t.begin('ann', '10.0.0.1'))).message).to.match(/from your address/)
  })

  it('lets no more parallel guesses through than the limit', async () => {
    const t = new LoginThrottle(store, limits)
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => t.begin('ann', '10.0.0.1')))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(3)
  })

  it('lifts the throttle when the window of the first failure ends', async function () {
    this.timeout(10_000)
    const t = new LoginThrottle(store, { ...limits, windowSeconds: 1 })
    for (let i = 0; i < 3; i++) await fail(t, 'ann', '10.0.0.1')
    await rejection(t.begin('ann', '10.0.0.1'))
    await sleep(1500)
    await t.begin('ann', '10.0.0.1')
  })

  it('gives a counter that lost its TTL a full window instead of throttling forever', async () => {
    const t = new LoginThrottle(store, limits)
    await store.set(THROTTLE_KEYS.pair('ann', '10.0.0.1'), '7')
    expect((await rejection(t.begin('ann', '10.0.0.1'))).detail.retryAfterSeconds).to.equal(60)
    expect(await store.ttl(THROTTLE_KEYS.pair('ann', '10.0.0.1'))).to.be.within(58, 60)
  })

  it('keys plain ids as they are and hashes anything else to a short key', () => {
    expect(THROTTLE_KEYS.user('ann')).to.equal(`${THROTTLE_PREFIX}uid:ann`)
    expect(THROTTLE_KEYS.pair('ann', '10.0.0.1')).to.equal(`${THROTTLE_PREFIX}pair:ann:10.0.0.1`)
    expect(THROTTLE_KEYS.address('::ffff:127.0.0.1')).to.equal(`${THROTTLE_PREFIX}addr:::ffff:127.0.0.1`)
    const long = THROTTLE_KEYS.user('x'.repeat(10_000))
    expect(long.length).to.be.below(80)
    expect(THROTTLE_KEYS.user('a b')).not.to.equal(THROTTLE_KEYS.user('a  b'))
  })

  it('tells the listener once per window, without the user id', async () => {
    const events: unknown[] = []
    const t = new LoginThrottle(store, limits, (e) => events.push(e))
    for (let i = 0; i < 3; i++) await fail(t, 'ann', '10.0.0.1')
    for (let i = 0; i < 3; i++) await rejection(t.begin('ann', '10.0.0.1'))
    expect(events).to.have.length(1)
    expect(events[0]).to.include({ scope: 'user', address: '10.0.0.1' }).and.not.to.have.property('uid')
  })
})

const LIMITS = { LOGIN_MAX_FAILURES: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '7', LOGIN_WINDOW_SECONDS: '120' }

forEachStore(
  'login throttle',
  (svc) => {
    const login = (body: Record<string, string>, forwardedFor?: string) => {
      const req = svc().http.post('/v1/api/!login:json').type('form')
      if (forwardedFor !== undefined) req.set('X-Forwarded-For', forwardedFor)
      return req.send(body)
    }
    const store = (): Store => svc().deps.store

    /** Every test starts with no counts (all requests come from one loopback address). */
    beforeEach(async () => {
      const keys = await store().keys(THROTTLE_PREFIX)
      if (keys.length > 0) await store().del(...keys)
    })

    async function expectThrottled(res: Awaited<ReturnType<typeof login>>): Promise<void> {
      expect(res.status, res.text).to.equal(429)
      expect(res.type).to.equal('application/json')
      expect(res.body.error)
        .to.be.a('string')
        .and.match(/^Too many failed logins/)
      expect(res.body.code).to.equal('too_many_requests')
      const retryAfter = Number(res.headers['retry-after'])
      expect(retryAfter).to.be.within(1, 120)
      expect(res.body.detail.retryAfterSeconds).to.equal(retryAfter)
      expect(res.headers['set-cookie']).to.equal(undefined)
    }

    it('refuses the right password with 429 and Retry-After once a user id had too many failures', async () => {
      await createUser(store(), { uid: 'thr_ann', password: 'thr_ann-pass-1' })
      for (let i = 0; i < 3; i++) expect((await login({ uid: 'thr_ann', pw: `wrong-${i}` })).status).to.equal(401)
      await expectThrottled(await login({ uid: 'thr_ann', pw: 'thr_ann-pass-1' }))
      await expectThrottled(await login({ uid: 'thr_ann', pw: 'still-wrong' }))
      // Other users log in as before.
      expect((await login({ uid: 'admin', pw: ADMIN_PASSWORD })).status).to.equal(200)
    })

    it('throttles unknown user ids the same way, with the same message, and creates no user', async () => {
      await createUser(store(), { uid: 'thr_real', password: 'thr_real-pass-1' })
      const users = await store().keys('cat:user:')
      const answers: Record<string, unknown>[] = []
      for (const uid of ['thr_real', 'thr_ghost']) {
        for (let i = 0; i < 3; i++) expect((await login({ uid, pw: 'wrong-pass' })).body.error).to.equal('Invalid user id or password.')
        const res = await login({ uid, pw: 'wrong-pass' })
        await expectThrottled(res)
        // Only the seconds left may differ (the two windows started a moment apart).
        answers.push({ error: String(res.body.error).replace(/\d+ seconds/, 'N seconds'), code: res.body.code })
      }
      expect(answers[1]).to.deep.equal(answers[0])
      expect(await store().keys('cat:user:')).to.deep.equal(users)
      expect(await store().get(THROTTLE_KEYS.user('thr_ghost'))).not.to.equal(null)
    })

    it("clears the user id's count on a successful login", async () => {
      await createUser(store(), { uid: 'thr_bo', password: 'thr_bo-pass-1' })
      // Without the reset, the third failure overall would throttle the fourth attempt.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++) expect((await login({ uid: 'thr_bo', pw: 'wrong-pass' })).status).to.equal(401)
        expect((await login({ uid: 'thr_bo', pw: 'thr_bo-pass-1', kill: 'auth' })).status).to.equal(200)
      }
    })

    it('throttles an address after its failures over several user ids; a forged X-Forwarded-For does not help', async () => {
      // In-process gateways run without TRUST_PROXY (the header is ignored); the balancer in front
      // of the three gateways replaces it with the real address.
      const users = ['thr_c1', 'thr_c2', 'thr_c3', 'thr_c4']
      let n = 0
      for (const uid of users) {
        for (let i = 0; i < 2 && n < 7; i++, n++) expect((await login({ uid, pw: 'wrong-pass' }, `203.0.113.${n}`)).status).to.equal(401)
      }
      const res = await login({ uid: 'admin', pw: ADMIN_PASSWORD }, '198.51.100.1')
      await expectThrottled(res)
      expect(res.body.error).to.match(/from your address/)
    })

    it("answers Retry-After from the counter's TTL, and lets the user in once the window ended", async function () {
      this.timeout(20_000)
      await createUser(store(), { uid: 'thr_dee', password: 'thr_dee-pass-1' })
      for (let i = 0; i < 3; i++) await login({ uid: 'thr_dee', pw: 'wrong-pass' })
      const [key] = await store().keys(`${THROTTLE_PREFIX}pair:thr_dee:`)
      expect(await store().ttl(key)).to.be.within(100, 120)
      await store().expire(key, 50)
      const res = await login({ uid: 'thr_dee', pw: 'thr_dee-pass-1' })
      await expectThrottled(res)
      expect(Number(res.headers['retry-after'])).to.be.within(45, 50)
      // The end of the window, brought forward: the keys expire and nothing else holds the user.
      await store().expire(key, 1)
      await sleep(2200)
      expect((await login({ uid: 'thr_dee', pw: 'thr_dee-pass-1' })).status).to.equal(200)
    })

    it('does not count refused requests that never reached the password check', async () => {
      await createUser(store(), { uid: 'thr_eve', password: 'thr_eve-pass-1' })
      for (let i = 0; i < 5; i++) expect((await login({ uid: 'thr_eve', pw: 'x', kill: 'bogus' })).status).to.equal(400)
      for (let i = 0; i < 5; i++) expect((await login({ uid: 'thr_eve', pw: '' })).status).to.equal(400)
      expect((await login({ uid: 'thr_eve', pw: 'thr_eve-pass-1' })).status).to.equal(200)
    })
  },
  LIMITS,
)

// Behind a trusted balancer (TRUST_PROXY=1) the address is the one the balancer appended last to
// X-Forwarded-For (nginx's $proxy_add_x_forwarded_for keeps what the client sent in front). One
// in-process run is enough: this is about how the gateway reads the header, not about the Store.
forEachStore(
  'login throttle behind a trusted balancer',
  (svc) => {
    const login = (uid: string, pw: string, forwardedFor: string) =>
      svc().http.post('/v1/api/!login:json').type('form').set('X-Forwarded-For', forwardedFor).send({ uid, pw })

    it('lets the real user in from their address while an attacker elsewhere is throttled on their user id', async () => {
      await createUser(svc().deps.store, { uid: 'thr_vic', password: 'thr_vic-pass-1' })
      for (let i = 0; i < 3; i++) expect((await login('thr_vic', `guess-${i}`, '203.0.113.66')).status).to.equal(401)
      expect((await login('thr_vic', 'thr_vic-pass-1', '203.0.113.66')).status, 'the attacker is throttled').to.equal(429)
      expect((await login('thr_vic', 'thr_vic-pass-1', '198.51.100.20')).status, 'the victim elsewhere').to.equal(200)
    })

    it('counts the address the balancer saw, whatever the client forged in front of it', async () => {
      for (let n = 0; n < 7; n++) expect((await login(`thr_p${n % 3}`, 'wrong-pass', `203.0.113.${n}, 198.51.100.7`)).status).to.equal(401)
      const throttled = await login('admin', ADMIN_PASSWORD, '192.0.2.1, 198.51.100.7')
      expect(throttled.status).to.equal(429)
      expect(throttled.body.error).to.match(/from your address/)
      expect((await login('admin', ADMIN_PASSWORD, '198.51.100.8')).status, 'another client').to.equal(200)
    })
  },
  { ...LIMITS, TRUST_PROXY: '1' },
  { skip: ['redis', 'cluster'] },
)
