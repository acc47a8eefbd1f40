/**
 * The embedded store bounds its evictable keys (kept results, `res:*`) in bytes, dropping the
 * oldest written first, as Redis does under maxmemory; nothing else is ever dropped. Without the
 * bound, distinct queries grew the process by every result kept for an hour (issue 16.5).
 */
import { expect } from 'chai'
import { createMemoryStore } from '../../shared/store/index.js'

describe('memory store: the cache budget of evictable keys', () => {
  it('drops the oldest kept results past the budget and keeps every other key', async () => {
    // Each value of 1,000 characters counts about 2 KB: the budget holds about 10 of them.
    const store = createMemoryStore({ cacheBytes: 21_000 })
    await store.connect()
    try {
      await store.set('sess:one', 'x'.repeat(50_000), { ttl: 60 })
      await store.set('cat:table:a', 'y'.repeat(50_000))
      for (let i = 0; i < 100; i++) await store.set(`res:k${i}:meta`, String(i).padEnd(1000, '.'), { ttl: 60 })
      const kept = await store.keys('res:')
      expect(kept.length).to.be.within(8, 10)
      expect(kept).to.include('res:k99:meta').and.include('res:k91:meta').and.not.include('res:k0:meta')
      expect(await store.get('sess:one')).to.have.length(50_000)
      expect(await store.get('cat:table:a')).to.have.length(50_000)
    } finally {
      await store.close()
    }
  })

  it('counts a rewritten key once, as the newest, and frees what is deleted', async () => {
    // About 2 KB a key: the budget holds 6.
    const store = createMemoryStore({ cacheBytes: 13_000 })
    await store.connect()
    try {
      for (let i = 0; i < 6; i++) await store.set(`res:k${i}`, 'v'.repeat(1000))
      // Rewriting k0 makes it the newest; deleting k5 frees its place.
      await store.set('res:k0', 'w'.repeat(1000))
      await store.del('res:k5')
      for (let i = 6; i < 9; i++) await store.set(`res:k${i}`, 'v'.repeat(1000))
      // 8 written, 6 fit: the two oldest go (k1, k2), not k0, and not k3 (k5's bytes were freed).
      expect(await store.keys('res:')).to.deep.equal(['res:k0', 'res:k3', 'res:k4', 'res:k6', 'res:k7', 'res:k8'])
    } finally {
      await store.close()
    }
  })
})
