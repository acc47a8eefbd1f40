/**
 * Store tests: the shared contract against the memory store and (when TEST_REDIS_URL is set)
 * Redis, then what only one implementation has: the memory store's files, Redis's failure mode.
 */
import { expect } from 'chai'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore, createRedisStore, createStore } from '../../shared/store/index.js'
import type { RedisTarget, Store } from '../../shared/store/index.js'
import { parseHostPorts } from '../../shared/store/index.js'
import { findRedisServer, startRedisServer } from '../helpers/redis-server.js'
import { storeContract } from './store.contract.js'

const redisUrl = process.env.TEST_REDIS_URL || null
const clusterNodes = process.env.TEST_REDIS_CLUSTER_NODES || null
const clusterTarget = (): RedisTarget => ({ kind: 'cluster', nodes: parseHostPorts('TEST_REDIS_CLUSTER_NODES', clusterNodes!), password: null })

/** Temp folders and Redis prefixes made by this file, removed after its last test. */
const tempDirs: string[] = []
const redisPrefixes: { keyPrefix: string; cluster: boolean }[] = []

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tabula-store-test-'))
  tempDirs.push(dir)
  return dir
}

async function connected(store: Store): Promise<Store> {
  await store.connect()
  return store
}

/** A port nothing listens on: the OS hands one out, and it is released at once. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error('Expected the call to fail, but it succeeded.')
}

function expectUnavailable(err: Error): void {
  expect(err, String(err)).to.be.instanceOf(AppError)
  expect((err as AppError).code).to.equal('UNAVAILABLE')
}

describe('store', () => {
  after(async () => {
    for (const dir of tempDirs) await rm(dir, { recursive: true, force: true })
    // Each Redis run used its own prefix; delete exactly those keys, nothing else on the server.
    for (const { keyPrefix, cluster } of redisPrefixes) {
      const cleaner = await connected(createRedisStore(cluster ? clusterTarget() : redisUrl!, { keyPrefix }))
      const keys = await cleaner.keys('')
      for (let i = 0; i < keys.length; i += 500) await cleaner.del(...keys.slice(i, i + 500))
      await cleaner.close()
    }
  })

  storeContract('memory store', async () => connected(createMemoryStore({ dataDir: await tempDir() })))

  if (redisUrl) {
    // One prefix per run: the contract's stores share it (several connections to the same data),
    // while other runs against the same server never see these keys.
    const keyPrefix = `tabula-test:${randomUUID()}:`
    redisPrefixes.push({ keyPrefix, cluster: false })
    storeContract('redis store', async () => connected(createRedisStore(redisUrl, { keyPrefix })))
  } else if (process.env.CI === 'true') {
    describe('redis store: the Store contract', () => {
      it('runs on CI, so TEST_REDIS_URL must be set there', () => {
        throw new Error('TEST_REDIS_URL is not set; on CI the Redis store must be tested (run through `npm test`, which starts redis-server).')
      })
    })
  } else {
    describe('redis store: the Store contract', () => {
      it.skip('is skipped because TEST_REDIS_URL is not set (install redis-server and run `npm test`)')
    })
  }

  if (clusterNodes) {
    const keyPrefix = `tabula-test:${randomUUID()}:`
    redisPrefixes.push({ keyPrefix, cluster: true })
    storeContract('redis cluster store', async () => connected(createRedisStore(clusterTarget(), { keyPrefix })))
  } else if (redisUrl && process.env.CI === 'true') {
    describe('redis cluster store: the Store contract', () => {
      it('runs on CI, so TEST_REDIS_CLUSTER_NODES must be set there', () => {
        throw new Error('TEST_REDIS_CLUSTER_NODES is not set; on CI the Redis Cluster store must be tested (run through `npm test`, which starts one).')
      })
    })
  }

  describe('memory store files', () => {
    it('keeps durable keys across a restart and forgets the others', async () => {
      const dataDir = await tempDir()
      const before = await connected(createMemoryStore({ dataDir }))
      await before.set('cat:table', '{"name":"t"}')
      await before.hset('cat:hash', { owner: 'ada', rows: '10' })
      await before.sadd('cat:set', 'a', 'b')
      for (let i = 0; i < 3; i++) await before.incr('seq:id')
      await before.set('cat:expiring', 'v', { ttl: 100 })
      await before.batch([
        { op: 'set', key: 'cat:batched', value: 'b' },
        { op: 'set', key: 'sess:batched', value: 'b' },
      ])
      await before.set('sess:abc', 'session')
      await before.hset('inst:1', { state: 'running' })
      await before.close()

      const after = await connected(createMemoryStore({ dataDir }))
      expect(await after.get('cat:table')).to.equal('{"name":"t"}')
      expect(await after.hgetall('cat:hash')).to.deep.equal({ owner: 'ada', rows: '10' })
      expect((await after.smembers('cat:set')).sort()).to.deep.equal(['a', 'b'])
      expect(await after.incr('seq:id')).to.equal(4)
      expect(await after.ttl('cat:expiring')).to.be.within(98, 100)
      expect(await after.keys('')).to.deep.equal(['cat:batched', 'cat:expiring', 'cat:hash', 'cat:set', 'cat:table', 'seq:id'])
      await after.close()
    })

    it('has a durable write on disk by the time the write resolves, and never writes other keys', async () => {
      const dataDir = await tempDir()
      const store = await connected(createMemoryStore({ dataDir }))
      await store.set('sess:secret', 'token-123')
      await store.set('cat:disk', 'on-disk')
      const text = await readFile(join(dataDir, 'store.json'), 'utf8')
      expect(text).to.contain('cat:disk').and.contain('on-disk')
      expect(text).not.to.contain('sess:secret')
      expect(text).not.to.contain('token-123')
      await store.close()
    })

    it('persists deletions and expiries of durable keys', async () => {
      const dataDir = await tempDir()
      const first = await connected(createMemoryStore({ dataDir }))
      await first.set('cat:keep', '1')
      await first.set('cat:drop', '1')
      await first.sadd('cat:members', 'a', 'b')
      await first.del('cat:drop')
      await first.srem('cat:members', 'a')
      await first.close()
      const second = await connected(createMemoryStore({ dataDir }))
      expect(await second.keys('cat:')).to.deep.equal(['cat:keep', 'cat:members'])
      expect(await second.smembers('cat:members')).to.deep.equal(['b'])
      await second.close()
    })

    it('keeps every one of many concurrent durable writes', async () => {
      const dataDir = await tempDir()
      const first = await connected(createMemoryStore({ dataDir }))
      await Promise.all([
        ...Array.from({ length: 100 }, (_, i) => first.set(`cat:item:${i}`, String(i))),
        ...Array.from({ length: 100 }, () => first.incr('seq:n')),
        ...Array.from({ length: 50 }, (_, i) => first.sadd('cat:all', `m${i}`)),
      ])
      await first.close()
      const second = await connected(createMemoryStore({ dataDir }))
      const items = await second.mget(Array.from({ length: 100 }, (_, i) => `cat:item:${i}`))
      expect(items).to.deep.equal(Array.from({ length: 100 }, (_, i) => String(i)))
      expect(await second.get('seq:n')).to.equal('100')
      expect(await second.smembers('cat:all')).to.have.length(50)
      await second.close()
    })

    it('leaves no temporary file behind', async () => {
      const dataDir = await tempDir()
      const store = await connected(createMemoryStore({ dataDir }))
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.set(`cat:t${i}`, 'v')))
      await store.set('cat:last', 'v')
      await store.close()
      expect(await readdir(dataDir)).to.deep.equal(['store.json'])
    })

    it('removes a temporary file left by a crash when it connects', async () => {
      const dataDir = await tempDir()
      await writeFile(join(dataDir, 'store.json.999.1.tmp'), '{"half": ')
      const store = await connected(createMemoryStore({ dataDir }))
      expect(await readdir(dataDir)).to.deep.equal([])
      await store.close()
    })

    it('creates a missing data folder', async () => {
      const dataDir = join(await tempDir(), 'nested', 'data')
      const store = await connected(createMemoryStore({ dataDir }))
      await store.set('cat:x', 'y')
      await store.close()
      expect(await readdir(dataDir)).to.deep.equal(['store.json'])
    })

    it('refuses to start from a store.json that is not JSON, naming the file', async () => {
      const dataDir = await tempDir()
      const file = join(dataDir, 'store.json')
      await writeFile(file, '{"version": 1, "entries": [')
      const err = await rejection(createMemoryStore({ dataDir }).connect())
      expect(err.message)
        .to.contain(file)
        .and.match(/corrupt/)
    })

    it('refuses to start from a store.json with a malformed entry, naming the file', async () => {
      const dataDir = await tempDir()
      const file = join(dataDir, 'store.json')
      for (const doc of [
        { version: 1, entries: [{ key: 'cat:h', type: 'hash', value: 'not pairs' }] },
        { version: 1, entries: [{ type: 'string', value: 'no key' }] },
        { version: 99, entries: [] },
        [],
      ]) {
        await writeFile(file, JSON.stringify(doc))
        const err = await rejection(createMemoryStore({ dataDir }).connect())
        expect(err.message, JSON.stringify(doc)).to.contain(file)
      }
    })

    it('reports a failed save as UNAVAILABLE and leaves no temporary file', async () => {
      const dataDir = await tempDir()
      const store = await connected(createMemoryStore({ dataDir }))
      // A non-empty folder where store.json should be makes the rename fail, even for root.
      await mkdir(join(dataDir, 'store.json', 'blocker'), { recursive: true })
      expectUnavailable(await rejection(store.set('cat:x', 'y')))
      expect((await readdir(dataDir)).sort()).to.deep.equal(['store.json'])
      // Non-durable writes never touch the disk, so they still work.
      expect(await store.set('sess:x', 'y')).to.equal(true)
      await store.close()
    })

    it('keeps durable keys only in memory when it has no data folder', async () => {
      const first = await connected(createMemoryStore())
      await first.set('cat:volatile', 'v')
      expect(await first.get('cat:volatile')).to.equal('v')
      await first.close()
      const second = await connected(createMemoryStore())
      expect(await second.get('cat:volatile')).to.equal(null)
      await second.close()
    })

    it('undoes every write of a batch that fails part-way', async () => {
      const store = await connected(createMemoryStore({ dataDir: await tempDir() }))
      await store.set('rb:str', 'x')
      await store.sadd('rb:set', 'a')
      const err = await rejection(
        store.batch([
          { op: 'set', key: 'rb:new', value: '1' },
          { op: 'sadd', key: 'rb:set', members: ['b'] },
          { op: 'del', key: 'rb:str' },
          { op: 'hset', key: 'rb:set', fields: { f: 'v' } },
        ]),
      )
      expect(err.message).to.match(/^WRONGTYPE/)
      expect(await store.mget(['rb:new', 'rb:str'])).to.deep.equal([null, 'x'])
      expect(await store.smembers('rb:set')).to.deep.equal(['a'])
      await store.close()
    })

    it('refuses calls before connect instead of silently using an unloaded store', async () => {
      const err = await rejection(createMemoryStore().get('k'))
      expect(err.message).to.match(/not connected/)
    })
  })

  describe('redis store failures', () => {
    it('does no I/O before connect, and fails with UNAVAILABLE within seconds when nothing listens', async () => {
      const store = createRedisStore(`redis://127.0.0.1:${await closedPort()}`)
      const started = Date.now()
      expectUnavailable(await rejection(store.connect()))
      expect(Date.now() - started).to.be.below(3000)
      await store.close()
    })

    const redisBinary = findRedisServer()
    ;(redisBinary ? it : it.skip)('fails fast with UNAVAILABLE while Redis is away, and recovers by itself once it is back', async () => {
      let server = await startRedisServer()
      const store = await connected(createRedisStore(server.url, { keyPrefix: 'gone:' }))
      try {
        await store.set('k', 'v')
        const got: string[] = []
        const off = await store.subscribe('ch', (m) => got.push(m))
        await server.stop()

        const started = Date.now()
        const calls = [
          () => store.get('k'),
          () => store.set('k', 'w'),
          () => store.batch([{ op: 'set', key: 'k', value: 'x' }]),
          () => store.watch(['k']).then((token) => store.batch([], token)),
          () => store.keys(''),
          () => store.publish('ch', 'm'),
          () => store.ping(),
        ]
        for (const call of calls) expectUnavailable(await rejection(call()))
        expect(Date.now() - started).to.be.below(5000)

        // Same port, empty server: ioredis reconnects in the background, and resubscribes.
        server = await startRedisServer({ port: server.port })
        const deadline = Date.now() + 8000
        for (;;) {
          try {
            await store.ping()
            break
          } catch (err) {
            expectUnavailable(err as Error)
            if (Date.now() > deadline) throw new Error('The store did not reconnect within 8 s.', { cause: err })
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
        await store.set('k', 'back')
        expect(await store.get('k')).to.equal('back')
        while (got.length === 0 && Date.now() < deadline) {
          await store.publish('ch', 'again')
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        expect(got[0]).to.equal('again')
        await off()
      } finally {
        await store.close()
        await server.stop()
      }
    })
  })

  describe('createStore', () => {
    it('picks the memory store without a Redis URL and Redis with one, doing no I/O', async () => {
      const memory = createStore({ redis: null, dataDir: join(tmpdir(), 'tabula-never-created') })
      const redis = createStore({ redis: { kind: 'single', url: `redis://127.0.0.1:${await closedPort()}` }, dataDir: 'unused' })
      expect(memory.kind).to.equal('memory')
      expect(redis.kind).to.equal('redis')
      await memory.close()
      await redis.close()
    })
  })
})
