/**
 * The groups page (api/dbm/groups) and the sharing page (api/dbm/sharing/{path}), reached from
 * the folder browser. Every change made on a page is checked through the API: the member is in
 * the group (get_group), and a reader can read the table while a non-reader gets the 404 of a
 * missing one. A user who may not change a group or share a table is offered no such action,
 * and the same call forged in their session is refused.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { addUser, adminDbm, dbmAs, logInAs, useSession } from './admin-session.js'
import { eventually, openWorkbench, textOf } from './pages.js'
import { useWorkbench, type Workbench } from './workbench.js'

const card = (page: Page, group: string) => page.locator(`article.group[data-group="${group}"]`)

/** The members a group's card lists. */
const shownMembers = (page: Page, group: string): Promise<string[]> =>
  card(page, group)
    .locator('ul.members li[data-member]')
    .evaluateAll((lis) => lis.map((li) => (li as unknown as { dataset: { member: string } }).dataset.member))

const members = async (bench: Workbench, group: string): Promise<string[]> => (await bench.dbm<{ users: string[] }>('get_group', { group })).users

/** The status of reading a table's rows in a session: 200, or the 404 of a table one may not read. */
async function readStatus(bench: Workbench, session: string, path: string): Promise<number> {
  const res = await fetch(`${bench.api}/${path}/!rows:json`, { headers: { Cookie: `session=${session}` } })
  await res.body?.cancel()
  return res.status
}

