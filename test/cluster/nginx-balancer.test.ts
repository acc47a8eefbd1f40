/**
 * The deployed balancer: Debian's nginx running deploy/nginx/tabula.conf (the file docker-compose
 * mounts) in front of three gateway processes. Proves the configuration itself: requests are
 * spread over every gateway, large answers and bodies pass, the gateway's own 413 reaches the
 * client, stop works through it, a dead gateway is skipped, and a client that hangs up has its
 * query stopped behind the balancer.
 */
import { expect } from 'chai'
import { startCluster, CLUSTER_ADMIN_PASSWORD, type Cluster } from '../helpers/cluster.js'
import { findNginx, startNginx, type Nginx } from '../helpers/nginx.js'
import { redisAvailable } from '../helpers/service.js'

const DEMO_ROWS = 3000
const MAX_BODY_BYTES = 1 << 20
const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'

describe('nginx with the deployed configuration in front of three gateways', function () {
  this.timeout(120_000)
  let cluster: Cluster
  let nginx: Nginx
  let api: string
  let cookie: string

  const call = async (path: string, body?: object | string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api}/${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await res.text()
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text,
      body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
    }
  }

  before(async function () {
    if (!redisAvailable()) return this.skip()
    if (!findNginx()) {
      if (process.env.CI === 'true') throw new Error('CI=true but nginx is not installed: .ci/run installs it')
      console.log('    (nginx not installed: skipping the balancer suite)')
      return this.skip()
    }
    cluster = await startCluster({ demoRows: DEMO_ROWS, env: { MAX_BODY_BYTES: String(MAX_BODY_BYTES), QUERY_TIMEOUT_MS: '60000' } })
    nginx = await startNginx(cluster.gateways.map((g) => Number(new URL(g.base).port)))
    api = `${nginx.origin}/v1/api`
    const res = await fetch(`${api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: CLUSTER_ADMIN_PASSWORD }) })
    const creds = (await res.json()) as { uid: string; sid: string; epw: string }
    cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  })
  after(async function () {
    this.timeout(60_000)
    await nginx?.close()
    await cluster?.close()
  })

  it('spreads the requests of one session over all three gateways', async () => {
    for (let k = 0; k < 12; k++) expect((await call('sql:json', { sql: `select ${k} as k` })).body).to.deep.equal({ k: [k] })
    const log = await nginx.accessLog()
    const ports = new Set(log.map((l) => l.upstream.split(':').at(-1)))
    expect([...ports].sort()).to.deep.equal(cluster.gateways.map((g) => new URL(g.base).port).sort())
  })

  it('keeps /metrics inside: 404 through the balancer, while each gateway answers it on its own port', async () => {
    const through = await fetch(`${nginx.origin}/metrics`)
    expect(through.status).to.equal(404)
    expect(await through.json()).to.include({ code: 'not_found' })
    const direct = await fetch(`${new URL(cluster.gateways[0].base).origin}/metrics`)
    expect(direct.status).to.equal(200)
    expect(await direct.text()).to.match(/^# HELP http_requests_total /m)
  })

  it('passes a whole result through unchanged, and the same answer as a gateway gives directly', async () => {
    const sql = 'select * from pub.demo.retail.item order by 1'
    const through = await call('sql:json.rows', { sql })
    const direct = await fetch(`${cluster.gateways[0].base}/sql:json.rows`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ sql }),
    })
    expect(through.status).to.equal(200)
    expect(through.body.rows).to.have.length(DEMO_ROWS)
    expect(through.text).to.equal(await direct.text())
  })

  it("passes a body under MAX_BODY_BYTES, and a larger one gets the gateway's JSON 413, not an nginx page", async () => {
    const padding = ' '.repeat(MAX_BODY_BYTES - 200)
    const fits = await call('sql:json', `{"sql": "select 1 as one"${padding}}`)
    expect(fits.body).to.deep.equal({ one: [1] })
    const tooBig = await call('sql:json', `{"sql": "select 1 as one"${padding}${' '.repeat(400)}}`)
    expect(tooBig.status).to.equal(413)
    expect(tooBig.type).to.match(/^application\/json/)
    expect(tooBig.body.error).to.be.a('string')
  })

  it('stops through the balancer a query it sent to some gateway', async () => {
    const tag = (await call('new/sql:json', {})).body.tag
    const running = call(`${tag}:json`, { sql: FOREVER })
    await new Promise((r) => setTimeout(r, 500))
    expect((await call(`${tag}/!stop:json`)).body).to.deep.equal({ stopped: true })
    const res = await running
    expect(res.status).to.equal(409)
    expect(res.body.code).to.equal('stopped')
  })

  it('stops the query of a client that hangs up, behind the balancer', async () => {
    const tag = (await call('new/sql:json', {})).body.tag
    const hangUp = new AbortController()
    const running = fetch(`${api}/${tag}:json`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ sql: FOREVER }),
      signal: hangUp.signal,
    }).catch((e: Error) => e.name)
    const runningNow = async (): Promise<boolean> => (await call(`${tag}/!status:json`)).body.running === true
    let started = false
    for (let k = 0; k < 50 && !started; k++) {
      await new Promise((r) => setTimeout(r, 100))
      started = await runningNow()
    }
    expect(started, 'the query is running before the client leaves').to.equal(true)
    hangUp.abort()
    expect(await running).to.equal('AbortError')
    // !status reads the running record any gateway keeps in the Store: it must go away.
    let stillRunning = true
    for (let k = 0; k < 50 && stillRunning; k++) {
      await new Promise((r) => setTimeout(r, 100))
      stillRunning = await runningNow()
    }
    expect(stillRunning, 'the query still runs after its client left').to.equal(false)
    expect((await call(`${tag}:json`, { sql: 'select 2 as two' })).body).to.deep.equal({ two: [2] })
  })

  it('skips a gateway killed with SIGKILL: every later request is served by the other two', async () => {
    expect(await cluster.signal(1, 'SIGKILL')).to.equal(null)
    for (let k = 0; k < 9; k++) {
      const res = await call('sql:json', { sql: 'select count(*) n from pub.demo.retail.item' })
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.deep.equal({ n: [DEMO_ROWS] })
    }
  })
})
