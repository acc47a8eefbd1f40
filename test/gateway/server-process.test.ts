/**
 * The service as users start it: `node dist/gateway/server.js` as a child process on a loopback
 * port, with the embedded store and demo data; then restarted on the same DATA_DIR.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVER, children, start, stop } from '../helpers/processes.js'

async function login(base: string, pw: string): Promise<string> {
  const res = await fetch(`${base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw }) })
  const body = (await res.json()) as { uid: string; sid: string; epw: string }
  return `session=${body.uid}|${body.sid}|${body.epw}`
}

describe('gateway/server.js as a process', function () {
  this.timeout(90_000)
  let dataDir: string
  let adminPassword = ''
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-proc-'))
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  const env = () => ({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_ROWS: '2000', WORKERS: '1' })

  it('serves the demo data with a generated admin password printed once, and stops cleanly on SIGTERM', async () => {
    const r = await start(env())
    const pw = /generated password: (\S+)/.exec(r.stdout)?.[1]
    expect(pw, r.stdout).to.be.a('string')
    const cookie = await login(r.base, pw!)
    const res = await fetch(`${r.base}/sql:json`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ sql: 'select store, count(*) n from pub.demo.retail.item group by store' }),
    })
    expect(res.status).to.equal(200)
    const body = (await res.json()) as { n: number[] }
    expect(body.n.reduce((a, b) => a + b, 0)).to.equal(2000)
    // The start message names the workbench: its address answers a browser with the landing page.
    const origin = new URL(r.base).origin
    expect(r.stdout).to.contain(`Workbench: ${origin}/ in a browser`)
    const landing = await fetch(`${origin}/`, { headers: { cookie } })
    expect(landing.status).to.equal(200)
    expect(await landing.text()).to.contain('<title>tabula workbench</title>')
    expect(await stop(r)).to.equal(0)
    adminPassword = pw!
  })

  it('keeps the catalog and the admin password across a restart, without seeding again', async () => {
    const r = await start(env())
    expect(r.stdout).not.to.contain('generated password')
    const cookie = await login(r.base, adminPassword)
    const res = await fetch(`${r.base}/sql:json`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ sql: 'select count(*) n from pub.demo.retail.item' }),
    })
    expect(((await res.json()) as { n: number[] }).n).to.deep.equal([2000])
    expect(await stop(r)).to.equal(0)
  })

  it('refuses to start on an invalid configuration with a message naming the variable', async () => {
    const child = spawn(process.execPath, [SERVER], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, WORKERS: 'many' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const code = await new Promise((resolve) => child.on('exit', resolve))
    expect(code).to.equal(2)
    expect(stderr).to.contain('WORKERS')
  })
})