describe('browser: administration, groups and sharing', function () {
  const bench = useWorkbench()
  const sessions: Record<string, string> = {}

  before(async function () {
    for (const uid of ['bob', 'carl']) await addUser(bench(), uid, `${uid}-secret-1`)
    // A folder only its owner (the admin) reads, with a table in it.
    await bench().dbm('make_dir', { path: 'team', title: 'Team' })
    await bench().dbm('upload_table', { path: 'team.sales', data: { region: ['east', 'west'], amount: [10, 20] } })
  })

  /** A session for uid; logging in again ends the one before, so tests take a fresh one. */
  const sessionOf = async (uid: string): Promise<string> => (sessions[uid] = await logInAs(bench(), uid, `${uid}-secret-1`))

  describe('as an administrator', function () {
    const browser = useBrowser((context) => bench().logIn(context))

    browser.it('creates a group with members, adds and removes members, and drops a group', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/groups`)
      await page.fill('#group-name', 'analysts')
      await page.fill('#group-title', 'Analysts')
      await page.fill('#group-members', 'bob')
      await page.click('#add-group')
      await card(page, 'analysts').waitFor()
      expect(await members(bench(), 'analysts')).to.deep.equal(['bob'])

      await card(page, 'analysts').locator('form.add-member input').fill('carl')
      await card(page, 'analysts').locator('form.add-member button').click()
      await eventually(async () => expect(await shownMembers(page, 'analysts')).to.deep.equal(['bob', 'carl']))
      expect(await members(bench(), 'analysts')).to.deep.equal(['bob', 'carl'])

      await card(page, 'analysts').locator('li[data-member="bob"] button.remove-member').click()
      await eventually(async () => expect(await shownMembers(page, 'analysts')).to.deep.equal(['carl']))
      expect(await members(bench(), 'analysts')).to.deep.equal(['carl'])

      await page.fill('#group-name', 'temp')
      await page.click('#add-group')
      await card(page, 'temp').waitFor()
      const drop = card(page, 'temp').locator('button.drop-group')
      await drop.click()
      expect(await drop.textContent()).to.contain('Really drop temp?')
      await drop.click()
      await card(page, 'temp').waitFor({ state: 'detached' })
      expect((await adminDbm(bench(), 'get_group', { group: 'temp' })).rc, 'temp is gone').to.equal(1)
      await screenshot(page, 'admin-groups')
    })

    browser.it("shows the API's refusal of a member that does not exist", async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/groups`)
      await card(page, 'analysts').locator('form.add-member input').fill('nobody_here')
      await card(page, 'analysts').locator('form.add-member button').click()
      await eventually(async () => expect(await textOf(page, '#error')).to.contain('nobody_here'))
      expect(await members(bench(), 'analysts')).to.deep.equal(['carl'])
    })

    browser.it('shares a table from the folder browser: a reader can read it, a non-reader cannot', async (page) => {
      const bob = await sessionOf('bob')
      const carl = await sessionOf('carl')
      expect(await readStatus(bench(), bob, 'team.sales'), 'bob before').to.equal(404)

      await openWorkbench(page, `${bench().api}/ls/team`)
      await page.locator('a.entry[data-path="team.sales"]').click()
      await page.locator('#table-sharing').click()
      await page.waitForURL(/\/dbm\/sharing\/team\.sales$/)
      await eventually(async () => expect(await textOf(page, '#owner')).to.equal('admin'))
      expect(await page.locator('#share-form').isVisible()).to.equal(true)

      await page.fill('#reader', 'bob')
      await page.click('#add-reader')
      await page.locator('#readers li[data-member="bob"]').waitFor()
      expect(await readStatus(bench(), bob, 'team.sales'), 'bob, a reader').to.equal(200)
      expect(await readStatus(bench(), carl, 'team.sales'), 'carl, not a reader').to.equal(404)

      // A group reads for its members (carl is in analysts).
      await page.fill('#reader', 'analysts')
      await page.click('#add-reader')
      await page.locator('#readers li[data-member="analysts"]').waitFor()
      expect(await readStatus(bench(), carl, 'team.sales'), 'carl through analysts').to.equal(200)
      expect((await bench().dbm<{ users: string[] }>('get_permissions', { path: 'team.sales' })).users).to.deep.equal(['bob', 'analysts'])
      await screenshot(page, 'admin-sharing')

      await page.locator('#readers li[data-member="bob"] button.remove-reader').click()
      await page.locator('#readers li[data-member="bob"]').waitFor({ state: 'detached' })
      expect(await readStatus(bench(), bob, 'team.sales'), 'bob, no longer a reader').to.equal(404)

      await page.uncheck('#inherit')
      await eventually(async () => expect((await bench().dbm<{ inherit: number }>('get_permissions', { path: 'team.sales' })).inherit).to.equal(0))
      await eventually(async () => expect(await textOf(page, '#inherit-text')).to.contain('no'))
    })

    browser.it('shares a folder from its own page', async (page) => {
      const bob = await sessionOf('bob')
      await openWorkbench(page, `${bench().api}/ls/team`)
      await page.click('#folder-sharing')
      await page.waitForURL(/\/dbm\/sharing\/team$/)
      await page.locator('#share-form').waitFor()
      await page.fill('#reader', 'bob')
      await page.click('#add-reader')
      await page.locator('#readers li[data-member="bob"]').waitFor()
      const listing = await fetch(`${bench().api}/ls/team:json`, { headers: { Cookie: `session=${bob}` } })
      expect(listing.status, 'bob lists team').to.equal(200)
    })
  })

  describe('as a user who owns neither', function () {
    const browser = useBrowser()

    browser.it('sees a group they belong to without actions; the API refuses a forged change', async (page) => {
      const carl = await sessionOf('carl')
      await useSession(bench(), browser.context, carl)
      await openWorkbench(page, `${bench().api}/dbm/groups`)
      await card(page, 'analysts').waitFor()
      expect(await card(page, 'analysts').locator('button').count(), 'no buttons on analysts').to.equal(0)
      expect(await card(page, 'analysts').locator('form').count(), 'no forms on analysts').to.equal(0)
      const forged = await dbmAs(bench(), carl, 'set_group', { group: 'analysts', add: ['bob'] })
      expect(forged.rc).to.equal(1)
      expect(forged.code).to.equal('forbidden')
      expect(await members(bench(), 'analysts')).to.deep.equal(['carl'])

      // Every user may make a group of their own, and change it.
      await page.fill('#group-name', 'carls')
      await page.fill('#group-members', 'bob')
      await page.click('#add-group')
      await card(page, 'carls').locator('button.drop-group').waitFor()
      const carls = await bench().dbm<{ owner: string; users: string[] }>('get_group', { group: 'carls' })
      expect(carls).to.deep.include({ owner: 'carl', users: ['bob'] })
    })

    browser.it('sees who reads a table they read, with no way to change it; the API refuses a forged share', async (page) => {
      const carl = await sessionOf('carl')
      await useSession(bench(), browser.context, carl)
      await openWorkbench(page, `${bench().api}/dbm/sharing/team.sales`)
      await eventually(async () => expect(await textOf(page, '#rights')).to.equal('read'))
      expect(await page.locator('#read-only').isVisible()).to.equal(true)
      expect(await page.locator('#share-form').isVisible()).to.equal(false)
      expect(await page.locator('#readers button').count()).to.equal(0)
      const forged = await dbmAs(bench(), carl, 'share', { path: 'team.sales', add: ['carl'] })
      expect(forged.rc).to.equal(1)
      expect(forged.code).to.equal('forbidden')
      // A table they may not read is a 404 page, like a missing one.
      const bob = await sessionOf('bob')
      await useSession(bench(), browser.context, bob)
      expect((await page.goto(`${bench().api}/dbm/sharing/team.sales`))?.status()).to.equal(404)
    })
  })
})
