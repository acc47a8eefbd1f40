/**
 * Two gateway processes sharing one Redis and one data folder: an instance created on one is
 * read, changed and stopped through the other.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { redisAvailable } from '../helpers/service.js'
import { children, start, stop, type Running } from '../helpers/processes.js'

const PW = 'two-procs-pw-1'
const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
const DYNAMIC = '<dynamic n="1" m="2"><do on_="change(n)"><set m="@n*2"/></do><widget name="index"><table cols="n,m">{@n},{@m}</table></widget></dynamic>'

describe('two gateway processes on one Redis', function () {
  this.timeout(120_000)
  let dataDir: string
  let a: Running
  let b: Running
  let cookie: string

  const call = async (base: string, path: string, body?: object) => {
    const res = await fetch(`${base}/${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  before(async function () {
    if (!redisAvailable()) {
      console.log('    (Redis not installed: skipping the two-process test)')
      return this.skip()
    }
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-two-'))
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_ROWS: '2000', WORKERS: '1', ADMIN_PASSWORD: PW, REDIS_URL: process.env.TEST_REDIS_URL!, QUERY_TIMEOUT_MS: '60000' }
    a = await start(env)
    b = await start(env)
    const res = await fetch(`${a.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: PW }) })
    const creds = (await res.json()) as { uid: string; sid: string; epw: string }
    cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('serves on the second process a session and the tables made by the first', async () => {
    const res = await call(b.base, 'sql:json', { sql: 'select count(*) n from pub.demo.retail.item' })
    expect(res.body).to.deep.equal({ n: [2000] })
  })

  it('creates a dynamic instance on one process and reads and changes it on the other', async () => {
    const tag = (await call(a.base, 'new:json', { xml: DYNAMIC })).body.tag
    expect(tag).to.be.a('number')
    expect((await call(b.base, `${tag}:json?n=5`)).body).to.deep.equal({ n: [5], m: [10] })
    expect((await call(a.base, `${tag}:json`)).body).to.deep.equal({ n: [5], m: [10] })
    expect((await call(a.base, `${tag}/!rows:json`)).body).to.equal(1)
  })

  it('stops through one process a query running on the other', async () => {
    const tag = (await call(a.base, 'new/sql:json', {})).body.tag
    const running = call(a.base, `${tag}:json`, { sql: FOREVER })
    await new Promise((r) => setTimeout(r, 500))
    const t0 = Date.now()
    expect((await call(b.base, `${tag}/!stop:json`)).body).to.deep.equal({ stopped: true })
    const res = await running
    expect(res.status).to.equal(409)
    expect(res.body.code).to.equal('stopped')
    expect(Date.now() - t0).to.be.below(3000)
    expect((await call(a.base, `${tag}:json`, { sql: 'select 3 as x' })).body).to.deep.equal({ x: [3] })
  })

  it('both processes stop cleanly on SIGTERM', async () => {
    expect(await stop(a)).to.equal(0)
    expect(await stop(b)).to.equal(0)
  })
})
