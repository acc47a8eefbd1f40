/**
 * Each query page runs in an instance of its own: a query run from the API in the same session
 * (api/run, api/sql: what the CLI does) does not change what the page pages through, each page
 * load gets its own instance, and when the page's kept result changes anyway (another query
 * posted to its instance) or is gone (the instance expired), the page says so instead of mixing
 * rows.
 */
import { expect } from 'chai'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { eventually, expectIdleWithoutError, expectRowInfo, openWorkbench, pageInstance, rowInfoText, runQuery, shownTable, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

const ROWS = 3000
const ITEMS = '<base table="pub.demo.retail.item"/>\n<colord cols="trans,store,payment"/>'
const STORES = '<base table="pub.demo.retail.stores"/>'

type Rows = { cols: string[]; rows: (string | number | null)[][] }
const asText = (rows: Rows['rows']) => rows.map((r) => r.map((v) => (v === null ? '' : String(v))))

const post = (body: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

describe('browser: each query page keeps its own instance', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it('a query run from the API in the same session between page loads does not change what the page pages through', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const tag = await pageInstance(page)
    const head = (await shownTable(page)).head

    // The CLI's way: the session's own api/run and api/sql, with other queries.
    await bench().json('run:json', post({ xml: STORES }))
    await bench().json('sql:json', post({ sql: 'select city from pub.demo.retail.stores' }))
    expect(await bench().json<number>('run/!rows:json')).to.not.equal(ROWS)

    await page.locator('button#next').click()
    await expectRowInfo(page, rowInfoText(51, 100, ROWS))
    const shown = await shownTable(page)
    expect(shown.head).to.deep.equal(head)
    const expected = await bench().json<Rows>(`${tag}/!data:json.rows?range_=50&to_=100&values_=formatted`)
    expect(expected.cols).to.deep.equal(['trans', 'store', 'payment'])
    expect(shown.rows).to.deep.equal(asText(expected.rows))
    await expectIdleWithoutError(page)

    // A new page load makes a new instance at its first Run; the old one still holds its result.
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, STORES)
    await eventually(async () => expect(await pageInstance(page)).to.not.equal(tag))
    expect(await bench().json<number>(`${tag}/!rows:json`)).to.equal(ROWS)
  })

  browser.it('says so when another query replaces the result in its instance, and shows no rows of it', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const tag = await pageInstance(page)
    const before = await shownTable(page)
    // Someone posts another query to the page's own instance.
    await bench().json(`${tag}:json`, post({ xml: STORES }))
    await page.locator('button#next').click()
    await eventually(async () => expect(await textOf(page, '#error')).to.match(/changed/i))
    // The page still shows the page it had, not rows of the stores under the item headers.
    expect(await shownTable(page)).to.deep.equal(before)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    await screenshot(page, 'result-changed-underneath')
  })
})

describe('browser: a query page whose instance expired', function () {
  // Instances expire when unused for SESSION_TTL; the session itself is kept alive below.
  const bench = useWorkbench({ SESSION_TTL: '6' })
  let keepAlive: NodeJS.Timeout | undefined
  before(function () {
    keepAlive = setInterval(
      () =>
        void bench()
          .fetch('ls:json')
          .catch(() => undefined),
      1000,
    )
  })
  after(() => clearInterval(keepAlive))
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it(
    'tells the user the instance is gone, and the next Run makes a new one',
    async (page) => {
      await openWorkbench(page, `${bench().api}/run`)
      await runQuery(page, ITEMS)
      await expectRowInfo(page, rowInfoText(1, 50, ROWS))
      const tag = await pageInstance(page)
      // Unused for longer than SESSION_TTL, while the session stays alive. (Any read of the
      // instance would restart its timer, so nothing looks at it meanwhile.)
      await page.waitForTimeout(8_000)
      await page.locator('button#next').click()
      await eventually(async () => expect(await textOf(page, '#error')).to.match(new RegExp(`instance this page ran in \\(/v1/api/${tag}\\) no longer exists`)))
      expect((await bench().fetch(`${tag}/!rows:json`)).status, 'the API agrees').to.equal(404)
      await runQuery(page, ITEMS)
      await expectRowInfo(page, rowInfoText(1, 50, ROWS))
      await expectIdleWithoutError(page)
      expect(await pageInstance(page)).to.not.equal(tag)
    },
    60_000,
  )
})
