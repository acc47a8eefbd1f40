/**
 * Issue 16 (the disk), the price of removing dropped versions at once: a session's kept query
 * whose result must be computed again (here on another gateway, which does not hold it, with the
 * result too large for the Store) names a version that is gone. It answers 404 `unknown_table`
 * telling the caller to run the query again, never 500. Two real gateway processes on one
 * redis-server and one DATA_DIR, RETIRED_GRACE_SECONDS=0, real HTTP on loopback.
 */
import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { versionDir } from '../../engine/storage/index.js'
import { redisAvailable } from '../helpers/service.js'
import { login, post, sleep, startGateway, type Gateway } from './heavy-gateway.js'

describe('heavy: a kept query whose table version was removed (two gateways, Redis)', function () {
  this.timeout(120_000)
  let dataDir = ''
  const gateways: Gateway[] = []

  before(async function () {
    if (!redisAvailable()) this.skip()
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-heavy-kept-'))
    const env = {
      DATA_DIR: dataDir,
      WORKERS: '1',
      DEMO_DATA: '0',
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `test:heavy:${randomBytes(6).toString('hex')}:`,
      RETIRED_GRACE_SECONDS: '0',
      RESULT_STORE_MB: '1',
    }
    gateways.push(await startGateway(env), await startGateway(env))
  })
  after(async () => {
    for (const g of gateways) await g.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('answers 404 asking to run the query again, and the query runs again once the table is back', async () => {
    const [a, b] = gateways
    const cookie = await login(a)
    const s = Array.from({ length: 2000 }, (_, i) => `${i}-`.padEnd(1000, 'x'))
    const upload = {
      path: 'uploads.admin.kept',
      cols: [
        { name: 'k', type: 'int' },
        { name: 's', type: 'text' },
      ],
      data: { k: s.map((_, i) => i), s },
    }
    expect((await post(a, cookie, 'dbm:json', { cmd: ['upload_table', upload] })).body.rc).to.equal(0)
    const info = await post(a, cookie, 'dbm:json', { cmd: ['get_table_info', { path: 'uploads.admin.kept' }] })
    const version = (info.body.value as { version?: string }).version
    const ran = await post(a, cookie, 'sql:json', { sql: 'select k, s from uploads.admin.kept' })
    expect(ran.status).to.equal(200)
    expect((await post(a, cookie, 'dbm:json', { cmd: ['drop_table', { path: 'uploads.admin.kept' }] })).body.rc).to.equal(0)
    if (version !== undefined) {
      // Gone within a couple of sweeps.
      let gone = false
      for (let i = 0; i < 50 && !gone; i++) {
        gone = await access(versionDir(dataDir, version)).then(
          () => false,
          () => true,
        )
        if (!gone) await sleep(100)
      }
      expect(gone, 'the dropped version folder was removed').to.equal(true)
    } else {
      await sleep(2500)
    }
    const res = await fetch(`${b.api}/sql/!data:json`, { headers: { cookie } })
    const body = (await res.json()) as Record<string, unknown>
    expect(res.status, JSON.stringify(body)).to.equal(404)
    expect(body.code).to.equal('unknown_table')
    expect(body.error).to.contain('run the query again')
    expect(body.requestId).to.be.a('string')

    // The same query, run again after the table is back, reads the new version.
    expect((await post(a, cookie, 'dbm:json', { cmd: ['upload_table', upload] })).body.rc).to.equal(0)
    const again = await post(b, cookie, 'sql:json', { sql: 'select count(*) as n from uploads.admin.kept' })
    expect(again.body.n).to.deep.equal([2000])
  })
})
