/**
 * The users page (api/dbm/users): an administrator lists users, adds one (with a password or a
 * generated one), resets a password and deactivates and activates a user, each checked through
 * the API afterwards (the user exists, the password logs in or not). A user without
 * manage_users sees only their own account, changes their own password, and a forged add_user in
 * their session is refused.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { addUser, dbmAs, loginStatus, logInAs, useSession } from './admin-session.js'
import { eventually, openWorkbench, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/** The user ids in the page's users table. */
const listedUids = (page: Page): Promise<string[]> =>
  page.locator('table#users tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { uid?: string } }).dataset.uid ?? ''))

const row = (page: Page, uid: string) => page.locator(`table#users tbody tr[data-uid="${uid}"]`)

describe('browser: administration, users', function () {
  const bench = useWorkbench()

  describe('as an administrator', function () {
    const browser = useBrowser((context) => bench().logIn(context))

    before(async function () {
      await addUser(bench(), 'dora', 'dora-secret-1')
    })

    browser.it('lists the users list_users answers, and the Admin entry leads there', async (page) => {
      await openWorkbench(page, `${bench().api}/run`)
      await page.locator('#nav-admin').click()
      await page.locator('table#users tbody tr').first().waitFor()
      expect(new URL(page.url()).pathname).to.equal('/v1/api/dbm/users')
      const api = await bench().dbm<{ uid: string[] }>('list_users', {})
      await eventually(async () => expect((await listedUids(page)).sort()).to.deep.equal([...api.uid].sort()))
      expect(await textOf(page, `table#users tr[data-uid="dora"]`)).to.contain('dora@example.com')
      // Your own account, from get_user.
      await eventually(async () => expect(await textOf(page, '#my-account')).to.contain('admin'))
    })

    it('leaves api/dbm itself to the API: GET is still refused, and the pages are HTML only', async function () {
      expect((await bench().fetch('dbm')).status, 'GET api/dbm').to.equal(405)
      const page = await bench().fetch('dbm/users')
      expect(page.status).to.equal(200)
      expect(page.headers.get('content-type')).to.match(/^text\/html/)
      expect((await bench().fetch('dbm/users:json')).status, 'api/dbm/users:json').to.not.equal(200)
      expect((await bench().fetch('dbm/nothing')).status, 'another name under api/dbm').to.not.equal(200)
    })

    browser.it('adds a user with a password, who then exists and can log in', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await page.locator('#new-roles input[value="folder_creator"]').waitFor()
      await page.fill('#new-uid', 'erin')
      await page.fill('#new-first', 'Erin')
      await page.fill('#new-last', 'Example')
      await page.fill('#new-email', 'erin@example.com')
      await page.fill('#new-password', 'erin-secret-1')
      await page.check('#new-roles input[value="folder_creator"]')
      await page.click('#add-user')
      await row(page, 'erin').waitFor()
      expect(await textOf(page, '#added-uid')).to.equal('erin')
      expect(await page.locator('#generated').isHidden(), 'no generated password').to.equal(true)
      const erin = await bench().dbm<{ uid: string; email: string; roles: string[]; active: boolean; company: string }>('get_user', { uid: 'erin' })
      expect(erin).to.include({ uid: 'erin', email: 'erin@example.com', active: true, company: 'main' })
      expect(erin.roles).to.deep.equal(['folder_creator'])
      expect(await loginStatus(bench(), 'erin', 'erin-secret-1')).to.equal(200)
      await screenshot(page, 'admin-users')
    })

    browser.it('adds a user without a password and shows the generated one once, which logs in', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await page.fill('#new-uid', 'fred')
      await page.fill('#new-first', 'Fred')
      await page.fill('#new-last', 'Example')
      await page.fill('#new-email', 'fred@example.com')
      await page.click('#add-user')
      await page.locator('#generated-password').waitFor()
      const generated = await textOf(page, '#generated-password')
      expect(generated).to.have.length.of.at.least(6)
      expect(await loginStatus(bench(), 'fred', generated)).to.equal(200)
    })

    browser.it("shows the API's refusal of a bad user, and adds nothing", async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await page.fill('#new-uid', 'dora')
      await page.fill('#new-first', 'Another')
      await page.fill('#new-last', 'Dora')
      await page.fill('#new-email', 'dora2@example.com')
      await page.click('#add-user')
      await eventually(async () => expect(await textOf(page, '#error')).to.contain('User id "dora" already in use'))
      const dora = await bench().dbm<{ email: string }>('get_user', { uid: 'dora' })
      expect(dora.email).to.equal('dora@example.com')
    })

    browser.it("resets a user's password: the new one logs in, the old one no longer does", async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await row(page, 'dora').locator('button.reset').click()
      expect(await page.inputValue('#reset-uid')).to.equal('dora')
      await page.fill('#reset-password', 'dora-new-pass-2')
      await page.click('#reset-submit')
      await eventually(async () => expect(await textOf(page, '#status')).to.contain('dora was reset'))
      expect(await loginStatus(bench(), 'dora', 'dora-new-pass-2')).to.equal(200)
      expect(await loginStatus(bench(), 'dora', 'dora-secret-1')).to.equal(401)
    })

    browser.it('deactivates a user, who can no longer log in, and activates them again', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await row(page, 'erin').locator('button.deactivate').click()
      await row(page, 'erin').locator('button.activate').waitFor()
      expect(await textOf(page, `table#users tr[data-uid="erin"] td.state-off`)).to.equal('deactivated')
      expect((await bench().dbm<{ active: boolean }>('get_user', { uid: 'erin' })).active).to.equal(false)
      expect(await loginStatus(bench(), 'erin', 'erin-secret-1')).to.equal(401)

      await row(page, 'erin').locator('button.activate').click()
      await row(page, 'erin').locator('button.deactivate').waitFor()
      expect(await loginStatus(bench(), 'erin', 'erin-secret-1')).to.equal(200)
      // Nobody is offered to deactivate themselves.
      expect(await row(page, 'admin').locator('button.deactivate').count()).to.equal(0)
    })
  })

  describe('as a user without manage_users', function () {
    const browser = useBrowser()
    let session = ''

    before(async function () {
      await addUser(bench(), 'gina', 'gina-secret-1')
    })

    beforeEach(async function () {
      session = await logInAs(bench(), 'gina', 'gina-secret-1')
      await useSession(bench(), browser.context, session)
    })

    browser.it('sees only their own account, with no user administration, and the API refuses a forged add_user', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await eventually(async () => expect(await textOf(page, '#my-account')).to.contain('gina@example.com'))
      expect(await textOf(page, 'h1')).to.equal('Your account')
      expect(await page.locator('#nav-admin').count(), 'the Admin entry').to.equal(1)
      for (const id of ['#users-admin', 'table#users', '#add-user-form', '#reset-form']) expect(await page.locator(id).count(), id).to.equal(0)
      const forged = await dbmAs(bench(), session, 'add_user', { uid: 'mallory', first: 'M', last: 'X', email: 'm@example.com' })
      expect(forged.rc).to.equal(1)
      expect(forged.code).to.equal('forbidden')
      expect(await loginStatus(bench(), 'mallory', 'whatever1')).to.equal(401)
      const reset = await dbmAs(bench(), session, 'set_password', { uid: 'admin', new_password: 'taken-over-1' })
      expect(reset.rc).to.equal(1)
    })

    browser.it('changes their own password with the old one', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await page.fill('#old-password', 'wrong-password')
      await page.fill('#own-new-password', 'gina-secret-2')
      await page.click('#change-own-password')
      await eventually(async () => expect(await textOf(page, '#error')).to.contain('Wrong password'))
      await page.fill('#old-password', 'gina-secret-1')
      await page.fill('#own-new-password', 'gina-secret-2')
      await page.click('#change-own-password')
      await eventually(async () => expect(await textOf(page, '#status')).to.contain('Your password was changed'))
      expect(await textOf(page, '#error')).to.equal('')
      expect(await loginStatus(bench(), 'gina', 'gina-secret-1')).to.equal(401)
      expect(await loginStatus(bench(), 'gina', 'gina-secret-2')).to.equal(200)
      await bench().dbm('set_password', { uid: 'gina', new_password: 'gina-secret-1' })
    })
  })

  describe('as a company user manager (user_admin)', function () {
    const browser = useBrowser()
    let session = ''

    before(async function () {
      await bench().dbm('add_company', { company: 'acme', name: 'Acme' })
      await addUser(bench(), 'ivan', 'ivan-secret-1', { company: 'acme' })
      await addUser(bench(), 'hank', 'hank-secret-1', { roles: ['user_admin'] })
      await addUser(bench(), 'ivy', 'ivy-secret-1')
    })

    beforeEach(async function () {
      session = await logInAs(bench(), 'hank', 'hank-secret-1')
      await useSession(bench(), browser.context, session)
    })

    browser.it('sees the users of their company, may change only those with no more rights, and grants only their own roles', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/users`)
      await row(page, 'ivy').locator('button.deactivate').waitFor()
      const theirs = await dbmAs<{ uid: string[] }>(bench(), session, 'list_users', {})
      expect((await listedUids(page)).sort()).to.deep.equal([...theirs.value!.uid].sort())
      expect(await listedUids(page))
        .to.include('admin')
        .and.not.include('ivan')
      // The administrator holds capabilities hank lacks: no action offered, and the API refuses the forged one.
      expect(await row(page, 'admin').locator('button').count(), 'buttons on the admin row').to.equal(0)
      const forged = await dbmAs(bench(), session, 'deactivate_user', { uid: 'admin' })
      expect(forged.rc).to.equal(1)
      expect(forged.code).to.equal('forbidden')
      expect((await dbmAs(bench(), session, 'add_user', { uid: 'x_acme', first: 'X', last: 'Y', email: 'x@example.com', company: 'acme' })).rc).to.equal(1)
      const offered = await page.locator('#new-roles input[name="role"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))
      expect(offered).to.deep.equal(['user_admin'])
      expect(await page.locator('#new-company').getAttribute('readonly')).to.not.equal(null)

      await row(page, 'ivy').locator('button.deactivate').click()
      await row(page, 'ivy').locator('button.activate').waitFor()
      expect(await loginStatus(bench(), 'ivy', 'ivy-secret-1')).to.equal(401)
    })
  })
})
