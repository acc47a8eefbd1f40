/**
 * The query pages (api/run, api/sql) in a browser: running a query, the result table and its
 * formats, paging, the format links, and a hostile cell that must stay text.
 */
import { expect } from 'chai'
import { useBrowser } from '../helpers/browser.js'
import {
  cellNumber,
  eventually,
  expectIdleWithoutError,
  expectRowInfo,
  linkTarget,
  openWorkbench,
  pageInstance,
  polledInstance,
  rowInfoText,
  runQuery,
  shownTable,
  textOf,
} from './pages.js'
import { useWorkbench } from './workbench.js'

/** DEMO_ROWS of the workbench service: 60 pages of 50. */
const ROWS = 3000

const ITEMS = '<base table="pub.demo.retail.item"/>\n<colord cols="trans,store,payment"/>'
const STORE_COUNTS = 'select store, count(*) as n from pub.demo.retail.item group by store order by n desc, store'

type Rows = { cols: string[]; rows: (string | number | null)[][] }
type Cols = { name: string[]; label: string[]; format?: string[] }

describe('browser: query pages', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  /** The API's rows [from, to) of the result the page shows (in the page's own run instance). */
  const runRows = async (page: import('playwright-core').Page, from: number, to: number) =>
    bench().json<Rows>(`${await pageInstance(page)}/!data:json.rows?range_=${from}&to_=${to}`)
  const asText = (rows: Rows['rows']) => rows.map((r) => r.map((v) => (v === null ? '' : String(v))))

  browser.it('runs a macro query with the Run button and shows its labels and first 50 rows', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    expect(await page.locator('button#stop').isDisabled(), 'nothing runs yet').to.equal(true)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    await expectIdleWithoutError(page)

    const shown = await shownTable(page)
    const tag = await pageInstance(page)
    const cols = await bench().json<Cols>(`${tag}/!cols:json`)
    expect(shown.head).to.deep.equal(cols.label)
    // The cells are the server's own display text of each value (values_=formatted).
    expect(shown.rows).to.deep.equal(asText((await bench().json<Rows>(`${tag}/!data:json.rows?range_=0&to_=50&values_=formatted`)).rows))
    // Numbers right, text left.
    const align = (c: number) =>
      page
        .locator('table#result tbody tr')
        .first()
        .locator('td')
        .nth(c)
        .evaluate((td) => (globalThis as unknown as { getComputedStyle(e: unknown): { textAlign: string } }).getComputedStyle(td).textAlign)
    expect(await align(1), 'store').to.equal('right')
    expect(await align(2), 'payment').to.not.equal('right')
    const progress = page.locator('progress#progress')
    expect(await progress.count()).to.equal(1)
  })

  browser.it('applies column formats: currency with two decimals, dates as dates', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, '<base table="pub.demo.retail.item"/>\n<colord cols="trans,date,sales"/>')
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const shown = await shownTable(page)
    const api = (await runRows(page, 0, 50)).rows
    for (let r = 0; r < 5; r++) {
      const [, date, sales] = shown.rows[r]
      const [, rawDate, rawSales] = api[r] as [number, number, number]
      // A date as its type:date format shows it (mm/dd/yy), not the stored yyyymmdd number.
      const [yyyy, mm, dd] = [String(rawDate).slice(0, 4), String(rawDate).slice(4, 6), String(rawDate).slice(6, 8)]
      expect(date, 'date cell').to.equal(`${mm}/${dd}/${yyyy.slice(2)}`)
      // Money: exactly two decimals, and the amount itself.
      expect(sales, 'sales cell').to.match(/\.\d\d$/)
      expect(cellNumber(sales)).to.be.closeTo(rawSales, 0.005)
    }
  })

  browser.it('runs a SQL query with Ctrl+Enter', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await runQuery(page, STORE_COUNTS, 'keys')
    await eventually(async () => expect(await textOf(page, '#rowinfo')).to.match(/^rows 1\u201350 of \d+$/))
    await expectIdleWithoutError(page)
    // Stores without a sale in the small demo have no group: the API says how many there are.
    const tag = await pageInstance(page)
    const total = await bench().json<number>(`${tag}/!rows:json`)
    expect(await textOf(page, '#rowinfo')).to.equal(rowInfoText(1, 50, total))
    const shown = await shownTable(page)
    expect(shown.head).to.deep.equal(['store', 'n'])
    const api = await bench().json<Rows>(`${tag}/!data:json.rows?range=0&to=50`)
    expect(shown.rows.map((r) => r.map(cellNumber))).to.deep.equal(api.rows)
    expect(api.rows.reduce((sum, r) => sum + (r[1] as number), 0)).to.be.greaterThan(0)
  })

  browser.it('shows the error of a failing query in #error', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await runQuery(page, 'select nosuchcolumn from pub.demo.retail.item')
    await eventually(async () => expect(await textOf(page, '#error')).to.match(/nosuchcolumn/))
    expect(await page.locator('button#stop').isDisabled()).to.equal(true)
  })

  browser.it('shows an SQL query as indeterminate with a running clock, and stops it with the Stop button', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    // Counting to a billion in SQLite: it runs until stopped, whatever the data.
    await runQuery(page, 'with recursive c(x) as (select 1 union all select x+1 from c where x < 1000000000) select count(*) from c')
    const stop = page.locator('button#stop')
    await eventually(async () => expect(await stop.isEnabled(), '#stop enabled while running').to.equal(true))
    const clock = await textOf(page, '#elapsed')
    // Two status polls later: SQL has no done/total, so the bar has no value, and the clock moved.
    await page.waitForTimeout(1_000)
    const position = await page.locator('progress#progress').evaluate((el) => (el as unknown as { position: number }).position)
    expect(position, 'indeterminate progress').to.equal(-1)
    expect(await textOf(page, '#elapsed')).to.not.equal(clock)
    // The page runs in an instance of its own: the API's api/new answered its tag before the query ran.
    const tag = await polledInstance(page)
    expect((await bench().json<{ running: boolean; fraction: null }>(`${tag}/!status:json`)).running).to.equal(true)
    await stop.click()
    // A stop is shown as a neutral notice, not as an error.
    await eventually(async () => expect(await textOf(page, '#notice')).to.match(/stopped/i))
    expect(await textOf(page, '#error')).to.equal('')
    await eventually(async () => expect(await stop.isDisabled()).to.equal(true))
    // The worker was freed, not left counting.
    await eventually(async () => expect((await bench().json<{ running: boolean }>(`${tag}/!status:json`)).running).to.equal(false))
  })

  browser.it('pages through a result with next, last, prev and first', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const check = async (from: number, to: number) => {
      await expectRowInfo(page, rowInfoText(from + 1, to, ROWS))
      const shown = await shownTable(page)
      expect(shown.rows, `rows ${from}..${to}`).to.deep.equal(asText((await runRows(page, from, to)).rows))
    }
    await page.locator('button#next').click()
    await check(50, 100)
    await page.locator('button#next').click()
    await check(100, 150)
    await page.locator('button#last').click()
    await check(ROWS - 50, ROWS)
    await page.locator('button#prev').click()
    await check(ROWS - 100, ROWS - 50)
    await page.locator('button#first').click()
    await check(0, 50)
  })

  browser.it('opens the text and JSON links of the current page and finds the same rows', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    await page.locator('button#next').click()
    await expectRowInfo(page, rowInfoText(51, 100, ROWS))
    const shown = await shownTable(page)
    const trans = shown.rows.map((r) => Number(r[0]))
    const tab = await page.context().newPage()

    const textUrl = await linkTarget(page, 'a#link-text')
    expect(textUrl).to.match(/!data:text\?/)
    const text = await tab.goto(textUrl)
    expect(text?.status()).to.equal(200)
    const lines = (await tab.locator('body').innerText()).split('\n').filter((l) => /^\s*\d/.test(l))
    expect(
      lines.map((l) => Number(l.trim().split(/\s+/)[0])),
      'text link',
    ).to.deep.equal(trans)

    const json = async (selector: string, suffix: string) => {
      const url = await linkTarget(page, selector)
      expect(url, selector).to.contain(`!data:${suffix}?`)
      const res = await tab.goto(url)
      expect(res?.status(), url).to.equal(200)
      return res!.json()
    }
    expect((await json('a#link-json', 'json')).trans, 'json link').to.deep.equal(trans)
    const rows = (await json('a#link-json-rows', 'json.rows')) as Rows
    expect(rows.cols).to.deep.equal(['trans', 'store', 'payment'])
    expect(asText(rows.rows), 'json.rows link').to.deep.equal(shown.rows)
    const keyed = (await json('a#link-json-keyed', 'json.keyed')) as { trans: number }[]
    expect(
      keyed.map((k) => k.trans),
      'json.keyed link',
    ).to.deep.equal(trans)
    await tab.close()
  })

  describe('a hostile cell', () => {
    const HOSTILE = ['<script>alert(1)</script>', '<img src=x onerror="alert(2)">', '"><svg onload=alert(3)>']

    before(async function () {
      await bench().dbm('upload_table', {
        path: 'uploads.admin.hostile',
        cols: [
          { name: 'note', type: 'text', label: '<b onmouseover="alert(4)">note</b>' },
          { name: 'n', type: 'int' },
        ],
        data: { note: HOSTILE, n: [1, 2, 3] },
      })
    })

    for (const [app, query] of [
      ['run', '<base table="uploads.admin.hostile"/>'],
      ['sql', 'select note, n from "uploads.admin.hostile"'],
    ] as const) {
      browser.it(`renders <script>alert(1)</script> in a ${app} result as text: no dialog, no new element`, async (page) => {
        await openWorkbench(page, `${bench().api}/${app}`)
        const scripts = await page.locator('script').count()
        await runQuery(page, query)
        await expectRowInfo(page, rowInfoText(1, 3, 3))
        const shown = await shownTable(page)
        expect(shown.rows.map((r) => r[0])).to.deep.equal(HOSTILE)
        if (app === 'run') expect(shown.head[0]).to.equal('<b onmouseover="alert(4)">note</b>')
        expect(await page.locator('script').count(), 'script elements').to.equal(scripts)
        expect(await page.locator('table#result script, table#result img, table#result svg, table#result b').count()).to.equal(0)
        await page.locator('table#result thead th').first().hover()
        // A dialog would have been recorded by the fixture (and fails the test there); give a
        // late onerror or onload the chance to fire first.
        await page.waitForTimeout(300)
        expect(browser.problems).to.deep.equal([])
      })
    }
  })
})
