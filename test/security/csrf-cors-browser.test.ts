/**
 * ALLOWED_ORIGINS in real Chromium: a notebook page served from another loopback port that the
 * operator listed may call the API with the user's cookie (a preflighted JSON POST included) and
 * read the answers; a page from a port that is not listed gets neither the answer nor the change.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { useBrowser } from '../helpers/browser.js'
import { useWorkbench } from '../browser/workbench.js'

/** What the notebook page's script reports back through the page title. */
interface Report {
  readonly list?: { status: number; body: unknown }
  readonly make?: { status: number; body: { rc: number } }
  readonly error?: string
}

describe('security: a notebook origin allowed on purpose (ALLOWED_ORIGINS) in Chromium', function () {
  this.timeout(120_000)
  const servers: http.Server[] = []
  const origins = { notebook: '', other: '' }
  // Filled before the gateway starts (hooks run in order), so the gateway knows the notebook's port.
  const env: Record<string, string> = {}
  let api = ''

  before(async () => {
    for (const which of ['notebook', 'other'] as const) {
      const server = http.createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        res.end(`<!doctype html><html><head><title>${which}</title></head><body><script>${notebookScript(api)}</script></body></html>`)
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      servers.push(server)
      origins[which] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    }
    env.ALLOWED_ORIGINS = origins.notebook
  })
  const bench = useWorkbench(env)
  const browser = useBrowser((context) => bench().logIn(context))

  before(() => {
    api = bench().api
  })

  after(async () => {
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()))
  })

  /** Lists a folder, then makes one with a JSON POST (preflighted), both with the cookie. */
  function notebookScript(base: string): string {
    return `
      const call = async (path, init) => {
        const res = await fetch(${JSON.stringify(base)} + path, { credentials: 'include', ...init })
        return { status: res.status, body: await res.json() }
      }
      ;(async () => {
        const report = {}
        try {
          report.list = await call('/ls:json')
          report.make = await call('/dbm:json', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cmd: ['make_dir', { path: 'pub.from_' + location.port }] }) })
        } catch (err) {
          report.error = String(err)
        }
        document.title = 'report:' + JSON.stringify(report)
      })()`
  }

  async function reportOf(origin: string): Promise<Report> {
    const page = browser.page
    await page.goto(`${origin}/`)
    await page.waitForFunction('document.title.startsWith("report:")')
    return JSON.parse((await page.title()).slice('report:'.length)) as Report
  }

  const folders = async () => (await bench().dbm<[string[], string[]]>('get_names_in_dir', { path: 'pub' }))[1]

  it("lets the listed notebook read answers and change data with the user's cookie", async () => {
    const report = await reportOf(origins.notebook)
    expect(report.error, 'no CORS failure').to.equal(undefined)
    expect(report.list?.status).to.equal(200)
    expect(report.make?.status).to.equal(200)
    expect(report.make?.body.rc).to.equal(0)
    const port = new URL(origins.notebook).port
    expect(await folders()).to.include(`pub.from_${port}`)
  })

  it('gives a page from a port that is not listed neither the answer nor the change', async () => {
    const report = await reportOf(origins.other)
    // The read is sent but its answer is withheld (no CORS header); the JSON POST's preflight is
    // refused, so the POST itself is never sent.
    expect(report.error).to.match(/Failed to fetch/)
    const port = new URL(origins.other).port
    expect(await folders()).to.not.include(`pub.from_${port}`)
  })
})
