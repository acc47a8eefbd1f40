/**
 * Sorting a result by clicking a column header: the whole result is in that order (every page,
 * not just the one shown), a second click reverses it, the header says so (aria-sort and an
 * arrow), and the cells keep their display formats.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import {
  cellNumber,
  eventually,
  expectIdleWithoutError,
  expectRowInfo,
  openWorkbench,
  pageInstance,
  rowInfoText,
  runQuery,
  shownTable,
  textOf,
} from './pages.js'
import { useWorkbench } from './workbench.js'

const ROWS = 3000
const ITEMS = '<base table="pub.demo.retail.item"/>\n<colord cols="trans,store,sales"/>'

type Rows = { cols: string[]; rows: (string | number | null)[][] }

/** Ascending by number, N/A (null) first as the engine orders it. */
const ascending = (a: number | null, b: number | null): number => (a === null ? (b === null ? 0 : -1) : b === null ? 1 : a - b)

describe('browser: sorting a result by a column header', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  const header = (page: Page, label: string) => page.locator('table#result thead th').filter({ hasText: label })

  /** The whole result the page pages through, raw, from the API. */
  async function whole(page: Page, from: string, to: string): Promise<Rows> {
    return bench().json<Rows>(`${await pageInstance(page)}/!data:json.rows?${from}=0&${to}=100000`)
  }

  browser.it('sorts a macro result by sales over every page, then reverses it, marking the header', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const unsorted = await whole(page, 'range_', 'to_')
    const salesAt = unsorted.cols.indexOf('sales')
    const expected = unsorted.rows.map((r) => r[salesAt] as number | null).sort(ascending)
    expect(await header(page, 'sales').getAttribute('aria-sort')).to.equal('none')

    await header(page, 'sales').locator('button').click()
    await eventually(async () => expect(await header(page, 'sales').getAttribute('aria-sort')).to.equal('ascending'))
    await expectIdleWithoutError(page)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    // The whole kept result is sorted: the same values as before, in order.
    const sorted = await whole(page, 'range_', 'to_')
    expect(sorted.rows.map((r) => r[salesAt])).to.deep.equal(expected)
    // What the page shows is that result's first page, in its display format (money: 2 decimals).
    const shown = await shownTable(page)
    expect(shown.rows).to.have.length(50)
    shown.rows.forEach((r, i) => expect(cellNumber(r[salesAt]), `row ${i + 1}`).to.be.closeTo(expected[i]!, 0.0051))
    expect(shown.rows[0][salesAt]).to.match(/\.\d\d$/)
    expect(await textOf(page, 'table#result thead th[aria-sort="ascending"] .sort-arrow')).to.equal('▲')
    // The last page is the largest values: the order covers every page.
    await page.locator('button#last').click()
    await expectRowInfo(page, rowInfoText(ROWS - 49, ROWS, ROWS))
    const last = await shownTable(page)
    expect(cellNumber(last.rows.at(-1)![salesAt])).to.be.closeTo(expected.at(-1)!, 0.005)
    await screenshot(page, 'result-sorted')

    await header(page, 'sales').locator('button').click()
    await eventually(async () => expect(await header(page, 'sales').getAttribute('aria-sort')).to.equal('descending'))
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const reversed = await whole(page, 'range_', 'to_')
    expect(reversed.rows.map((r) => r[salesAt])).to.deep.equal([...expected].reverse())
    expect(await header(page, 'trans').getAttribute('aria-sort')).to.equal('none')
    // Keyboard focus is back on the header that was clicked.
    await eventually(async () =>
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { closest(s: string): { title: string } | null } | null } }).document.activeElement?.closest(
              'th',
            )?.title,
        ),
      ).to.equal('sales'),
    )
    // The editor still holds the query as typed: the order is the view's, not the text's.
    expect(await page.locator('textarea#query').inputValue()).to.equal(ITEMS)
  })

  browser.it('sorts an SQL result by a column even when the query ends in a comment and a semicolon', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await runQuery(page, 'select store, count(*) as n from pub.demo.retail.item group by store; -- per store')
    await eventually(async () => expect(await textOf(page, '#rowinfo')).to.match(/^rows 1\u201350 of \d+$/))
    const unsorted = await whole(page, 'range', 'to')
    const counts = unsorted.rows.map((r) => r[1] as number)

    await header(page, 'n').locator('button').click()
    await eventually(async () => expect(await header(page, 'n').getAttribute('aria-sort')).to.equal('ascending'))
    await expectIdleWithoutError(page)
    expect((await whole(page, 'range', 'to')).rows.map((r) => r[1])).to.deep.equal([...counts].sort((a, b) => a - b))
    await header(page, 'n').locator('button').click()
    await eventually(async () => expect(await header(page, 'n').getAttribute('aria-sort')).to.equal('descending'))
    await expectIdleWithoutError(page)
    const desc = await whole(page, 'range', 'to')
    expect(desc.rows.map((r) => r[1])).to.deep.equal([...counts].sort((a, b) => b - a))
    // The page shows the first rows of that order.
    const shown = await shownTable(page)
    expect(shown.rows.map((r) => r.map(cellNumber))).to.deep.equal(desc.rows.slice(0, 50))
  })
})
