/**
 * The "Download as" menu: links to the whole current result (not the page shown) in CSV,
 * Parquet, Arrow and JSON, read from the kept result's `!data` with the full row range.
 */
import { expect } from 'chai'
import { tableFromIPC } from 'apache-arrow'
import { parquetReadObjects } from 'hyparquet'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { expectRowInfo, linkTarget, openWorkbench, pageInstance, rowInfoText, runQuery } from './pages.js'
import { useWorkbench } from './workbench.js'

const ROWS = 3000
const ITEMS = '<base table="pub.demo.retail.item"/>\n<colord cols="trans,store,sales"/>'

describe('browser: downloading the whole result', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it('links CSV, Parquet, Arrow and JSON to the whole kept result, and the JSON is all of it', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    await page.locator('button#next').click()
    await expectRowInfo(page, rowInfoText(51, 100, ROWS))
    const tag = await pageInstance(page)

    await page.locator('details#download summary').click()
    await page.locator('a#download-json').waitFor({ state: 'visible' })
    await screenshot(page, 'result-download-menu')
    for (const format of ['csv', 'parquet', 'arrow', 'json']) {
      const url = new URL(await linkTarget(page, `a#download-${format}`))
      // The whole result whatever page is shown: rows 0 to the row count.
      expect(url.pathname + url.search, format).to.equal(`/v1/api/${tag}/!data:${format}?range_=0&to_=${ROWS}`)
      expect(await page.locator(`a#download-${format}`).getAttribute('download')).to.equal(`instance-${tag}.${format}`)
    }

    // The JSON file is what the API answers for the whole result: every row, raw values.
    const res = await page.request.get(await linkTarget(page, 'a#download-json'))
    expect(res.status()).to.equal(200)
    const file = (await res.json()) as Record<string, unknown[]>
    const api = await bench().json<Record<string, unknown[]>>(`${tag}/!data:json`)
    expect(file.trans).to.have.length(ROWS)
    expect(file).to.deep.equal(api)
  })

  browser.it('the CSV, Arrow and Parquet files hold every row of the result', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await runQuery(page, ITEMS)
    await expectRowInfo(page, rowInfoText(1, 50, ROWS))
    const tag = await pageInstance(page)
    const trans = (await bench().json<{ trans: number[] }>(`${tag}/!data:json`)).trans
    const fetchLink = async (format: string) => {
      const res = await page.request.get(await linkTarget(page, `a#download-${format}`))
      return { status: res.status(), body: await res.body() }
    }
    const csv = await fetchLink('csv')
    expect(csv.status, csv.body.toString('utf8')).to.equal(200)
    const lines = csv.body.toString('utf8').trimEnd().split(/\r?\n/)
    expect(lines).to.have.length(ROWS + 1)
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).to.deep.equal(trans)

    const arrow = await fetchLink('arrow')
    expect(arrow.status).to.equal(200)
    const table = tableFromIPC(arrow.body)
    expect(table.numRows).to.equal(ROWS)
    expect(Array.from(table.getChild('trans')!.toArray(), Number)).to.deep.equal(trans)

    const parquet = await fetchLink('parquet')
    expect(parquet.status).to.equal(200)
    const file = parquet.body.buffer.slice(parquet.body.byteOffset, parquet.body.byteOffset + parquet.body.byteLength) as ArrayBuffer
    const rows = await parquetReadObjects({ file })
    expect(rows.map((r) => Number(r.trans))).to.deep.equal(trans)
  })
})
