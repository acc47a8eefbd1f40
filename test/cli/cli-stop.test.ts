/**
 * Stopping a long query from the CLI: a never-ending recursive query runs in an sql instance
 * (started through the client library, the way a script would), `tabula status TAG` sees it
 * running, `tabula stop TAG` stops it, and the query's own request then fails with `stopped`.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TabulaError } from '../../client/index.js'
import { ADMIN_PASSWORD, adminClient, cli, spawnCli, startGateway, type Gateway } from '../client/helpers.js'

const ENDLESS = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'

describe('client: CLI stop and status', function () {
  this.timeout(60_000)
  let g: Gateway
  let dir: string
  before(async () => {
    g = await startGateway({ QUERY_TIMEOUT_MS: '120000' })
    dir = await mkdtemp(join(tmpdir(), 'tabula-cli-stop-'))
  })
  after(async () => {
    await g?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('stops a long query in an instance with `stop TAG`', async () => {
    const client = await adminClient(g)
    // The CLI joins the same session (kill=possess), so it may address the session's instance.
    const env = { TABULA_CONFIG_DIR: dir }
    expect((await cli(['login', '--url', g.url, '--user', 'admin'], { ...env, TABULA_PASSWORD: ADMIN_PASSWORD })).code).to.equal(0)
    const instance = await client.newInstance('sql')
    const running = instance.sql(ENDLESS).then(
      () => null,
      (e: unknown) => e,
    )
    // Wait until the service reports it running (polling status, not a fixed sleep).
    for (let i = 0; ; i++) {
      const s = await cli(['status', String(instance.tag)], env)
      expect(s.code, s.stderr).to.equal(0)
      if ((JSON.parse(s.stdout) as { running: boolean }).running) break
      if (i > 100) expect.fail('the query never showed as running')
      await new Promise((r) => setTimeout(r, 100))
    }
    const stop = await cli(['stop', String(instance.tag)], env)
    expect(stop.code, stop.stderr).to.equal(0)
    expect(JSON.parse(stop.stdout)).to.deep.equal({ stopped: true })
    const err = await running
    expect(err).to.be.instanceOf(TabulaError)
    expect((err as TabulaError).code).to.equal('stopped')
    expect((err as TabulaError).status).to.equal(409)
    // Nothing runs there any more.
    const after = await cli(['status', String(instance.tag)], env)
    expect(JSON.parse(after.stdout).running).to.equal(false)
  })

  it('exits 130 on Ctrl-C, and the query it was running stops on the service', async () => {
    const env = { TABULA_CONFIG_DIR: dir }
    expect((await cli(['login', '--url', g.url, '--user', 'admin'], { ...env, TABULA_PASSWORD: ADMIN_PASSWORD })).code).to.equal(0)
    const { child, result } = spawnCli(['sql', ENDLESS], env)
    const client = await adminClient(g)
    const sqlResult = client.results('sql')
    for (let i = 0; !(await sqlResult.status()).running; i++) {
      if (i > 100) expect.fail('the query never showed as running')
      await new Promise((r) => setTimeout(r, 100))
    }
    child.kill('SIGINT')
    const r = await result
    expect(r.code).to.equal(130)
    expect(r.stderr).to.contain('Interrupted')
    // The service noticed the client leaving and stopped the query (polled: it takes a moment).
    for (let i = 0; (await sqlResult.status()).running; i++) {
      if (i > 100) expect.fail('the query kept running after the CLI was interrupted')
      await new Promise((r) => setTimeout(r, 100))
    }
  })

  it('answers a missing instance with exit 1', async () => {
    const env = { TABULA_CONFIG_DIR: dir }
    const r = await cli(['stop', '999999'], env)
    expect(r.code).to.equal(1)
    expect(r.stderr).to.contain('not_found')
  })
})
