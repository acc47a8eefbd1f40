/**
 * The Redis store on a real Sentinel deployment (test/helpers/redis-sentinel.ts: a master, two
 * replicas, three Sentinels): it finds the master through the Sentinels, follows a promotion by
 * itself after the master is SIGKILLed (main and subscriber connections), answers UNAVAILABLE with
 * Retry-After in between, and acknowledges a durable write only once a replica confirmed it. The
 * last test shows the loss that WAIT prevents, with a replica cut off just before the master dies.
 */
import { expect } from 'chai'
import { Redis } from 'ioredis'
import { AppError } from '../../shared/errors.js'
import { createRedisStore, redisTargetFromEnv } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { findRedisServer } from '../helpers/redis-server.js'
import { startSentinelSetup, type SentinelSetup } from '../helpers/redis-sentinel.js'

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Reads a key straight from one server (a replica, say), bypassing Sentinel. */
async function readFrom(port: number, key: string): Promise<string | null> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return await client.get(key)
  } finally {
    client.disconnect()
  }
}

describe('Redis store through Sentinel (real master, replicas and three Sentinels)', function () {
  this.timeout(90_000)
  let setup: SentinelSetup
  const opened: Store[] = []

  const open = async (replicas: number, timeoutMs = 1000): Promise<Store> => {
    const store = createRedisStore(redisTargetFromEnv(setup.env)!, { keyPrefix: 'st:', replicaAck: { replicas, timeoutMs } })
    opened.push(store)
    await store.connect()
    return store
  }

  before(async function () {
    if (!findRedisServer()) {
      if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed: the Sentinel tests must run.')
      console.log('    (redis-server not installed: skipping the Sentinel store tests)')
      return this.skip()
    }
    setup = await startSentinelSetup({ replicas: 2 })
  })
  after(async () => {
    await Promise.all(opened.map((s) => s.close()))
    await setup?.stop()
  })

  it('fails to connect with UNAVAILABLE, soon, when the Sentinels cannot name the master', async () => {
    const targets = [
      redisTargetFromEnv({ REDIS_SENTINELS: '127.0.0.1:1', REDIS_SENTINEL_NAME: 'tabula' })!, // nothing listens there
      redisTargetFromEnv({ ...setup.env, REDIS_SENTINEL_NAME: 'not-monitored' })!,
    ]
    for (const target of targets) {
      const store = createRedisStore(target)
      const started = Date.now()
      const err = await store.connect().then(
        () => null,
        (e: unknown) => e,
      )
      await store.close()
      expect(err, JSON.stringify(target)).to.be.instanceOf(AppError)
      expect((err as AppError).code).to.equal('UNAVAILABLE')
      expect(Date.now() - started).to.be.below(5000)
    }
  })

  it('acknowledges a durable write once a replica has it, and every replica gets it', async () => {
    const store = await open(2)
    await store.set('cat:probe', 'v1')
    // WAIT 2 returned: both replicas have it, so a direct read from each sees it now.
    for (const server of setup.servers.slice(1)) expect(await readFrom(server.port, 'st:cat:probe'), `replica ${server.port}`).to.equal('v1')
    expect(await store.batch([{ op: 'hset', key: 'cat:h', fields: { a: '1' } }])).to.equal(true)
    expect(await store.incr('seq:probe')).to.equal(1)
  })

  it('answers UNAVAILABLE with Retry-After when fewer replicas than asked confirm, and keeps other writes fast', async () => {
    const store = await open(3, 300) // only two replicas exist
    const started = Date.now()
    const err = await store.set('cat:three', 'x').then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).to.be.instanceOf(AppError)
    expect((err as AppError).code).to.equal('UNAVAILABLE')
    expect((err as AppError).detail.retryAfterSeconds).to.be.a('number')
    expect((err as AppError).message).to.match(/2 of 3 replica/)
    expect(Date.now() - started).to.be.within(250, 3000)
    // Not durable: no WAIT, resolves at once.
    const t0 = Date.now()
    await store.set('sess:x', 'y', { ttl: 60 })
    expect(Date.now() - t0).to.be.below(200)
    // Nothing written (a conditional batch whose key changed meanwhile): nothing to wait for either.
    const token = await store.watch(['cat:watched'])
    await (await open(0)).set('cat:watched', 'changed')
    const t1 = Date.now()
    expect(await store.batch([{ op: 'set', key: 'cat:watched', value: 'mine' }], token)).to.equal(false)
    expect(Date.now() - t1).to.be.below(200)
  })

  it('follows a promotion after SIGKILL of the master, with only UNAVAILABLE in between, and keeps its subscription', async () => {
    const store = await open(1)
    const listener = await open(1)
    // Many clients, so a race in the client's reconnection (one that leaves some of them given up
    // for good, as ioredis's failoverDetector did) shows up here rather than in production.
    const crowd = await Promise.all(Array.from({ length: 40 }, () => open(0)))
    const received: string[] = []
    await listener.subscribe('news', (m) => received.push(m))
    await store.publish('news', 'before')
    await waitUntil(() => received.includes('before'), 3000)

    const acknowledged: string[] = []
    const failures: unknown[] = []
    const oldMaster = await setup.masterPort()
    let writing = true
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const started = Date.now()
        try {
          await store.set(`cat:w${i}`, String(i))
          acknowledged.push(`cat:w${i}`)
        } catch (err) {
          failures.push(err)
          expect(Date.now() - started, 'a write failed within the bound').to.be.below(6000)
          await pause(50)
        }
      }
    })()
    await pause(300)
    await setup.servers.find((s) => s.port === oldMaster)!.crash()
    const killedAt = Date.now()
    const newMaster = await setup.waitForNewMaster(oldMaster, 30_000)
    // The store reaches the new master by itself: a write succeeds within a bounded time.
    let recovered = 0
    await waitUntil(async () => {
      const ok = await store.set('cat:after', 'yes').then(
        () => true,
        () => false,
      )
      if (ok) recovered = Date.now() - killedAt
      return ok
    }, 20_000)
    writing = false
    await writer
    console.log(
      `      master ${oldMaster} killed; ${newMaster} promoted; writes again after ${recovered} ms; ${acknowledged.length} acknowledged, ${failures.length} refused`,
    )

    for (const err of failures) {
      expect(err, String(err)).to.be.instanceOf(AppError)
      expect((err as AppError).code).to.equal('UNAVAILABLE')
      expect((err as AppError).detail.retryAfterSeconds).to.be.a('number')
    }
    expect(acknowledged.length).to.be.greaterThan(0)
    // Every acknowledged write is on the new master.
    const values = await store.mget(acknowledged)
    expect(acknowledged.filter((_, i) => values[i] === null)).to.deep.equal([])
    // Every client came back by itself.
    await waitUntil(
      async () =>
        (
          await Promise.all(
            crowd.map((c) =>
              c.ping().then(
                () => true,
                () => false,
              ),
            ),
          )
        ).every(Boolean),
      15_000,
    )
    // The subscriber connection followed as well and resubscribed.
    await waitUntil(async () => {
      await store.publish('news', 'after')
      return received.includes('after')
    }, 15_000)
  })

  it('without WAIT, loses a write the master acknowledged alone; with WAIT, refuses that write instead', async () => {
    const plain = await open(0)
    const careful = await open(1, 300)
    const master = await setup.masterPort()
    const replica = setup.servers.find((s) => s.alive() && s.port !== master)!
    await setup.waitForReplicas(master, 1, 15_000)
    await careful.set('cat:before', 'confirmed')
    // Cut the replica off for good before the master dies: frozen, it cannot reconnect, and the
    // master drops its replication link, so nothing written from now on can reach it.
    replica.freeze()
    await command(master, 'CLIENT', 'KILL', 'TYPE', 'replica')
    await plain.set('cat:lost', 'acknowledged by the master alone')
    const refused = await careful.set('cat:refused', 'x').then(
      () => null,
      (e: unknown) => e,
    )
    await setup.servers.find((s) => s.port === master)!.crash()
    replica.thaw()
    expect(await setup.waitForNewMaster(master, 30_000)).to.equal(replica.port)
    expect(refused, 'the write WAIT could not confirm was refused').to.be.instanceOf(AppError)
    await waitUntil(
      () =>
        plain.ping().then(
          () => true,
          () => false,
        ),
      20_000,
    )
    expect(await plain.get('cat:before'), 'confirmed before the cut: kept').to.equal('confirmed')
    expect(await plain.get('cat:lost'), 'acknowledged without WAIT: gone with the master').to.equal(null)
  })
})

/** One command straight to one server. */
async function command(port: number, ...args: string[]): Promise<unknown> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return await client.call(args[0], ...args.slice(1))
  } finally {
    client.disconnect()
  }
}

async function waitUntil(ready: () => boolean | Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs
  while (Date.now() < deadline) {
    if (await ready()) return
    await pause(100)
  }
  throw new Error(`not within ${limitMs} ms`)
}
