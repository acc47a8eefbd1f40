/**
 * The hash-tag layout for Redis Cluster (shared/store/redis-cluster-keys.ts): each group of keys
 * the gateway writes together lands in one slot, our slot computation agrees with the real
 * cluster's CLUSTER KEYSLOT, and the store refuses an atomic batch across slots instead of
 * splitting it.
 */
import { expect } from 'chai'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { KEYS } from '../../gateway/catalog/records.js'
import { SESSION_KEYS } from '../../gateway/auth/sessions.js'
import { INSTANCE_KEYS } from '../../gateway/instances/records.js'
import { chunkKey, metaKey } from '../../gateway/query/results/store/layout.js'
import { slotsKey, userSlotsKey } from '../../gateway/query/running/index.js'
import { clusterName, hashSlot, keyOfClusterName } from '../../shared/store/redis-cluster-keys.js'
import type { Store } from '../../shared/store/index.js'
import { createClusterTestStore, redisClusterAvailable } from '../helpers/service.js'

const slotOf = (key: string): number => hashSlot(clusterName(key))

describe('Redis Cluster key layout', () => {
  it('puts each group of keys written together into one slot', () => {
    const groups: Record<string, string[]> = {
      catalog: [KEYS.dir('a.b'), KEYS.table('a.b.t'), KEYS.entries(''), KEYS.user('ann'), KEYS.role('r'), KEYS.groupsRev, KEYS.objectId, KEYS.retiredVersions],
      session: [SESSION_KEYS.session('123456789012345'), SESSION_KEYS.data('123456789012345'), INSTANCE_KEYS.ofSession('123456789012345')],
      user: [SESSION_KEYS.userSession('ann'), userSlotsKey('ann'), slotsKey({ uid: 'ann', sid: '123456789012345' })],
      instance: [INSTANCE_KEYS.record(42), INSTANCE_KEYS.vars(42), INSTANCE_KEYS.state(42), 'instlock:42'],
      result: [metaKey('ab12cd'), chunkKey('ab12cd', 'f00d', 0), chunkKey('ab12cd', 'f00d', 17)],
    }
    for (const [name, keys] of Object.entries(groups)) expect(new Set(keys.map(slotOf)).size, name).to.equal(1)
    // Unrelated groups spread: different sessions, users, instances and results are not one slot.
    const spread = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => slotOf(SESSION_KEYS.session(`10000000000000${i}`)))
    expect(new Set(spread).size).to.be.above(4)
    expect(slotOf(INSTANCE_KEYS.record(1))).not.to.equal(slotOf(INSTANCE_KEYS.record(2)))
  })

  it('keeps a key that has its own tag, and reads stored names back as keys', () => {
    expect(clusterName('cas:{c}a')).to.equal('cas:{c}a')
    expect(clusterName('cat:dir:x')).to.equal('{cat}cat:dir:x')
    for (const key of ['cat:dir:x', 'running:sess:1:sql', '{odd}key', 'sess:{weird}', 'res:k:meta', 'plain'])
      expect(keyOfClusterName(clusterName(key)), key).to.equal(key)
    // An id with braces (never made by the gateway) still groups: its tag is hashed.
    expect(slotOf('sess:a}b')).to.equal(slotOf('sessdata:a}b'))
  })

  describe('on a real cluster', () => {
    let admin: Redis
    let store: Store
    const prefix = `tabula-test:${randomUUID()}:`
    before(async function () {
      if (!redisClusterAvailable()) return this.skip()
      const [host, port] = process.env.TEST_REDIS_CLUSTER_NODES!.split(',')[0].split(':')
      admin = new Redis({ host, port: Number(port), maxRetriesPerRequest: 1 })
      store = createClusterTestStore(prefix)
      await store.connect()
    })
    after(async () => {
      admin?.disconnect()
      if (store) {
        const keys = await store.keys('')
        if (keys.length > 0) await store.del(...keys)
        await store.close()
      }
    })

    it('computes the same slot as CLUSTER KEYSLOT', async () => {
      for (const name of ['a', 'cat:dir:x', '{cat}cat:dir:x', 'x{}y', '{}{a}', 'a{b', 'ü{tag}', '{s:123}sess:123', 'foo{bar}{zap}']) {
        expect(hashSlot(name), name).to.equal(Number(await admin.call('CLUSTER', 'KEYSLOT', name)))
      }
    })

    it('refuses a batch or conditional batch across slots, naming the keys, and writes nothing', async () => {
      const [a, b] = ['loose:a', 'loose:b']
      expect(hashSlot(prefix + a)).not.to.equal(hashSlot(prefix + b))
      const plain = await store
        .batch([
          { op: 'set', key: a, value: '1' },
          { op: 'set', key: b, value: '2' },
        ])
        .catch((err: Error) => err)
      expect(plain).to.be.instanceOf(Error)
      expect((plain as Error).message)
        .to.contain('loose:a')
        .and.contain('loose:b')
        .and.contain('hash tag')
      const token = await store.watch([a])
      const conditional = await store.batch([{ op: 'set', key: b, value: '2' }], token).catch((err: Error) => err)
      expect((conditional as Error).message).to.contain('hash tag')
      expect(await store.mget([a, b])).to.deep.equal([null, null])
    })

    it('reads and deletes keys of many slots in one call, in the order asked', async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `spread:${i}`)
      for (const [i, key] of keys.entries()) await store.set(key, String(i))
      expect(new Set(keys.map((key) => hashSlot(prefix + key))).size).to.be.above(30)
      expect(await store.mget([...keys].reverse())).to.deep.equal(keys.map((_, i) => String(i)).reverse())
      expect(await store.keys('spread:')).to.have.length(40)
      expect(await store.del(...keys, 'spread:none')).to.equal(40)
      expect(await store.keys('spread:')).to.deep.equal([])
    })
  })
})
