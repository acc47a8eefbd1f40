/**
 * The many-clients load run (bench/clients/run.ts, `npm run load:clients`) scaled down: the same
 * code path (a private redis-server, three gateway processes, nginx with the deployed
 * configuration when installed, one real login per user), 200 keep-alive connections and 1,000
 * sessions, a fixed seed, a few seconds of the steady mix. Every request must succeed, every
 * connection must be held through the steady phase, and every session must still be valid at
 * the end. The full 2,000 connections and 10,000 sessions run on demand; its figures are in
 * docs/capacity.md.
 */
import { expect } from 'chai'
import { runClientsLoad } from '../../bench/clients/run.js'
import { findNginx } from '../helpers/nginx.js'
import { findRedisServer } from '../helpers/redis-server.js'

describe('many clients: 200 connections, 1,000 sessions over three gateways', function () {
  this.timeout(180_000)

  it('answers every request, holds every connection and keeps every session', async function () {
    if (!findRedisServer()) {
      if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed')
      return this.skip()
    }
    if (!findNginx() && process.env.CI === 'true') throw new Error('CI=true but nginx is not installed: .ci/run installs it')
    const report = await runClientsLoad({ connections: 200, sessions: 1000, seconds: 8, rate: 300, seed: 7, demoRows: 5000 })
    const steady = report.phases.find((p) => p.name.startsWith('steady'))!
    // A failing run says which requests failed and how, not just how many.
    expect(report.phases.flatMap((p) => p.errorSamples)).to.deep.equal([])
    expect(report.errors).to.equal(0)
    // Every kind of the mix was sent, and the open loop came near its rate (Poisson: within 25 %).
    expect(Object.keys(steady.byKind)).to.have.members(['!data', '!status', 'api/sql'])
    expect(steady.requests).to.be.within(8 * 300 * 0.75, 8 * 300 * 1.25)
    expect(report.connectionsHeld).to.equal(200)
    expect(report.reconnects).to.equal(0)
    expect(report.sessionsValid).to.equal(1000)
    // Each session is in Redis: a record, its user's pointer, its kept result's entry and more.
    expect(report.memory.redisKeys.primed - report.memory.redisKeys.warm).to.be.at.least(2 * 1000)
    expect(report.memory.redisPerSession).to.be.greaterThan(0)
  })
})
