/**
 * Browsing the catalog in a browser: api/ls lists what the user may read, folders open by
 * clicking, a table shows its columns and first rows with paging, breadcrumbs lead back.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { useBrowser } from '../helpers/browser.js'
import { eventually, expectRowInfo, openWorkbench, rowInfoText, shownTable } from './pages.js'
import { useWorkbench } from './workbench.js'

type Rows = { cols: string[]; rows: (string | number | null)[][] }

describe('browser: browsing folders', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  const entry = (page: Page, path: string) => page.locator(`ul#entries li a.entry[data-path="${path}"]`)

  /** The entries the page lists, as kind:path. */
  async function listed(page: Page): Promise<string[]> {
    return page.locator('ul#entries li a.entry').evaluateAll((as) =>
      as.map((a) => {
        const el = a as unknown as { getAttribute(n: string): string | null }
        return `${el.getAttribute('data-kind')}:${el.getAttribute('data-path')}`
      }),
    )
  }

  browser.it('clicks pub, demo, retail and item, and shows the columns and first rows of the table', async (page) => {
    await openWorkbench(page, `${bench().api}/ls`)
    expect(await listed(page)).to.include('dir:pub')

    for (const [folder, next] of [
      ['pub', 'pub.demo'],
      ['pub.demo', 'pub.demo.retail'],
    ]) {
      await entry(page, folder).click()
      await entry(page, next).waitFor()
      expect(await listed(page), `inside ${folder}`).to.include(`dir:${next}`)
    }
    await entry(page, 'pub.demo.retail').click()
    await entry(page, 'pub.demo.retail.item').waitFor()
    expect(await listed(page)).to.include.members(['tab:pub.demo.retail.item', 'tab:pub.demo.retail.products', 'tab:pub.demo.retail.stores'])
    // Breadcrumbs name the folders on the way down.
    const crumbs = (await page.locator('nav#crumbs').textContent()) ?? ''
    for (const name of ['pub', 'demo', 'retail']) expect(crumbs).to.contain(name)

    await entry(page, 'pub.demo.retail.item').click()
    await page.locator('table#cols').waitFor()
    const cols = await bench().json<{ name: string[] }>('pub.demo.retail.item/!cols:json')
    await eventually(async () => {
      const shownCols = (await page.locator('table#cols').textContent()) ?? ''
      for (const name of cols.name) expect(shownCols, 'table#cols').to.contain(name)
    })
    await expectRowInfo(page, rowInfoText(1, 50, 3000))
    const first = await bench().json<Rows>('pub.demo.retail.item/!data:json.rows?range_=0&to_=50')
    const shown = await shownTable(page)
    expect(shown.rows).to.have.length(50)
    expect(
      shown.rows.map((r) => r[0]),
      'trans',
    ).to.deep.equal(first.rows.map((r) => String(r[0])))

    await page.locator('button#next').click()
    await expectRowInfo(page, rowInfoText(51, 100, 3000))
    const second = await bench().json<Rows>('pub.demo.retail.item/!data:json.rows?range_=50&to_=100')
    expect((await shownTable(page)).rows.map((r) => r[0])).to.deep.equal(second.rows.map((r) => String(r[0])))
  })

  browser.it('leads back up through the breadcrumbs and opens a folder by its address', async (page) => {
    await openWorkbench(page, `${bench().api}/ls/pub.demo.retail`)
    expect(await listed(page)).to.include('tab:pub.demo.retail.stores')
    // The crumb of pub.demo, found by where it leads (its text may be the name or the title).
    const hrefs = await page.locator('nav#crumbs a').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))
    const demo = hrefs.findIndex((h) => /[/.]pub\.demo\/?$/.test(decodeURIComponent(new URL(h).pathname)))
    expect(demo, `crumbs ${hrefs.join(' ')}`).to.be.at.least(0)
    await page.locator('nav#crumbs a').nth(demo).click()
    await entry(page, 'pub.demo.retail').waitFor()
    expect(await listed(page)).to.deep.equal(['dir:pub.demo.retail'])

    // A top-level folder's own address (api/{folder}) shows the same browser.
    await openWorkbench(page, `${bench().api}/pub`)
    await entry(page, 'pub.demo').waitFor()
    expect(await listed(page)).to.deep.equal(['dir:pub.demo'])
  })
})
