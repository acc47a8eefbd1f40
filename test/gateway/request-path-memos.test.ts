/**
 * The memos of the request path (issue 9, gateway throughput): the containers they are built on,
 * the session's idle-timer throttle, the principal memo, and rendered answers. Behaviour across
 * gateways is in session-sharing.test.ts.
 */
import { expect } from 'chai'
import { IdleTouches, touchIntervalMs } from '../../gateway/auth/idle-touches.js'
import { principalInputKeys, PrincipalMemo } from '../../gateway/auth/principal-memo.js'
import { SESSION_KEYS, SessionManager } from '../../gateway/auth/sessions.js'
import { BoundedMap } from '../../gateway/cache/bounded-map.js'
import { ClockCache } from '../../gateway/cache/clock-cache.js'
import { answerKey, MAX_BODY_CHARS, RenderedAnswers } from '../../gateway/query/results/rendered-answers.js'
import { Directory, type Principal } from '../../gateway/catalog/principal.js'
import { KEYS, type UserRecord } from '../../gateway/catalog/records.js'
import { createMemoryStore } from '../../shared/store/index.js'
import type { Store, WriteOp } from '../../shared/store/types.js'

describe('BoundedMap', () => {
  it('holds at most its size, dropping the oldest insertion first', () => {
    const m = new BoundedMap<string, number>(2)
    m.set('a', 1)
    m.set('b', 2)
    m.set('a', 10)
    m.set('c', 3)
    expect([m.get('a'), m.get('b'), m.get('c'), m.size]).to.deep.equal([undefined, 2, 3, 2])
  })
})

describe('ClockCache', () => {
  it('keeps an entry that was read over one that was not, within its budget', () => {
    const c = new ClockCache<string>(3, () => 1)
    for (const k of ['a', 'b', 'c']) c.set(k, k.toUpperCase())
    expect(c.get('a')).to.equal('A')
    c.set('d', 'D')
    expect([c.get('a'), c.get('b'), c.get('c'), c.get('d')]).to.deep.equal(['A', undefined, 'C', 'D'])
    expect(c.count).to.equal(3)
  })

  it('charges entries by size and keeps nothing larger than the whole budget', () => {
    const c = new ClockCache<string>(10, (v) => v.length)
    c.set('big', 'x'.repeat(11))
    expect(c.get('big')).to.equal(undefined)
    c.set('a', 'x'.repeat(6))
    c.set('b', 'x'.repeat(6))
    expect([c.get('a'), c.get('b'), c.size]).to.deep.equal([undefined, 'x'.repeat(6), 6])
  })
})

describe('IdleTouches', () => {
  it('is due once per interval for each session, and again at once after forget', () => {
    let now = 1_000
    const t = new IdleTouches(500, () => now)
    expect([t.due('s1'), t.due('s1'), t.due('s2')]).to.deep.equal([true, false, true])
    now += 499
    expect(t.due('s1')).to.equal(false)
    now += 1
    expect(t.due('s1')).to.equal(true)
    t.forget('s1')
    expect(t.due('s1')).to.equal(true)
  })

  it('takes a hundredth of SESSION_TTL, at most a second', () => {
    expect(touchIntervalMs(3)).to.equal(30)
    expect(touchIntervalMs(3600)).to.equal(1000)
  })
})

/** A memory store that records the batches written through it, and the keys given a TTL alone. */
async function recordingStore(): Promise<{ store: Store; batches: WriteOp[][]; expired: string[] }> {
  const store = createMemoryStore()
  await store.connect()
  const batches: WriteOp[][] = []
  const expired: string[] = []
  const batch = store.batch.bind(store)
  store.batch = (ops, token) => {
    batches.push([...ops])
    return batch(ops, token)
  }
  const expire = store.expire.bind(store)
  store.expire = (key, ttl) => {
    expired.push(key)
    return expire(key, ttl)
  }
  return { store, batches, expired }
}

describe('SessionManager on the request path', () => {
  it('restarts the idle timer at the first request and then at most once per interval, reading the session every time', async () => {
    const { store, batches, expired } = await recordingStore()
    try {
      const sessions = new SessionManager(store, 3600, undefined, 60_000)
      const c = await sessions.login('ann', 'possess')
      batches.length = 0
      expired.length = 0
      for (let i = 0; i < 5; i++) expect(await sessions.authenticate(c)).not.to.equal(null)
      // The session's own keys together, the user's pointer (another cluster slot) beside them.
      expect(batches.map((b) => b.map((op) => op.key))).to.deep.equal([[SESSION_KEYS.session(c.sid), SESSION_KEYS.data(c.sid)]])
      expect(expired).to.deep.equal([SESSION_KEYS.userSession('ann')])
      await store.del(SESSION_KEYS.session(c.sid))
      expect(await sessions.authenticate(c), 'a session gone from the Store').to.equal(null)
    } finally {
      await store.close()
    }
  })

  it('restarts the timer on every request with an interval of 0', async () => {
    const { store, batches } = await recordingStore()
    try {
      const sessions = new SessionManager(store, 3600, undefined, 0)
      const c = await sessions.login('ann', 'possess')
      batches.length = 0
      for (let i = 0; i < 3; i++) await sessions.authenticate(c)
      expect(batches).to.have.length(3)
    } finally {
      await store.close()
    }
  })

  it('tries the restart again at the next request after it failed', async () => {
    const { store, batches } = await recordingStore()
    try {
      const sessions = new SessionManager(store, 3600, undefined, 60_000)
      const c = await sessions.login('ann', 'possess')
      const batch = store.batch
      store.batch = () => Promise.reject(new Error('store down'))
      let failed = false
      await sessions.authenticate(c).catch(() => (failed = true))
      expect(failed).to.equal(true)
      store.batch = batch
      batches.length = 0
      expect(await sessions.authenticate(c)).not.to.equal(null)
      expect(batches).to.have.length(1)
    } finally {
      await store.close()
    }
  })

  it('accepts a token joined by a later login and refuses it once the record drops it', async () => {
    const store = createMemoryStore()
    await store.connect()
    try {
      const sessions = new SessionManager(store, 3600)
      const first = await sessions.login('ann', 'possess')
      expect(await sessions.authenticate(first)).not.to.equal(null)
      const second = await sessions.login('ann', 'possess')
      expect(await sessions.authenticate(second), 'a new text for the same sid').not.to.equal(null)
      await sessions.keepOnlyPresentedToken((await sessions.authenticate(second))!)
      expect(await sessions.authenticate(first)).to.equal(null)
      expect(await sessions.authenticate(second)).not.to.equal(null)
    } finally {
      await store.close()
    }
  })
})

