import { expect } from 'chai'
import { DEFAULTS, loadConfig } from '../../shared/config.js'

describe('loadConfig()', () => {
  it('fills every default for an empty environment', () => {
    const c = loadConfig({})
    expect(c.port).to.equal(Number(DEFAULTS.PORT))
    expect(c.apiVersions).to.deep.equal(['v1', 'prime-latest'])
    expect(c.redisUrl).to.equal(null)
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
    expect(c.redisUrl).to.equal('redis://x:1')
  })

  it('reads the Redis key prefix and the proxy switch, off and empty by default', () => {
    expect(loadConfig({})).to.include({ redisKeyPrefix: '', trustProxy: false })
    expect(loadConfig({ REDIS_KEY_PREFIX: 'tabula:prod:', TRUST_PROXY: '1' })).to.include({ redisKeyPrefix: 'tabula:prod:', trustProxy: true })
  })

  const bad: [Record<string, string>, RegExp][] = [
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
