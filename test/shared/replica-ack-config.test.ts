/** REDIS_WAIT_REPLICAS and REDIS_WAIT_TIMEOUT_MS: defaults by Redis target, and clear refusals. */
import { expect } from 'chai'
import { loadConfig } from '../../shared/config.js'

const SENTINEL = { REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'tabula' }

describe('config: acknowledging durable writes only once replicas have them', () => {
  it('waits for one replica by default with Sentinel, for none otherwise', () => {
    expect(loadConfig(SENTINEL).redisReplicaAck).to.deep.equal({ replicas: 1, timeoutMs: 1000 })
    expect(loadConfig({ REDIS_URL: 'redis://r:6379' }).redisReplicaAck).to.deep.equal({ replicas: 0, timeoutMs: 1000 })
    expect(loadConfig({}).redisReplicaAck).to.deep.equal({ replicas: 0, timeoutMs: 1000 })
  })

  it('takes explicit settings, 0 turning the wait off', () => {
    expect(loadConfig({ ...SENTINEL, REDIS_WAIT_REPLICAS: '2', REDIS_WAIT_TIMEOUT_MS: '250' }).redisReplicaAck).to.deep.equal({ replicas: 2, timeoutMs: 250 })
    expect(loadConfig({ ...SENTINEL, REDIS_WAIT_REPLICAS: '0' }).redisReplicaAck.replicas).to.equal(0)
    expect(loadConfig({ REDIS_URL: 'redis://r:6379', REDIS_WAIT_REPLICAS: '1' }).redisReplicaAck.replicas).to.equal(1)
  })

  const bad: [Record<string, string>, RegExp][] = [
    [{ ...SENTINEL, REDIS_WAIT_REPLICAS: 'one' }, /REDIS_WAIT_REPLICAS takes a whole number from 0 to 16 \(got "one"\)/],
    [{ ...SENTINEL, REDIS_WAIT_REPLICAS: '-1' }, /REDIS_WAIT_REPLICAS/],
    [{ ...SENTINEL, REDIS_WAIT_TIMEOUT_MS: '0' }, /REDIS_WAIT_TIMEOUT_MS takes a whole number from 1 to 4000/],
    [{ ...SENTINEL, REDIS_WAIT_TIMEOUT_MS: '10000' }, /REDIS_WAIT_TIMEOUT_MS/],
    [{ REDIS_WAIT_REPLICAS: '1' }, /REDIS_WAIT_REPLICAS needs a Redis/],
    [{ REDIS_CLUSTER_NODES: 'r1:7000', REDIS_WAIT_REPLICAS: '1' }, /not supported with REDIS_CLUSTER_NODES/],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).to.throw(message)
    })
  }
})
