/**
 * Logging in through the page a browser gets without a session, logging out, and what every
 * workbench page is made of: HTML5 under a strict Content-Security-Policy, with assets only from
 * the same server.
 */
import { expect } from 'chai'
import { useBrowser } from '../helpers/browser.js'
import { eventually, openWorkbench, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/** The policy of the UI contract, directive by directive. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]

/** A user of their own, so logging in and out here never touches the admin session of other files. */
const USER = { uid: 'ann', password: 'ann-secret-1' }

describe('browser: login and page shell', function () {
  const bench = useWorkbench()
  const browser = useBrowser()

  before(async function () {
    await bench().dbm('add_user', { uid: USER.uid, first: 'Ann', last: 'Test', email: 'ann@example.com', password: USER.password })
  })

  browser.it('answers a page without a session with 403 and a login form, and shows a wrong password in #login-error', async (page) => {
    const res = await page.goto(`${bench().api}/run`)
    expect(res?.status()).to.equal(403)
    await page.locator('form#login-form').waitFor()
    expect(await page.locator('input#pw').getAttribute('type')).to.equal('password')
    expect(await textOf(page, '#login-error')).to.equal('')

    await page.locator('input#uid').fill(USER.uid)
    await page.locator('input#pw').fill('not-the-password')
    await page.locator('button#login-submit').click()
    await eventually(async () => expect(await textOf(page, '#login-error')).to.not.equal(''))
    expect(await page.locator('#whoami').count(), 'still logged out').to.equal(0)
    expect(await page.locator('form#login-form').isVisible()).to.equal(true)
  })

  browser.it('logs in with the right password, reloads the same page with #whoami, and logs out', async (page) => {
    const url = `${bench().api}/sql`
    expect((await page.goto(url))?.status()).to.equal(403)
    await page.locator('input#uid').fill(USER.uid)
    await page.locator('input#pw').fill(USER.password)
    await page.locator('button#login-submit').click()
    await page.locator('#whoami').waitFor()
    expect(await textOf(page, '#whoami')).to.contain(USER.uid)
    expect(page.url()).to.equal(url)
    expect(await page.locator('textarea#query').count(), 'the SQL page itself').to.equal(1)

    // The navigation leads to the other pages of the workbench.
    for (const [id, path] of [
      ['nav-run', '/api/run'],
      ['nav-sql', '/api/sql'],
      ['nav-new', '/api/new'],
      ['nav-ls', '/api/ls'],
    ]) {
      const href = await page.locator(`nav#topnav a#${id}`).getAttribute('href')
      expect(new URL(href!, page.url()).pathname, id).to.equal(`/v1${path}`)
    }

    // Logging out posts !logout and then moves the page to the login form itself;
    // wait for that navigation so the next goto does not race it.
    const after = await page.locator('nav#topnav a#nav-logout').getAttribute('data-after')
    // The link posts only once the page's module scripts ran (before DOMContentLoaded); a click
    // before that follows the plain href (a CI flake of 2026-11-27 on a loaded machine).
    await page.waitForLoadState('domcontentloaded')
    await Promise.all([page.waitForURL((u) => u.pathname === new URL(after!, page.url()).pathname), page.locator('nav#topnav a#nav-logout').click()])
    await page.locator('form#login-form').waitFor()
    await eventually(async () => {
      const again = await page.context().request.get(url)
      expect(again.status(), 'the session ended').to.equal(403)
    })
    expect((await page.goto(url))?.status()).to.equal(403)
    await page.locator('form#login-form').waitFor()
  })

  browser.it('serves every workbench page as HTML5 under the strict CSP, with no inline code and nothing from elsewhere', async (page) => {
    await bench().logIn(page.context())
    const origin = bench().origin
    const foreign: string[] = []
    page.on('request', (req) => {
      const url = req.url()
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) foreign.push(url)
    })
    for (const path of ['run', 'sql', 'new', 'ls']) {
      const res = await page.goto(`${bench().api}/${path}`)
      expect(res?.status(), path).to.equal(200)
      const csp = (res!.headers()['content-security-policy'] ?? '')
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
      expect(csp, `CSP of ${path}`).to.have.members(CSP)
      expect((await res!.text()).slice(0, 15).toLowerCase()).to.equal('<!doctype html>')
      await page.locator('nav#topnav').waitFor()
      expect(await page.locator('script:not([src])').count(), `inline scripts on ${path}`).to.equal(0)
      expect(await page.locator('style').count(), `style elements on ${path}`).to.equal(0)
      for (const src of await page
        .locator('script[src], link[href]')
        .evaluateAll((els) => els.map((e) => (e as unknown as { src?: string; href?: string }).src || (e as unknown as { href: string }).href))) {
        if (src.startsWith('data:')) continue // an inline icon (img-src allows data:)
        expect(src, `asset of ${path}`).to.match(new RegExp(`^${origin}/ui/`))
      }
    }
    expect(foreign, 'requests to other servers').to.deep.equal([])
  })

  browser.it('opens the workbench pages with a session cookie and shows the user', async (page) => {
    await bench().logIn(page.context())
    await openWorkbench(page, `${bench().api}/run`)
    expect(await textOf(page, '#whoami')).to.contain('admin')
  })
})
