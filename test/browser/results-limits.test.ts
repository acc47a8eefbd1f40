/**
 * How a query that does not give a whole result shows: a stopped query as a neutral notice (not
 * the red error box), and a result over the row limit with the API's message and a button that
 * runs it again with `truncate_=1`, showing the first rows marked as truncated.
 */
import { expect } from 'chai'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { eventually, expectIdleWithoutError, expectRowInfo, openWorkbench, pageInstance, rowInfoText, runQuery, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/** DEMO_ROWS of this service, over its MAX_RESULT_ROWS. */
const ROWS = 3000
const LIMIT = 2000
const ITEMS = '<base table="pub.demo.retail.item"/>\n<colord cols="trans,store,sales"/>'

describe('browser: stopped and truncated results', function () {
  const bench = useWorkbench({ MAX_RESULT_ROWS: String(LIMIT) })
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it('shows a stopped query as a notice, not as an error', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await runQuery(page, 'with recursive c(x) as (select 1 union all select x+1 from c where x < 1000000000) select count(*) from c')
    const stop = page.locator('button#stop')
    await eventually(async () => expect(await stop.isEnabled(), '#stop enabled while running').to.equal(true))
    await page.waitForTimeout(500)
    await stop.click()
    await eventually(async () => expect(await textOf(page, '#notice')).to.match(/^Stopped: .*stopped/i))
    expect(await textOf(page, '#error')).to.equal('')
    expect(await page.locator('#notice').getAttribute('role')).to.equal('status')
    expect(await page.locator('#notice').getAttribute('data-kind')).to.equal('stopped')
    expect(await page.locator('section#result-box').isHidden()).to.equal(true)
    await screenshot(page, 'result-stopped')
  })

  browser.it('offers the truncated view of a result over the row limit and marks it truncated', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    // The API's own message, which names truncate_.
    await eventually(async () => expect(await textOf(page, '#error')).to.match(/more than 2000 \(MAX_RESULT_ROWS\).*truncate_=1/))
    const offer = page.locator('button#run-truncated')
    await offer.waitFor()
    await screenshot(page, 'result-too-large')

    await offer.click()
    await expectRowInfo(page, rowInfoText(1, 50, LIMIT))
    await expectIdleWithoutError(page)
    const n = (x: number) => x.toLocaleString('en-US')
    expect(await textOf(page, '#notice')).to.equal(`Truncated: showing the first ${n(LIMIT)} of ${n(ROWS)} rows; the rest is over the service's result limit.`)
    expect(await page.locator('#notice').getAttribute('data-kind')).to.equal('truncated')
    // The instance keeps the cut result, as the API says.
    const tag = await pageInstance(page)
    expect(await bench().json<number>(`${tag}/!rows:json`)).to.equal(LIMIT)
    await screenshot(page, 'result-truncated')

    // Sorting a truncated result sorts the whole query, then cuts it: still marked truncated.
    await page.locator('table#result thead th[title="sales"] button').click()
    await eventually(async () => expect(await page.locator('table#result thead th[title="sales"]').getAttribute('aria-sort')).to.equal('ascending'))
    await expectIdleWithoutError(page)
    expect(await textOf(page, '#notice')).to.match(/^Truncated: showing the first 2,000 of 3,000 rows/)
    const sales = (await bench().json<{ sales: number[] }>(`${tag}/!data:json`)).sales
    expect(sales).to.have.length(LIMIT)
    expect(sales).to.deep.equal([...sales].sort((a, b) => a - b))
  })
})
