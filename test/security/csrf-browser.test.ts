/**
 * Issue 16, part 1, the way it was found: in real Chromium. The victim logs in through the login
 * form on the service's origin; then pages served by a second loopback server on another port
 * (an attacker's site: another origin, and the same site, so the SameSite=Lax cookie rides along
 * on every request) try an auto-submitted form POST to run with savetable and to dbm, credentialed
 * fetches, `<img>` GETs, a top-level navigation with savetable and a login form. Each is refused
 * and a header-less client then shows nothing changed and the session is still the victim's. The
 * workbench on the service's own origin and a header-less client keep working.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { useBrowser } from '../helpers/browser.js'
import { eventually, runQuery, textOf } from '../browser/pages.js'
import { useWorkbench } from '../browser/workbench.js'

const VICTIM = { uid: 'vic', pw: 'vic-secret-1' }
const ATTACKER = { uid: 'mallory', pw: 'mallory-secret-1' }
const DYNAMIC = '<dynamic x="1"><widget name="index"><table cols="x">{@x}</table></widget></dynamic>'

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** An auto-submitting form, as a hostile page would hide one. */
function autoForm(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('')
  return `<form id="f" method="post" action="${esc(action)}">${inputs}</form><script>document.getElementById('f').submit()</script>`
}

describe('security: cross-site requests in Chromium', function () {
  this.timeout(120_000)
  const bench = useWorkbench()
  const browser = useBrowser()
  let attacker: http.Server | null = null
  let evil = ''
  /** The attack pages by name, built once the service's address is known. */
  const pages = new Map<string, string>()
  let victimCookie = ''
  let tag = 0

  const api = () => bench().api
  /** A call as the victim from Node: no browser headers, the victim's cookie. */
  const asVictim = (path: string, init: RequestInit = {}) =>
    fetch(`${api()}/${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: `session=${victimCookie}` } })
  const victimTable = async () => (await asVictim('uploads.vic.mine:json')).json() as Promise<unknown>
  const victimNames = async () =>
    (
      await asVictim('dbm:json', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ cmd: ['get_names_in_dir', { path: 'uploads.vic' }] }),
      })
    ).json() as Promise<unknown>
  const victimVar = async () =>
    (await asVictim(`${tag}:json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '' })).json() as Promise<unknown>
  const publicNames = async () =>
    (
      await asVictim('dbm:json', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ cmd: ['get_names_in_dir', { path: 'shared' }] }),
      })
    ).json() as Promise<unknown>
  /** Everything an attack could have touched, read without browser headers. */
  const world = async () => ({ table: await victimTable(), names: await victimNames(), shared: await publicNames(), x: await victimVar() })

  before(async function () {
    const b = bench()
    await b.dbm('add_user', { uid: VICTIM.uid, first: 'Vic', last: 'Tim', email: 'vic@example.com', password: VICTIM.pw })
    await b.dbm('add_user', { uid: ATTACKER.uid, first: 'Mal', last: 'Lory', email: 'mallory@example.com', password: ATTACKER.pw })
    // A shared folder everyone may write to: where the finding copied a private table.
    await b.dbm('make_dir', { path: 'shared', users: ['*'], uploaders: [VICTIM.uid], inherit: false })
    const login = await fetch(`${api()}/!login:json`, { method: 'POST', body: new URLSearchParams(VICTIM) })
    expect(login.status).to.equal(200)
    const { uid, sid, epw } = (await login.json()) as Record<string, string>
    victimCookie = `${uid}|${sid}|${epw}`
    const saved = await asVictim('run:json', {
      method: 'POST',
      body: new URLSearchParams({ xml: '<table cols="secret">42</table>', savetable: 'uploads.vic.mine' }),
    })
    expect(saved.status, await saved.text()).to.equal(200)
    const made = await asVictim('new:json', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ xml: DYNAMIC }) })
    tag = ((await made.json()) as { tag: number }).tag
    expect(tag).to.be.a('number')

    const a = api()
    const saveQuery = `xml=${encodeURIComponent('<table cols="secret">666</table>')}&savetable=uploads.vic.mine&replace=1`
    const copyQuery = `xml=${encodeURIComponent('<base table="uploads.vic.mine"/>')}&savetable=shared.stolen`
    pages.set('form-run', autoForm(`${a}/run:json`, { xml: '<table cols="secret">666</table>', savetable: 'uploads.vic.mine', replace: '1' }))
    pages.set('form-copy', autoForm(`${a}/run`, { xml: '<base table="uploads.vic.mine"/>', savetable: 'shared.stolen' }))
    pages.set('form-dbm', autoForm(`${a}/dbm:json`, { cmd: JSON.stringify(['make_dir', { path: 'uploads.vic.evil' }]) }))
    pages.set('form-login', autoForm(`${a}/!login:json`, ATTACKER))
    pages.set(
      'fetch',
      `<script>
      const body = (o) => new URLSearchParams(o)
      const calls = [
        fetch(${JSON.stringify(`${a}/dbm:json`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: body({ cmd: ${JSON.stringify(JSON.stringify(['upload_table', { path: 'uploads.vic.evil2', data: { n: [1] } }]))} }) }),
        fetch(${JSON.stringify(`${a}/run:json`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: body({ xml: '<table cols="secret">666</table>', savetable: 'uploads.vic.mine', replace: '1' }) }),
        fetch(${JSON.stringify(`${a}/${tag}:json`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: body({ x: '666' }) }),
        fetch(${JSON.stringify(`${a}/!logout:json`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' }),
      ]
      Promise.allSettled(calls).then(() => { document.title = 'done' })
    </script>`,
    )
    pages.set(
      'img',
      `<img id="a" src="${esc(`${a}/${tag}:json?x=666`)}"><img id="b" src="${esc(`${a}/run:json?${saveQuery}`)}"><img id="c" src="${esc(`${a}/run:json?${copyQuery}`)}">
      <script>
        let left = 3
        for (const img of document.images) img.onload = img.onerror = () => { if (--left === 0) document.title = 'done' }
      </script>`,
    )
    pages.set('navigate-save', `<script>location.href = ${JSON.stringify(`${a}/run?${saveQuery}`)}</script>`)
    pages.set('navigate-var', `<script>location.href = ${JSON.stringify(`${a}/${tag}?x=666`)}</script>`)

    attacker = http.createServer((req, res) => {
      const page = pages.get((req.url ?? '/').slice(1))
      res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end(page === undefined ? 'no such page' : `<!doctype html><html><head><title>attack</title></head><body>${page}</body></html>`)
    })
    await new Promise<void>((resolve) => attacker!.listen(0, '127.0.0.1', resolve))
    evil = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
    expect(evil, 'another origin than the service').to.not.equal(bench().origin)
  })

  after(async () => {
    if (attacker) await new Promise<void>((resolve) => attacker!.close(() => resolve()))
  })

  /** The victim logs in on the service's own origin, through the login form. */
  async function victimLogsIn(page: Page): Promise<string> {
    expect((await page.goto(`${api()}/ls`))?.status()).to.equal(403)
    await page.locator('input#uid').fill(VICTIM.uid)
    await page.locator('input#pw').fill(VICTIM.pw)
    await page.locator('button#login-submit').click()
    await page.locator('#whoami').waitFor()
    expect(await textOf(page, '#whoami')).to.contain(VICTIM.uid)
    return browserSession(page)
  }

  async function browserSession(page: Page): Promise<string> {
    const cookie = (await page.context().cookies(bench().origin)).find((c) => c.name === 'session')
    return cookie?.value ?? ''
  }

  /**
   * Opens an attack page, waits until the requests it made to the service are answered, and
   * returns the statuses; a response the browser withheld from the page (Chromium's opaque
   * response blocking, for an `<img>` of JSON) counts as its failure text: the service did
   * answer it, after acting or refusing.
   */
  async function attack(page: Page, name: string, expected: number): Promise<(number | string)[]> {
    const statuses: (number | string)[] = []
    // A no-cors fetch is answered and then aborted (nobody reads the opaque body): count it once.
    const answered = new WeakSet<object>()
    page.on('response', (r) => {
      if (!r.url().startsWith(api())) return
      answered.add(r.request())
      statuses.push(r.status())
    })
    page.on('requestfailed', (r) => {
      if (r.url().startsWith(api()) && !answered.has(r)) statuses.push(r.failure()?.errorText ?? 'failed')
    })
    await page.goto(`${evil}/${name}`)
    await eventually(() => {
      expect(statuses.length, `${name}: the service answered`).to.be.at.least(expected)
      return Promise.resolve()
    })
    return statuses
  }

  /** After an attack: nothing changed, and the browser still holds the victim's live session. */
  async function unchanged(page: Page, before: unknown, session: string): Promise<void> {
    expect(await world()).to.deep.equal(before)
    expect(await browserSession(page), "the browser keeps the victim's cookie").to.equal(session)
    expect(session.startsWith(`${VICTIM.uid}|`)).to.equal(true)
    const still = await page.context().request.get(`${api()}/ls/uploads.vic:json`)
    expect(still.status(), "the victim's session is alive").to.equal(200)
  }

  it("refuses an auto-submitted form POST to run with savetable, over the victim's table and into a shared folder", async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    for (const name of ['form-run', 'form-copy']) {
      const statuses = await attack(page, name, 1)
      expect(statuses, name).to.deep.equal([403])
      if (name === 'form-copy') expect(await page.content(), 'the HTML error page names the cause').to.contain('ALLOWED_ORIGINS')
      await unchanged(page, before, session)
    }
  })

  it('refuses an auto-submitted form POST to dbm', async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    expect(await attack(page, 'form-dbm', 1)).to.deep.equal([403])
    expect(await page.content()).to.contain('cross_site')
    await unchanged(page, before, session)
  })

  it('refuses credentialed fetches (dbm upload, run savetable, a variable, !logout)', async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    const statuses = await attack(page, 'fetch', 4)
    await page.waitForFunction('document.title === "done"')
    expect(statuses).to.deep.equal([403, 403, 403, 403])
    await unchanged(page, before, session)
  })

  it('refuses <img> GETs that set a variable or save a table', async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    const statuses = await attack(page, 'img', 3)
    await page.waitForFunction('document.title === "done"')
    // Chromium keeps JSON from an <img>, so the statuses are not visible here (csrf-http checks
    // them: 403 for the variable, 405 for saving on GET); what the service did is.
    expect(statuses).to.have.length(3)
    await unchanged(page, before, session)
    // The same variable change sent as POST from the service's own page does go through.
    expect(await page.goto(`${api()}/ls`).then((r) => r?.status())).to.equal(200)
    const own = await page.evaluate(
      `fetch(${JSON.stringify(`${api()}/${tag}:json`)}, { method: 'POST', body: new URLSearchParams({ x: '9' }) }).then((r) => r.status)`,
    )
    expect(own).to.equal(200)
    expect(await victimVar()).to.deep.equal({ x: [9] })
  })

  it('refuses a top-level navigation with savetable or a variable', async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    expect(await attack(page, 'navigate-save', 1)).to.deep.equal([405])
    await page.waitForURL((u) => u.href.startsWith(api()))
    expect(await page.content()).to.contain('takes POST')
    await unchanged(page, before, session)
    expect(await attack(page, 'navigate-var', 1)).to.deep.equal([403])
    await unchanged(page, before, session)
  })

  it("refuses a login form that would replace the victim's session with the attacker's", async () => {
    const page = browser.page
    const session = await victimLogsIn(page)
    const before = await world()
    expect(await attack(page, 'form-login', 1)).to.deep.equal([403])
    await unchanged(page, before, session)
    // The attacker has no session either: a kill=no login finds none to refuse over.
    const probe = await fetch(`${api()}/!login:json`, { method: 'POST', body: new URLSearchParams({ ...ATTACKER, kill: 'no' }) })
    expect(probe.status, 'no session of the attacker was made').to.equal(200)
    const { uid, sid, epw } = (await probe.json()) as Record<string, string>
    await fetch(`${api()}/!logout:json`, { method: 'POST', headers: { Cookie: `session=${uid}|${sid}|${epw}` } })
  })

  browser.it('keeps the workbench working on its own origin: a variable applied, a query run, log out', async (page) => {
    await victimLogsIn(page)
    await page.goto(`${api()}/${tag}`)
    await page.locator('form#vars input[name="x"]').fill('7')
    await page.locator('button#apply').click()
    await eventually(async () => expect(await victimVar()).to.deep.equal({ x: [7] }))
    expect(await textOf(page, '#error')).to.equal('')

    await page.goto(`${api()}/run`)
    await runQuery(page, '<table cols="n">5</table>')
    await page.locator('table#result tbody tr').first().waitFor()
    expect(await textOf(page, '#error')).to.equal('')

    const after = await page.locator('nav#topnav a#nav-logout').getAttribute('data-after')
    await Promise.all([page.waitForURL((u) => u.pathname === new URL(after!, page.url()).pathname), page.locator('nav#topnav a#nav-logout').click()])
    await page.locator('form#login-form').waitFor()
    await eventually(async () => expect((await asVictim('ls:json')).status, 'the logout ended the session').to.equal(403))
  })

  it('lets a header-less client save a table (the API is not only for browsers)', async () => {
    const login = await fetch(`${api()}/!login:json`, { method: 'POST', body: new URLSearchParams(VICTIM) })
    const { uid, sid, epw } = (await login.json()) as Record<string, string>
    victimCookie = `${uid}|${sid}|${epw}`
    const saved = await asVictim('run:json', {
      method: 'POST',
      body: new URLSearchParams({ xml: '<table cols="secret">43</table>', savetable: 'uploads.vic.mine', replace: '1' }),
    })
    expect(saved.status, await saved.text()).to.equal(200)
    expect(await victimTable()).to.deep.equal({ secret: [43] })
  })
})
