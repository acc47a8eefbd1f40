import { expect } from 'chai'
import { DEFAULTS, loadConfig } from '../../shared/config.js'

describe('loadConfig()', () => {
  it('fills every default for an empty environment', () => {
    const c = loadConfig({})
    expect(c.port).to.equal(Number(DEFAULTS.PORT))
    expect(c.apiVersions).to.deep.equal(['v1', 'prime-latest'])
    expect(c.redis).to.equal(null)
    expect(c.demoData).to.equal(true)
    expect(c.workers).to.be.at.least(1)
    expect(Object.isFrozen(c)).to.equal(true)
  })

  it('reads lists, numbers and switches', () => {
    const c = loadConfig({ API_VERSIONS: 'v1, prime-latest', PORT: '9000', DEMO_DATA: 'off', TABLE_CACHE_MB: '64', REDIS_URL: 'redis://x:1' })
    expect(c.apiVersions).to.deep.equal(['v1', 'prime-latest'])
    expect(c.port).to.equal(9000)
    expect(c.demoData).to.equal(false)
    expect(c.tableCacheBytes).to.equal(64 * 1024 * 1024)
    expect(c.redis).to.deep.equal({ kind: 'single', url: 'redis://x:1' })
  })

  it('reads the Redis key prefix and the proxy switch, off and empty by default', () => {
    expect(loadConfig({})).to.include({ redisKeyPrefix: '', trustProxy: false })
    expect(loadConfig({ REDIS_KEY_PREFIX: 'tabula:prod:', TRUST_PROXY: '1' })).to.include({ redisKeyPrefix: 'tabula:prod:', trustProxy: true })
  })

  it('reads a Redis Cluster by some of its nodes and a Sentinel-managed master by name', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'r1:7000, r2:7001,[::1]:7002', REDIS_PASSWORD: 'pw' }).redis).to.deep.equal({
      kind: 'cluster',
      nodes: [
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      password: 'pw',
    })
    expect(loadConfig({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'tabula' }).redis).to.deep.equal({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'tabula',
      password: null,
      sentinelPassword: null,
    })
  })

  const bad: [Record<string, string>, RegExp][] = [
    [{ REDIS_URL: 'redis://a:1', REDIS_CLUSTER_NODES: 'b:2' }, /only one of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must start with redis:\/\//],
    [{ REDIS_CLUSTER_NODES: 'r1:7000,r2' }, /REDIS_CLUSTER_NODES takes host:port entries .*"r2"/],
    [{ REDIS_CLUSTER_NODES: 'r1:70000' }, /REDIS_CLUSTER_NODES/],
    [{ REDIS_SENTINELS: 's1:26379' }, /REDIS_SENTINELS needs REDIS_SENTINEL_NAME/],
    [{ REDIS_SENTINEL_NAME: 'tabula' }, /REDIS_SENTINEL_NAME needs REDIS_SENTINELS/],
    [{ REDIS_URL: 'redis://a:1', REDIS_PASSWORD: 'pw' }, /put the password in REDIS_URL/],
    [{ REDIS_PASSWORD: 'pw' }, /REDIS_PASSWORD is set but/],
    [{ PORT: 'http' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT/],
    [{ WORKERS: '0' }, /WORKERS/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA must be 1 or 0/],
    [{ API_VERSIONS: 'v1/x' }, /API_VERSIONS/],
    [{ API_VERSIONS: ' , ' }, /API_VERSIONS/],
    [{ TLS_CERT: 'cert.pem' }, /TLS_CERT and TLS_KEY/],
    [{ SESSION_TTL: '-5' }, /SESSION_TTL/],
    [{ REDIS_KEY_PREFIX: 'a b' }, /REDIS_KEY_PREFIX/],
    [{ REDIS_KEY_PREFIX: 'x'.repeat(65) }, /REDIS_KEY_PREFIX/],
    [{ TRUST_PROXY: 'sometimes' }, /TRUST_PROXY must be 1 or 0/],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)} with a message naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(message)
    })
  }
})
