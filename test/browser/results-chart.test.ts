/**
 * Charts and the totals row of a small result. Both work on raw numbers read from the API while
 * the table shows formatted text, and both show numbers through the column's format: the totals
 * row is checked against the server's own grand total (a tabulation without breaks, formatted by
 * the server), the chart's caption against the API's raw values formatted by the server.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { eventually, expectIdleWithoutError, expectRowInfo, openWorkbench, pageInstance, rowInfoText, runQuery, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

const ROWS = 3000
const BY_STORE = `<base table="pub.demo.retail.item"/>
<tabu breaks="store">
  <tcol source="sales" fun="sum" name="sales" label="Sales"/>
  <tcol source="trans" fun="cnt" name="n" label="Count"/>
</tabu>`
const GRAND = `<base table="pub.demo.retail.item"/>
<tabu>
  <tcol source="sales" fun="sum" name="sales" label="Sales"/>
  <tcol source="trans" fun="cnt" name="n" label="Count"/>
</tabu>`

type Rows = { cols: string[]; rows: (string | number | null)[][] }
const post = (body: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

/** How many pixels of the chart's canvas are painted. */
const paintedPixels = (page: Page): Promise<number> =>
  page.locator('canvas#chart').evaluate((el) => {
    const canvas = el as unknown as {
      width: number
      height: number
      getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } }
    }
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height)
    let painted = 0
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++
    return painted
  })

describe('browser: charts and totals of a result', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it('shows a totals row over the whole tabulation, formatted as the server formats its own grand total', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, BY_STORE)
    await eventually(async () => expect(await textOf(page, '#rowinfo')).to.match(/^rows 1\u201350 of \d+$/))
    await expectIdleWithoutError(page)
    const tag = await pageInstance(page)
    const groups = await bench().json<number>(`${tag}/!rows:json`)
    expect(groups, 'more groups than a page: the totals are not the page’s').to.be.greaterThan(50)
    // A tabulation starts with its totals on.
    expect(await page.locator('input#totals-toggle').isChecked()).to.equal(true)
    await page.locator('tr#totals').waitFor()
    const grand = await bench().json<Rows>('run:json.rows?values_=formatted', post({ xml: GRAND }))
    const sales = grand.rows[0][grand.cols.indexOf('sales')]
    const n = grand.rows[0][grand.cols.indexOf('n')]
    expect(await textOf(page, 'tr#totals td[data-col="sales"]')).to.equal(sales)
    expect(await textOf(page, 'tr#totals td[data-col="n"]')).to.equal(n)
    expect(Number(String(n).replace(/,/g, ''))).to.equal(ROWS)
    // The break column is not summed: the row is labelled there instead.
    expect(await textOf(page, 'tr#totals th')).to.equal('Total')
    // The totals stay while paging: they are the whole result's.
    await page.locator('button#next').click()
    await expectRowInfo(page, rowInfoText(51, Math.min(100, groups), groups))
    expect(await textOf(page, 'tr#totals td[data-col="sales"]')).to.equal(sales)
    await screenshot(page, 'result-totals')
    await page.locator('input#totals-toggle').uncheck()
    expect(await page.locator('tr#totals').count()).to.equal(0)
  })

  browser.it('draws bar, line and scatter charts of raw numbers, with a caption in the column’s format', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, BY_STORE)
    await eventually(async () => expect(await textOf(page, '#rowinfo')).to.match(/^rows 1\u201350 of \d+$/))
    const tag = await pageInstance(page)
    const raw = await bench().json<Rows>(`${tag}/!data:json.rows`)
    const shown = await bench().json<Rows>(`${tag}/!data:json.rows?values_=formatted`)
    const y = raw.cols.indexOf('sales')
    const values = raw.rows.map((r) => r[y] as number)
    const min = values.indexOf(Math.min(...values))
    const max = values.indexOf(Math.max(...values))
    const labels = (await bench().json<{ label: string[] }>(`${tag}/!cols:json`)).label
    const [xLabel, yLabel] = [labels[raw.cols.indexOf('store')], labels[y]]
    expect(yLabel).to.equal('Sales')
    const caption = `${raw.rows.length} points of ${yLabel} by ${xLabel}; ${yLabel} from ${shown.rows[min][y]} to ${shown.rows[max][y]}.`

    const toggle = page.locator('button#chart-toggle')
    await toggle.waitFor()
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true')
    // x defaults to the first column, y to the first numeric column after it.
    await page.locator('select#chart-y').selectOption({ label: 'Sales' })
    await eventually(async () => expect(await textOf(page, '#chart-summary')).to.equal(caption))
    await eventually(async () => expect(await paintedPixels(page)).to.be.greaterThan(1000))
    expect(await page.locator('canvas#chart').getAttribute('aria-label')).to.equal(`bar chart of ${yLabel} by ${xLabel}, ${raw.rows.length} rows`)
    await screenshot(page, 'result-chart-bar')

    for (const kind of ['line', 'scatter'] as const) {
      await page.locator('select#chart-kind').selectOption(kind)
      await eventually(async () => expect(await page.locator('canvas#chart').getAttribute('aria-label')).to.match(new RegExp(`^${kind} chart`)))
      expect(await textOf(page, '#chart-summary')).to.equal(caption)
      await eventually(async () => expect(await paintedPixels(page)).to.be.greaterThan(1000))
      await screenshot(page, `result-chart-${kind}`)
    }
  })

  browser.it('offers no chart for a result over 1,000 rows, nor totals for a text-only result', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, '<base table="pub.demo.retail.item"/>\n<colord cols="trans,sales"/>')
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    expect(await page.locator('button#chart-toggle').isHidden()).to.equal(true)
    // Not a tabulation: totals are offered, off until asked for.
    expect(await page.locator('input#totals-toggle').isChecked()).to.equal(false)
    await runQuery(page, '<base table="pub.demo.retail.stores"/>\n<colord cols="city,region"/>')
    await page.locator('table#result thead th[title="city"]').waitFor()
    await expectIdleWithoutError(page)
    expect(await page.locator('label.totals-switch').isHidden()).to.equal(true)
    expect(await page.locator('button#chart-toggle').isHidden()).to.equal(true)
  })
})
