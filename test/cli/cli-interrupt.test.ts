/**
 * A one-shot query and Ctrl-C: the progress line on a terminal (and none on a pipe), the first
 * Ctrl-C stopping the query on the service with `!stop` before the CLI leaves, and a second one
 * leaving at once when the service does not answer the stop (a stand-in service that never
 * answers, so "at once" is measured, not assumed).
 */
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '../../client/index.js'
import { scriptBinary, Terminal } from './cli-terminal.js'
import { cli, configDir, spawnCli, useLoggedInCli } from '../client/helpers.js'

const ENDLESS = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'

async function waitUntilRunning(client: Client): Promise<void> {
  for (let i = 0; !(await client.results('sql').status()).running; i++) {
    if (i > 100) expect.fail('the query never showed as running')
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe('client: CLI progress and Ctrl-C', function () {
  this.timeout(60_000)

  describe('against a gateway', () => {
    const session = useLoggedInCli({ QUERY_TIMEOUT_MS: '120000' })

    it('writes no progress and no row count when stderr is not a terminal', async () => {
      const r = await cli(['sql', 'select count(*) n from pub.demo.retail.item', '--format', 'table'], session.env)
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stderr).to.equal('')
    })

    it('on Ctrl-C, stops the query with !stop and says so (exit 130)', async () => {
      const { child, result } = spawnCli(['sql', ENDLESS], session.env)
      await waitUntilRunning(session.client)
      child.kill('SIGINT')
      const r = await result
      expect(r.code).to.equal(130)
      expect(r.stderr).to.contain('Interrupted: the query was stopped on the service.')
      expect((await session.client.results('sql').status()).running).to.equal(false)
    })

    it('shows the elapsed time and status on a terminal, then the row count; Ctrl-C there stops the query', async function () {
      const script = scriptBinary()
      if (!script) this.skip()
      const quick = new Terminal(script!, ['run', '<base table="pub.demo.retail.stores"/><sel value="store<6"/>'], session.env)
      await quick.waitFor(/5 rows in \d+\.\d s/)
      expect(await quick.exit()).to.equal(0)

      const t = new Terminal(script!, ['sql', ENDLESS], session.env)
      let at = await t.waitFor(/running \d+\.\d s/)
      await waitUntilRunning(session.client)
      // The status part comes from !status: the engine the gateway chose.
      at = await t.waitFor(/running \d+\.\d s · sqlite/, at)
      t.type('\x03')
      at = await t.waitFor('Stopping', at)
      await t.waitFor('Interrupted: the query was stopped on the service.', at)
      expect(await t.exit()).to.equal(130)
      expect((await session.client.results('sql').status()).running).to.equal(false)
    })
  })

  describe('against a service that never answers', () => {
    let server: Server
    let url: string
    const seen: string[] = []
    before(async () => {
      server = createServer((req: IncomingMessage, res) => {
        seen.push(`${req.method} ${req.url}`)
        req.resume()
        if (req.url?.includes('!login')) {
          res.setHeader('Content-Type', 'application/json')
          res.end(JSON.stringify({ uid: 'ann', sid: '1', epw: 'x' }))
        }
        // Everything else (the query, its !stop) hangs: the connection stays open.
      })
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    after(async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    })

    it('leaves at once on a second Ctrl-C while the stop is on its way', async () => {
      const cfg = await configDir()
      try {
        const { child, result } = spawnCli(['sql', 'select 1'], { TABULA_CONFIG_DIR: cfg.dir, TABULA_URL: url, TABULA_UID: 'ann', TABULA_PASSWORD: 'pw' })
        const waitFor = async (what: string) => {
          for (let i = 0; !seen.some((s) => s.includes(what)); i++) {
            if (i > 200) expect.fail(`the CLI never sent ${what}; it sent ${seen.join(', ')}`)
            await new Promise((r) => setTimeout(r, 25))
          }
        }
        await waitFor('/v1/api/sql:json.rows')
        child.kill('SIGINT')
        await waitFor('/v1/api/sql/!stop')
        const second = Date.now()
        child.kill('SIGINT')
        const r = await result
        expect(r.code).to.equal(130)
        expect(r.stderr).to.contain('Interrupted again: leaving without waiting for the service.')
        // The stop would have waited 5 s for its answer; the second Ctrl-C did not.
        expect(Date.now() - second).to.be.below(2000)
      } finally {
        await cfg.remove()
      }
    })
  })
})