const userRecord = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid,
  passwordHash: '',
  active: true,
  first: '',
  middle: '',
  last: '',
  email: '',
  company: 'main',
  roles: [],
  created: '',
  updated: '',
  ...extra,
})

describe('PrincipalMemo', () => {
  it('names exactly the keys Directory.principal reads for a user, besides the group records behind the membership map', async () => {
    const store = createMemoryStore()
    await store.connect()
    try {
      const read: string[] = []
      const mget = store.mget.bind(store)
      store.mget = (keys) => {
        read.push(...keys)
        return mget(keys)
      }
      const get = store.get.bind(store)
      store.get = (key) => {
        read.push(key)
        return get(key)
      }
      const user = userRecord('ann', { company: 'acme', roles: ['user_admin', 'folder_creator'] })
      await new Directory(store).principal(user)
      expect(new Set(read.filter((k) => !k.startsWith(KEYS.group(''))))).to.deep.equal(new Set(principalInputKeys(user)))
    } finally {
      await store.close()
    }
  })

  it('reuses a principal only while the user text and every input text are the ones it was made from', async () => {
    let made = 0
    const directory = {
      principal: async (u: UserRecord): Promise<Principal> => ({ uid: u.uid, company: u.company, groups: [`g${++made}`], caps: new Set(), admin: false }),
    } as unknown as Directory
    const memo = new PrincipalMemo()
    const text = JSON.stringify(userRecord('ann'))
    const user = memo.user('ann', text)!
    expect(memo.inputKeys('ann')).to.deep.equal([])
    const first = await memo.principal(directory, user, text, [], [])
    const keys = memo.inputKeys('ann')
    expect(keys).to.deep.equal(principalInputKeys(user))
    // The first request could not know the keys: the next one reads them, and makes it again.
    const second = await memo.principal(directory, user, text, keys, ['rev1', '{"company":1}'])
    expect(second).not.to.equal(first)
    expect(await memo.principal(directory, user, text, keys, ['rev1', '{"company":1}'])).to.equal(second)
    expect(await memo.principal(directory, user, text, keys, ['rev2', '{"company":1}']), 'groups changed').not.to.equal(second)
    expect(made).to.equal(3)
    const changed = JSON.stringify(userRecord('ann', { roles: ['user_admin'] }))
    const third = await memo.principal(directory, memo.user('ann', changed)!, changed, keys, ['rev2', '{"company":1}'])
    expect(made, 'a changed user record').to.equal(4)
    expect(memo.inputKeys('ann')).to.deep.equal([...keys, KEYS.role('user_admin')])
    expect(third.groups).to.deep.equal(['g4'])
    expect(memo.user('ann', changed), 'its record is shared once known').to.equal(memo.user('ann', changed))
  })
})

describe('RenderedAnswers', () => {
  it('keeps small string answers by key and renders streams and large answers every time', () => {
    const answers = new RenderedAnswers()
    let renders = 0
    const small = () => ({ type: 'application/json', body: `{"n":[${++renders}]}` })
    expect(answers.answer(answerKey('k', 'data', 'json', 0, 100), small).body).to.equal('{"n":[1]}')
    expect(answers.answer(answerKey('k', 'data', 'json', 0, 100), small).body).to.equal('{"n":[1]}')
    expect(answers.answer(answerKey('k', 'data', 'json', 0, 101), small).body, 'another range').to.equal('{"n":[2]}')
    const large = () => ({ type: 'text/plain', body: 'x'.repeat(MAX_BODY_CHARS + 1) })
    answers.answer('big', large)
    const stream = () => ({
      type: 'text/plain',
      body: (async function* () {
        yield 'a'
      })(),
    })
    answers.answer('stream', stream)
    expect([answers.get('big'), answers.get('stream'), answers.count]).to.deep.equal([undefined, undefined, 2])
  })

  it('keys each part apart, so no two requests share a key by accident of joining', () => {
    expect(answerKey('k', 'data', 'json', 1, 23)).not.to.equal(answerKey('k', 'data', 'json', 12, 3))
    expect(answerKey('k', 'answer', 'json', false)).not.to.equal(answerKey('k', 'answer', 'json', true))
  })
})
