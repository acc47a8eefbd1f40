/**
 * The behaviour every Store must show, written once and run against each implementation, so the
 * memory store and Redis cannot drift apart unnoticed. Not a test file itself (no .test suffix):
 * store.test.ts calls it with a factory per implementation.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until check() holds; pub/sub delivery is asynchronous, so tests wait for it, briefly. */
async function eventually(check: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting until ${what}.`)
    await sleep(5)
  }
}

/** Resolves to the rejection of a promise that must fail. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error('Expected the call to fail, but it succeeded.')
}

/**
 * Keys a batch writes together (and those it watches) carry one hash tag, `{…}`, as they must on a
 * Redis Cluster, where an atomic batch only works within one hash slot; elsewhere braces are plain
 * characters.
 *
 * Registers the contract suite. `make` returns a connected store, empty on the first call. Later
 * calls may return another connection to the same data (Redis) or an independent store (memory);
 * the suite finds out which and closes every store it made.
 */
export function storeContract(label: string, make: () => Promise<Store>): void {
  describe(`${label}: the Store contract`, () => {
    let store: Store
    /**
     * The "other client": a second connection to the same data when the implementation has one, so
     * concurrent writers, readers and publishers really are concurrent (on a single Redis connection
     * commands run strictly in order and could hide a non-atomic batch); otherwise the store itself.
     */
    let peer: Store
    let second: Store | null = null

    before(async () => {
      store = await make()
      second = await make()
      await store.set('peer:probe', 'shared')
      peer = (await second.get('peer:probe')) === 'shared' ? second : store
    })

    after(async () => {
      await store?.close()
      await second?.close()
    })

    it('answers ping and reports which kind of store it is', async () => {
      await store.ping()
      expect(['memory', 'redis']).to.include(store.kind)
    })

    it('returns null for a key that was never set', async () => {
      expect(await store.get('str:never')).to.equal(null)
    })

    it('reads back stored values, including empty and non-ASCII strings', async () => {
      for (const [key, value] of [
        ['str:plain', 'hello'],
        ['str:empty', ''],
        ['str:unicode', 'Zürich ✓ 東京 🚀'],
        ['str:lines', 'a\r\nb\u0000c'],
      ]) {
        expect(await store.set(key, value)).to.equal(true)
        expect(await store.get(key)).to.equal(value)
      }
    })

    it('replaces a value on a plain set', async () => {
      await store.set('str:over', 'one')
      await store.set('str:over', 'two')
      expect(await store.get('str:over')).to.equal('two')
    })

    it('sets with nx only when the key does not exist yet', async () => {
      expect(await store.set('str:nx', 'first', { nx: true })).to.equal(true)
      expect(await store.set('str:nx', 'second', { nx: true })).to.equal(false)
      expect(await store.get('str:nx')).to.equal('first')
    })

    it('expires keys after their TTL, whether it came from set, expire or a batch', async () => {
      await store.set('ttl:set', 'v', { ttl: 1 })
      await store.set('ttl:expire', 'v')
      expect(await store.expire('ttl:expire', 1)).to.equal(true)
      await store.hset('ttl:{b}hash', { f: 'v' })
      await store.batch([
        { op: 'set', key: 'ttl:{b}batch', value: 'v', ttl: 1 },
        { op: 'expire', key: 'ttl:{b}hash', ttl: 1 },
      ])
      await store.set('ttl:none', 'stays')
      await store.set('ttl:nx', 'v', { ttl: 1, nx: true })
      expect(await store.ttl('ttl:set')).to.equal(1)
      expect(await store.ttl('ttl:none')).to.equal(-1)

      await sleep(1150)

      expect(await store.mget(['ttl:set', 'ttl:expire', 'ttl:{b}batch', 'ttl:nx', 'ttl:none'])).to.deep.equal([null, null, null, null, 'stays'])
      expect(await store.hgetall('ttl:{b}hash')).to.deep.equal({})
      expect(await store.ttl('ttl:set')).to.equal(-2)
      expect(await store.keys('ttl:')).to.deep.equal(['ttl:none'])
      // An expired key counts as missing for nx.
      expect(await store.set('ttl:nx', 'again', { nx: true })).to.equal(true)
    })

    it('reports -1 for a key without a TTL and -2 for a missing key', async () => {
      await store.set('ttl:plain', 'v')
      expect(await store.ttl('ttl:plain')).to.equal(-1)
      expect(await store.ttl('ttl:missing')).to.equal(-2)
    })

    it('drops an older TTL when a key is set again without one', async () => {
      await store.set('ttl:reset', 'v', { ttl: 100 })
      expect(await store.ttl('ttl:reset')).to.be.within(99, 100)
      await store.set('ttl:reset', 'w')
      expect(await store.ttl('ttl:reset')).to.equal(-1)
    })

    it('returns false from expire when the key does not exist', async () => {
      expect(await store.expire('ttl:ghost', 10)).to.equal(false)
      expect(await store.ttl('ttl:ghost')).to.equal(-2)
    })

    it('refuses a TTL that is not a whole number of seconds above zero', async () => {
      expect(await rejection(store.set('ttl:bad', 'v', { ttl: 0 }))).to.be.instanceOf(RangeError)
      expect(await rejection(store.set('ttl:bad', 'v', { ttl: 1.5 }))).to.be.instanceOf(RangeError)
      expect(await rejection(store.expire('ttl:bad', -1))).to.be.instanceOf(RangeError)
      expect(await rejection(store.batch([{ op: 'set', key: 'ttl:bad', value: 'v', ttl: 0 }]))).to.be.instanceOf(RangeError)
      expect(await store.get('ttl:bad')).to.equal(null)
    })

    it('deletes keys of any type and returns how many existed', async () => {
      await store.set('del:a', '1')
      await store.hset('del:h', { f: '1' })
      await store.sadd('del:s', 'm')
      expect(await store.del('del:a', 'del:h', 'del:s', 'del:missing')).to.equal(3)
      expect(await store.del('del:a')).to.equal(0)
      expect(await store.del()).to.equal(0)
      expect(await store.keys('del:')).to.deep.equal([])
    })

    it('returns mget values in the order asked, with null for missing keys and keys of other types', async () => {
      await store.set('mget:a', 'A')
      await store.set('mget:c', 'C')
      await store.sadd('mget:set', 'x')
      expect(await store.mget(['mget:c', 'mget:b', 'mget:a', 'mget:set'])).to.deep.equal(['C', null, 'A', null])
      expect(await store.mget([])).to.deep.equal([])
    })

    it('counts from 1 when incr meets a missing key, and keeps the TTL of an existing one', async () => {
      expect(await store.incr('ctr:fresh')).to.equal(1)
      expect(await store.incr('ctr:fresh')).to.equal(2)
      expect(await store.get('ctr:fresh')).to.equal('2')
      await store.set('ctr:ttl', '41', { ttl: 100 })
      expect(await store.incr('ctr:ttl')).to.equal(42)
      expect(await store.ttl('ctr:ttl')).to.be.within(99, 100)
    })

    it('gives 200 concurrent incr calls 200 distinct values, on a durable counter', async () => {
      const values = await Promise.all(Array.from({ length: 200 }, () => store.incr('seq:contract')))
      expect(new Set(values).size).to.equal(200)
      expect(Math.min(...values)).to.equal(1)
      expect(Math.max(...values)).to.equal(200)
      expect(await store.get('seq:contract')).to.equal('200')
    })

    it('refuses to incr a value that is not a whole number', async () => {
      await store.set('ctr:text', 'abc')
      expect((await rejection(store.incr('ctr:text'))).message).to.match(/not an integer/)
      expect(await store.get('ctr:text')).to.equal('abc')
    })

    it('stores hash fields, reads one or all of them, and deletes fields', async () => {
      await store.hset('hash:a', { name: 'Ada', role: 'admin' })
      await store.hset('hash:a', { role: 'user', city: 'Basel' })
      expect(await store.hget('hash:a', 'role')).to.equal('user')
      expect(await store.hget('hash:a', 'none')).to.equal(null)
      expect(await store.hgetall('hash:a')).to.deep.equal({ name: 'Ada', role: 'user', city: 'Basel' })
      expect(await store.hdel('hash:a', 'name', 'none')).to.equal(1)
      expect(await store.hgetall('hash:a')).to.deep.equal({ role: 'user', city: 'Basel' })
      expect(await store.hgetall('hash:missing')).to.deep.equal({})
      expect(await store.hget('hash:missing', 'f')).to.equal(null)
      expect(await store.hdel('hash:missing', 'f')).to.equal(0)
    })

    it('removes a hash once its last field is deleted', async () => {
      await store.hset('hash:gone', { only: '1' })
      expect(await store.hdel('hash:gone', 'only')).to.equal(1)
      expect(await store.keys('hash:gone')).to.deep.equal([])
      expect(await store.ttl('hash:gone')).to.equal(-2)
    })

    it('adds and removes set members, counting only real changes', async () => {
      expect(await store.sadd('set:a', 'x', 'y', 'x')).to.equal(2)
      expect(await store.sadd('set:a', 'y', 'z')).to.equal(1)
      expect((await store.smembers('set:a')).sort()).to.deep.equal(['x', 'y', 'z'])
      expect(await store.srem('set:a', 'x', 'nope')).to.equal(1)
      expect((await store.smembers('set:a')).sort()).to.deep.equal(['y', 'z'])
      expect(await store.smembers('set:missing')).to.deep.equal([])
      expect(await store.srem('set:a', 'y', 'z')).to.equal(2)
      expect(await store.keys('set:a')).to.deep.equal([])
    })

    it('fails with WRONGTYPE when a key is used as another type', async () => {
      await store.set('type:str', 'v')
      await store.hset('type:hash', { f: 'v' })
      // Thunks, so each call starts only when awaited and no rejection goes unhandled meanwhile.
      const calls = [() => store.hget('type:str', 'f'), () => store.sadd('type:str', 'm'), () => store.get('type:hash'), () => store.incr('type:hash')]
      for (const call of calls) expect((await rejection(call())).message).to.match(/^WRONGTYPE/)
      expect(await store.get('type:str')).to.equal('v')
    })

    it('lists the keys that start with a prefix, taking glob characters in it literally', async () => {
      await store.set('list:a1', '1')
      await store.set('list:a2', '2')
      await store.hset('list:a3', { f: '1' })
      await store.set('list:b1', '3')
      await store.set('glob*x', '1')
      await store.set('globyx', '1')
      await store.set('glob[x]', '1')
      expect(await store.keys('list:a')).to.deep.equal(['list:a1', 'list:a2', 'list:a3'])
      expect(await store.keys('glob*')).to.deep.equal(['glob*x'])
      expect(await store.keys('glob[')).to.deep.equal(['glob[x]'])
      expect(await store.keys('nothing:')).to.deep.equal([])
    })

    it('applies a batch of mixed writes in order', async () => {
      await store.set('batch:{m}old', 'x')
      await store.sadd('batch:{m}set', 'a', 'b')
      await store.hset('batch:{m}hash', { keep: '1', drop: '2' })
      const ops: WriteOp[] = [
        { op: 'set', key: 'batch:{m}new', value: 'n' },
        { op: 'del', key: 'batch:{m}old' },
        { op: 'hset', key: 'batch:{m}hash', fields: { added: '3' } },
        { op: 'hdel', key: 'batch:{m}hash', fields: ['drop'] },
        { op: 'sadd', key: 'batch:{m}set', members: ['c'] },
        { op: 'srem', key: 'batch:{m}set', members: ['a'] },
        { op: 'expire', key: 'batch:{m}new', ttl: 100 },
        { op: 'set', key: 'batch:{m}twice', value: 'first' },
        { op: 'set', key: 'batch:{m}twice', value: 'second' },
      ]
      expect(await store.batch(ops)).to.equal(true)
      expect(await store.mget(['batch:{m}new', 'batch:{m}old', 'batch:{m}twice'])).to.deep.equal(['n', null, 'second'])
      expect(await store.hgetall('batch:{m}hash')).to.deep.equal({ keep: '1', added: '3' })
      expect((await store.smembers('batch:{m}set')).sort()).to.deep.equal(['b', 'c'])
      expect(await store.ttl('batch:{m}new')).to.be.within(99, 100)
      expect(await store.batch([])).to.equal(true)
    })

    it('applies a batch with large hashes and sets in full', async () => {
      const fields = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`f${i}`, `v${i}`]))
      const members = Array.from({ length: 2500 }, (_, i) => `m${i}`)
      await store.batch([
        { op: 'hset', key: 'big:{g}hash', fields },
        { op: 'sadd', key: 'big:{g}set', members },
      ])
      expect(Object.keys(await store.hgetall('big:{g}hash'))).to.have.length(1500)
      expect(await store.smembers('big:{g}set')).to.have.length(2500)
      const token = await store.watch(['big:{g}none'])
      expect(await store.batch([{ op: 'srem', key: 'big:{g}set', members }], token)).to.equal(true)
      expect(await store.smembers('big:{g}set')).to.deep.equal([])
    })

    it('rejects a batch that uses a key as the wrong type', async () => {
      await store.set('batch:{w}str', 'v')
      const err = await rejection(
        store.batch([
          { op: 'set', key: 'batch:{w}ok', value: '1' },
          { op: 'sadd', key: 'batch:{w}str', members: ['m'] },
        ]),
      )
      expect(err.message).to.match(/^WRONGTYPE/)
    })

    it('never lets a reader see part of a batch', async () => {
      const keys = ['atom:{a}a', 'atom:{a}b', 'atom:{a}c', 'atom:{a}d']
      const calls: Promise<unknown>[] = []
      const seen: (string | null)[][] = []
      for (let round = 0; round < 300; round++) {
        calls.push(store.batch(keys.map((key) => ({ op: 'set', key, value: String(round) }))))
        calls.push(peer.mget(keys).then((values) => seen.push(values)))
      }
      await Promise.all(calls)
      const torn = seen.filter((values) => new Set(values).size !== 1)
      expect(torn, `mget saw a half-applied batch: ${JSON.stringify(torn[0])}`).to.deep.equal([])
      expect(await store.mget(keys)).to.deep.equal(['299', '299', '299', '299'])
    })

    it('applies a conditional batch when the watched keys are unchanged, missing ones included', async () => {
      await store.set('cas:{c}a', '1')
      const token = await store.watch(['cas:{c}a', 'cas:{c}absent'])
      expect(token.values).to.deep.equal(['1', null])
      const applied = await store.batch(
        [
          { op: 'set', key: 'cas:{c}a', value: '2' },
          { op: 'sadd', key: 'cas:{c}log', members: ['1->2'] },
        ],
        token,
      )
      expect(applied).to.equal(true)
      expect(await store.get('cas:{c}a')).to.equal('2')
      expect(await store.smembers('cas:{c}log')).to.deep.equal(['1->2'])
    })

    it('refuses a conditional batch after a concurrent change and applies none of it', async () => {
      await store.set('cas:{c}b', '1')
      await store.set('cas:{c}gone', 'x')
      const changedValue = await store.watch(['cas:{c}b'])
      const deleted = await store.watch(['cas:{c}gone'])
      const created = await store.watch(['cas:{c}born'])
      await peer.set('cas:{c}b', 'other writer')
      await peer.del('cas:{c}gone')
      await peer.set('cas:{c}born', 'now')
      for (const token of [changedValue, deleted, created]) {
        expect(
          await store.batch(
            [
              { op: 'set', key: 'cas:{c}b', value: 'mine' },
              { op: 'set', key: 'cas:{c}side', value: 'effect' },
            ],
            token,
          ),
        ).to.equal(false)
      }
      expect(await store.mget(['cas:{c}b', 'cas:{c}side'])).to.deep.equal(['other writer', null])
    })

    it('lets exactly one of many racing conditional batches win', async () => {
      await store.set('cas:{c}race', '0')
      const tokens = await Promise.all(Array.from({ length: 20 }, () => store.watch(['cas:{c}race'])))
      const results = await Promise.all(tokens.map((token, i) => store.batch([{ op: 'set', key: 'cas:{c}race', value: `w${i}` }], token)))
      expect(results.filter(Boolean)).to.have.length(1)
      expect(await store.get('cas:{c}race')).to.equal(`w${results.indexOf(true)}`)
    })

    it('delivers published messages to every subscriber of the channel, in order', async () => {
      const first: string[] = []
      const second: string[] = []
      const offFirst = await store.subscribe('chan:order', (m) => first.push(m))
      const offSecond = await store.subscribe('chan:order', (m) => second.push(m))
      for (const m of ['one', 'two', 'three']) await peer.publish('chan:order', m)
      await eventually(() => first.length === 3 && second.length === 3, 'both subscribers got 3 messages')
      expect(first).to.deep.equal(['one', 'two', 'three'])
      expect(second).to.deep.equal(['one', 'two', 'three'])
      await offFirst()
      await offSecond()
    })

    it('calls subscribers asynchronously, never inside publish', async () => {
      const got: string[] = []
      const off = await store.subscribe('chan:async', (m) => got.push(m))
      const published = store.publish('chan:async', 'x')
      expect(got).to.deep.equal([])
      await published
      await eventually(() => got.length === 1, 'the message arrived')
      await off()
    })

    it('does not deliver messages published on other channels', async () => {
      const got: string[] = []
      const off = await store.subscribe('chan:mine', (m) => got.push(m))
      await store.publish('chan:other', 'not for me')
      await store.publish('chan:mine', 'for me')
      await eventually(() => got.length >= 1, 'the message arrived')
      await sleep(20)
      expect(got).to.deep.equal(['for me'])
      await off()
    })

    it('stops delivery to a handler once its unsubscribe has resolved, without affecting others', async () => {
      const leaving: string[] = []
      const staying: string[] = []
      const offLeaving = await store.subscribe('chan:unsub', (m) => leaving.push(m))
      const offStaying = await store.subscribe('chan:unsub', (m) => staying.push(m))
      await store.publish('chan:unsub', 'before')
      await eventually(() => leaving.length === 1 && staying.length === 1, 'both got the first message')

      await offLeaving()
      await offLeaving() // a second call is harmless
      await store.publish('chan:unsub', 'after')
      // The staying handler getting "after" proves the message was dispatched; the other must not have it.
      await eventually(() => staying.length === 2, 'the remaining subscriber got the second message')
      expect(leaving).to.deep.equal(['before'])

      // Last handler gone: the channel is dropped; a new subscriber later sees only new messages.
      await offStaying()
      const late: string[] = []
      await store.publish('chan:unsub', 'nobody listens')
      // On Redis Cluster a message crosses the cluster bus to the other nodes after PUBLISH has
      // answered; a subscriber on another node could still get it if it subscribed at once. Let it
      // settle, so "later" means later on every node.
      await sleep(200)
      const offLate = await store.subscribe('chan:unsub', (m) => late.push(m))
      await store.publish('chan:unsub', 'last')
      await eventually(() => late.length === 1, 'the new subscriber got a message')
      await sleep(20)
      expect(late).to.deep.equal(['last'])
      expect(staying).to.deep.equal(['before', 'after'])
      await offLate()
    })

    it('rejects calls with UNAVAILABLE once closed', async () => {
      const other = await make()
      await other.set('closed:k', 'v')
      await other.close()
      await other.close() // closing twice is harmless
      const err = await rejection(other.get('closed:k'))
      expect(err).to.be.instanceOf(AppError)
      expect((err as AppError).code).to.equal('UNAVAILABLE')
    })
  })
}
