/**
 * Behaviour across gateway processes: three `node dist/gateway/server.js` on one Redis and one
 * data folder, started at once. Requests go to chosen gateways directly (to prove a point about
 * "made here, used there") or through the session-rotating balancer. The last tests kill and
 * drain gateways, so they run last.
 */
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { KEYS } from '../../gateway/catalog/records.js'
import { startCluster, CLUSTER_ADMIN_PASSWORD, type Cluster } from '../helpers/cluster.js'
import { redisAvailable } from '../helpers/service.js'

const DEMO_ROWS = 3000
const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
/** A query that runs for a second or so: long enough to be in flight when a signal arrives. */
const SLOW = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 4000000) select count(*) n from c'
const DYNAMIC = '<dynamic n="1" m="2"><do on_="change(n)"><set m="@n*2"/></do><widget name="index"><table cols="n,m">{@n},{@m}</table></widget></dynamic>'

interface Reply {
  readonly status: number
  readonly body: Record<string, unknown>
}

describe('three gateway processes on one Redis and one data folder', function () {
  this.timeout(120_000)
  let cluster: Cluster
  let cookie: string

  /** POSTs JSON to `{api}/{path}` with the session cookie. */
  const call = async (api: string, path: string, body?: object, who = cookie): Promise<Reply> => {
    const res = await fetch(`${api}/${path}`, {
      method: 'POST',
      headers: { cookie: who, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
  }
  const gw = (i: number): string => cluster.gateways[i].base

  before(async function () {
    if (!redisAvailable()) {
      console.log('    (Redis not installed: skipping the multi-gateway suite)')
      return this.skip()
    }
    cluster = await startCluster({ demoRows: DEMO_ROWS, env: { MAX_INSTANCES_PER_SESSION: '1000', QUERY_TIMEOUT_MS: '60000' } })
    const res = await fetch(`${gw(0)}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: CLUSTER_ADMIN_PASSWORD }) })
    const creds = (await res.json()) as { uid: string; sid: string; epw: string }
    cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  })
  after(async function () {
    this.timeout(60_000)
    await cluster?.close()
  })

  it('seeds a new installation once when all gateways start together, and every gateway serves it', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call(gw(i), 'sql:json', { sql: 'select count(*) n from pub.demo.retail.item' })
      expect(res.body, `gateway ${i}`).to.deep.equal({ n: [DEMO_ROWS] })
    }
    // One version folder per demo table: nobody seeded twice.
    const versions = (await readdir(join(cluster.dataDir, 'tables'))).filter((n) => !n.startsWith('.'))
    const tables = (await cluster.store.keys('cat:table:')).filter((k) => k.startsWith(KEYS.table('pub.demo.')))
    expect(versions).to.have.length(tables.length)
    expect(tables.length).to.be.greaterThan(0)
  })

  it('accepts a session made on one gateway on every other', async () => {
    for (let i = 1; i < 3; i++) {
      const res = await call(gw(i), 'sql:json', { sql: 'select 1 as one' })
      expect(res, `gateway ${i}`).to.deep.equal({ status: 200, body: { one: [1] } })
    }
  })

  it('gives 300 concurrent api/new spread over all gateways 300 distinct tags, each usable from another gateway', async () => {
    const made = await Promise.all(Array.from({ length: 300 }, (_, k) => call(gw(k % 3), 'new/sql:json', {})))
    for (const r of made) expect(r.status).to.equal(200)
    const tags = made.map((r) => r.body.tag as number)
    expect(new Set(tags).size).to.equal(300)
    for (const tag of tags) expect(tag).to.be.a('number')
    // A sample made on gateway k answers on gateway k+1.
    for (const k of [0, 1, 2, 150, 299]) {
      const res = await call(gw((k + 1) % 3), `${tags[k]}:json`, { sql: `select ${k} as k` })
      expect(res.body).to.deep.equal({ k: [k] })
    }
  })

  it('reads and changes on the other gateways a dynamic instance made on one', async () => {
    const tag = (await call(gw(0), 'new:json', { xml: DYNAMIC })).body.tag
    expect((await call(gw(1), `${tag}:json`, { n: '5' })).body).to.deep.equal({ n: [5], m: [10] })
    expect((await call(gw(2), `${tag}:json`)).body).to.deep.equal({ n: [5], m: [10] })
    expect((await call(gw(2), `${tag}/!rows:json`)).body).to.equal(1)
    expect((await call(gw(0), `${tag}:json`, { n: '7' })).body).to.deep.equal({ n: [7], m: [14] })
  })

  it('stops through one gateway a query running on another, and the instance runs again', async () => {
    const tag = (await call(gw(0), 'new/sql:json', {})).body.tag
    const running = call(gw(0), `${tag}:json`, { sql: FOREVER })
    await new Promise((r) => setTimeout(r, 500))
    const t0 = performance.now()
    expect((await call(gw(2), `${tag}/!stop:json`)).body).to.deep.equal({ stopped: true })
    const res = await running
    const latency = performance.now() - t0
    expect(res.status).to.equal(409)
    expect(res.body.code).to.equal('stopped')
    // The target is 100 ms (bench:cluster measures it); a loaded test machine gets slack.
    expect(latency).to.be.below(3000)
    expect((await call(gw(1), `${tag}:json`, { sql: 'select 3 as x' })).body).to.deep.equal({ x: [3] })
  })

  it('makes a table saved through one gateway readable at once through the others, version after version', async () => {
    for (let round = 1; round <= 6; round++) {
      const writer = round % 3
      const saved = await call(gw(writer), 'run:json', {
        xml: `<table cols="round,k">${Array.from({ length: round * 10 }, (_, k) => `${round},${k}`).join(';')}</table>`,
        savetable: 'uploads.admin.shared',
        replace: '1',
      })
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200)
      for (const reader of [(writer + 1) % 3, (writer + 2) % 3]) {
        const res = await call(gw(reader), 'sql:json', { sql: 'select count(*) n, min(round) r from uploads.admin.shared' })
        expect(res.body, `round ${round}, written on ${writer}, read on ${reader}`).to.deep.equal({ n: [round * 10], r: [round] })
      }
    }
  })

  it('loses only the in-flight request of a gateway killed with SIGKILL; the others go on serving', async () => {
    const tag = (await call(cluster.api, 'new/sql:json', {})).body.tag
    const doomed = call(cluster.api, `${tag}:json`, { sql: FOREVER })
    await new Promise((r) => setTimeout(r, 500))
    const sid = cookie.split('|')[1]
    const victim = cluster.proxy.sessions.get(sid)!.at(-1)!
    // Work in flight on the other gateways at the moment of the kill.
    const others = [1, 2].map((d) => call(gw((victim + d) % 3), 'sql:json', { sql: 'select count(*) n from pub.demo.retail.item' }))
    expect(await cluster.signal(victim, 'SIGKILL')).to.equal(null)
    const lost = await doomed
    expect(lost.status, 'the client hears of the loss').to.equal(502)
    expect(lost.body.error).to.be.a('string')
    for (const r of await Promise.all(others)) expect(r.body).to.deep.equal({ n: [DEMO_ROWS] })
    // Through the balancer every later request lands on a live gateway, the instance included.
    for (let k = 0; k < 6; k++) {
      const res = await call(cluster.api, 'sql:json', { sql: `select ${k} as k` })
      expect(res.body).to.deep.equal({ k: [k] })
    }
    expect(cluster.proxy.isDown(victim)).to.equal(true)
    const again = await call(cluster.api, `${tag}:json`, { sql: 'select 4 as x' })
    expect(again.body).to.deep.equal({ x: [4] })
  })

  it('drains in-flight requests on SIGTERM before the gateway exits', async () => {
    const alive = [0, 1, 2].filter((i) => !cluster.proxy.isDown(i))
    const [draining, other] = alive
    const inFlight = call(gw(draining), 'sql:json', { sql: SLOW })
    await new Promise((r) => setTimeout(r, 300))
    const exited = cluster.signal(draining, 'SIGTERM')
    const res = await inFlight
    expect(res).to.deep.equal({ status: 200, body: { n: [4000000] } })
    expect(await exited).to.equal(0)
    // It no longer takes connections; the other gateway still serves.
    const refused = await fetch(`${gw(draining)}/sql:json`, { method: 'POST' }).then(
      () => 'answered',
      (e: Error) => (e.cause as { code?: string })?.code ?? e.message,
    )
    expect(refused).to.equal('ECONNREFUSED')
    expect((await call(gw(other), 'sql:json', { sql: 'select 5 as x' })).body).to.deep.equal({ x: [5] })
  })
})
