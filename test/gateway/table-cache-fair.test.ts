/**
 * Issue 36.3: one user's tables could fill the whole table cache (TABLE_CACHE_MB), pushing out
 * everyone else's, whose next queries then read their tables from disk again. The cache is now
 * shared fairly (gateway/tables/fair-lru.ts): a user who has used it within 10 minutes keeps up to an
 * equal share, and whoever is over their share gives up their own least recently used entries.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTableVersion } from '../../engine/storage/index.js'
import { runAsCacheUser } from '../../gateway/tables/cache-user.js'
import type { Deps } from '../../gateway/deps.js'
import { ACTIVE_MS, FairLruCache } from '../../gateway/tables/fair-lru.js'
import { TableCache } from '../../gateway/tables/table-cache.js'
import { userCookie } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'

describe('the table cache shared fairly between users', () => {
  describe('FairLruCache', () => {
    let user = 'a'
    let clock = 0
    const cache = (budget = 100) => new FairLruCache<number>(budget, (n) => n, { whose: () => user, now: () => clock })
    const as = <T>(who: string, fn: () => T): T => {
      user = who
      return fn()
    }
    beforeEach(() => {
      user = 'a'
      clock = 1_000_000
    })

    it('a user alone uses the whole budget, least recently used out first', () => {
      const c = cache()
      for (const k of ['k1', 'k2', 'k3', 'k4']) c.set(k, 30)
      expect(c.size).to.equal(90)
      c.get('k2')
      c.set('k5', 30)
      expect(['k1', 'k2', 'k3', 'k4', 'k5'].filter((k) => c.get(k) !== undefined)).to.deep.equal(['k2', 'k4', 'k5'])
    })

    it("one user loading a lot does not push out another's entries within their share", () => {
      const c = cache()
      as('b', () => c.set('b1', 40))
      for (let i = 0; i < 10; i++) as('a', () => c.set(`a${i}`, 20))
      expect(as('b', () => c.get('b1'))).to.equal(40)
      expect(c.bytesOf('b')).to.equal(40)
      expect(c.bytesOf('a')).to.be.at.most(60)
      expect(c.size).to.be.at.most(100)
      // A table larger than its loader's share is served but not kept while b holds theirs.
      as('a', () => c.set('huge', 70))
      expect(c.get('b1')).to.equal(40)
    })

    it('a user over their share loses their own oldest entries first', () => {
      const c = cache()
      as('b', () => c.set('b1', 30))
      as('b', () => c.set('b2', 30))
      as('a', () => c.set('a1', 30))
      // b holds 60 of 100 (share 50): a's next entry costs b its oldest, not a's.
      as('a', () => c.set('a2', 30))
      expect(c.get('b1')).to.equal(undefined)
      expect([c.get('b2'), c.get('a1'), c.get('a2')]).to.deep.equal([30, 30, 30])
    })

    it(`entries of a user idle for ${ACTIVE_MS / 60_000} minutes are no longer protected`, () => {
      const c = cache()
      as('b', () => c.set('b1', 40))
      as('a', () => c.set('a1', 40))
      clock += ACTIVE_MS
      as('a', () => c.get('a1'))
      as('a', () => c.set('a2', 40))
      expect(c.get('b1')).to.equal(undefined)
      expect(c.bytesOf('a')).to.equal(80)
    })

    it('an entry is charged to whoever used it last', () => {
      const c = cache()
      as('a', () => c.set('shared', 30))
      as('b', () => c.get('shared'))
      expect([c.bytesOf('a'), c.bytesOf('b')]).to.deep.equal([0, 30])
    })
  })

  describe('TableCache', () => {
    let dir: string
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tabula-fair-cache-'))
    })
    after(() => rm(dir, { recursive: true, force: true }))

    /** A table of one int column: 400 kB at 100,000 rows. */
    const write = async (rows: number) =>
      (await writeTableVersion(dir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from({ length: rows }, (_, i) => i)] })).version

    it("one user loading big tables does not evict another user's recently used table", async () => {
      const cache = new TableCache(dir, 1_000_000)
      const bobs = await write(100_000)
      const loaded = await runAsCacheUser('bob', () => cache.column(bobs, 0))
      for (let i = 0; i < 4; i++) {
        const version = await write(100_000)
        await runAsCacheUser('alice', () => cache.column(version, 0))
      }
      const again = await runAsCacheUser('bob', () => cache.column(bobs, 0))
      expect(again.buffer, "bob's column is still cached (the same buffer)").to.equal(loaded.buffer)
      expect(cache.stats.bytes).to.be.at.most(1_000_000)
      expect(cache.bytesOf('bob')).to.be.at.least(400_000)
    })
  })

  describe('through the API', function () {
    this.timeout(60_000)
    let svc: TestService
    before(async () => {
      svc = await startTestService('memory', { WORKERS: '1' })
    })
    after(() => svc?.close())

    it("a query's table files are charged to the user who asked", async () => {
      const tables = (svc.deps as unknown as Deps).tables
      const carol = await userCookie(svc, 'carol')
      const res = await svc.http.post('/v1/api/run:json').set('Cookie', carol).send({ xml: '<base table="pub.demo.retail.item"/><sel value="store=1"/>' })
      expect(res.status, res.text).to.equal(200)
      expect(tables.bytesOf('carol')).to.be.above(0)
    })
  })
})
