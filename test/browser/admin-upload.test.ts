/**
 * The upload page (api/dbm/upload): a CSV or JSON file sent in chunks (upload_begin,
 * upload_chunk…, upload_commit) with a bar that moves per chunk, checked through the API
 * afterwards (rows, types, values); a bad cell's message names the file's line; Cancel and
 * failures leave no table; a user uploads into their own folder but not into one they may not
 * write, where the API's refusal is shown.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { addUser, adminDbm, dbmAs, logInAs, useSession } from './admin-session.js'
import { eventually, openWorkbench, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

interface TableInfo {
  readonly rows: number
  readonly cols: readonly { readonly name: string; readonly type: string }[]
}

/** "id,region,amount,day" and `n` rows: int, text, float and date columns. */
function salesCsv(n: number): string {
  const lines = ['id,region,amount,day']
  for (let i = 1; i <= n; i++) lines.push(`${i},${i % 2 === 0 ? 'east' : 'west'},${(i * 1.5).toFixed(1)},2024-01-${String((i % 28) + 1).padStart(2, '0')}`)
  return `${lines.join('\n')}\n`
}

/** Picks a file for #file, as a person would with the file dialog. */
async function pickFile(page: Page, name: string, content: string | Buffer, mimeType = 'text/csv'): Promise<void> {
  await page.setInputFiles('#file', { name, mimeType, buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) })
}

/**
 * Records the bar's value whenever the detail line changes (once per chunk), in the page. Given
 * as text: it runs in the browser, whose DOM types the tests are not compiled with.
 */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.progressSeen = []
    const bar = document.getElementById('upload-bar')
    new MutationObserver(() => window.progressSeen.push(bar.value)).observe(document.getElementById('upload-detail'), { childList: true, characterData: true, subtree: true })
  })()`)
}

const progressSeen = (page: Page): Promise<number[]> => page.evaluate('window.progressSeen') as Promise<number[]>

const barValue = (page: Page): Promise<number> => page.evaluate("document.getElementById('upload-bar').value") as Promise<number>

/** Chunks of `kb` kilobytes, set under "Chunk size" as a person would. */
async function setChunkKb(page: Page, kb: number): Promise<void> {
  await page.click('details.advanced summary')
  await page.fill('#chunk-kb', String(kb))
}

describe('browser: administration, upload', function () {
  const bench = useWorkbench()

  describe('as an administrator', function () {
    const browser = useBrowser((context) => bench().logIn(context))

    before(async function () {
      await bench().dbm('make_dir', { path: 'loads', title: 'Uploads for the tests' })
    })

    browser.it('uploads a CSV in chunks with a moving bar, and links the table, which has the rows and types', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      expect(await page.inputValue('#folder')).to.equal('loads')
      expect(await page.getAttribute('#file', 'accept')).to.equal('.csv,.json,.parquet,.arrow')
      await pickFile(page, 'Sales 2024.csv', salesCsv(400))
      await eventually(async () => expect(await page.inputValue('#table-name')).to.equal('sales_2024'))
      await page.locator('#type-fields select[data-column="amount"]').waitFor()
      await setChunkKb(page, 1)
      await recordProgress(page)
      await page.click('#upload')
      await page.locator('#uploaded').waitFor()
      expect(await textOf(page, '#table-link')).to.equal('loads.sales_2024')
      expect(await textOf(page, '#uploaded-rows')).to.contain('400 rows')

      // The bar moved once per chunk: more than a few steps, each further than the one before.
      const seen = (await progressSeen(page)).filter((v) => v > 0)
      expect(seen.length, `steps ${seen.join(' ')}`).to.be.at.least(5)
      for (let i = 1; i < seen.length; i++) expect(seen[i], `step ${i}`).to.be.at.least(seen[i - 1])
      expect(seen[0]).to.be.below(0.5)
      expect(await barValue(page)).to.equal(1)

      const info = await bench().dbm<TableInfo>('get_table_info', { path: 'loads.sales_2024', include: ['rows', 'cols'] })
      expect(info.rows).to.equal(400)
      expect(info.cols.map((c) => `${c.name}:${c.type}`)).to.deep.equal(['id:int', 'region:text', 'amount:float', 'day:date'])
      const data = await bench().json<{ rows: unknown[][] }>('loads.sales_2024/!data:json.rows?range_=398&to_=400')
      // Every cell, the date too: 2024-01-08 in the file is the date 20240108 (yyyymmdd), not
      // text and not a day number.
      expect(data.rows).to.deep.equal([
        [399, 'west', 598.5, 20240108],
        [400, 'east', 600, 20240109],
      ])
      await screenshot(page, 'admin-upload')

      await page.click('#table-link')
      await page.waitForURL(/\/ls\/loads#loads\.sales_2024$/)
      await eventually(async () => expect(await textOf(page, '#table-title')).to.equal('loads.sales_2024'))
    })

    browser.it("shows a bad cell's message with the line of the file, and saves nothing", async (page) => {
      const lines = ['id,code']
      for (let i = 1; i <= 300; i++) lines.push(`${i},${i === 249 ? 'abc' : i * 10}`)
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      await pickFile(page, 'codes.csv', `${lines.join('\n')}\n`)
      await page.selectOption('#type-fields select[data-column="code"]', 'int')
      await setChunkKb(page, 1)
      await page.click('#upload')
      // Line 250 of the file: the header is line 1, row 249 is line 250.
      await eventually(async () => expect(await textOf(page, '#error')).to.contain('line 250 of codes.csv'))
      const message = await textOf(page, '#error')
      expect(message).to.contain('column "code"').and.contain('"abc"')
      expect(await textOf(page, '#upload-detail')).to.equal('failed: nothing was saved')
      expect((await adminDbm(bench(), 'get_table_info', { path: 'loads.codes' })).rc).to.equal(1)
    })

    browser.it('cancels an upload on its way: nothing is saved', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      await pickFile(page, 'big.csv', salesCsv(30_000))
      await setChunkKb(page, 1)
      await page.click('#upload')
      await eventually(async () => expect(await textOf(page, '#upload-detail')).to.match(/^chunk [2-9]/))
      expect(await page.locator('#cancel').isEnabled()).to.equal(true)
      await page.click('#cancel')
      await eventually(async () => expect(await textOf(page, '#upload-detail')).to.equal('cancelled: nothing was saved'))
      expect(await textOf(page, '#error')).to.equal('')
      expect(await page.locator('#upload').isEnabled()).to.equal(true)
      expect((await adminDbm(bench(), 'get_table_info', { path: 'loads.big' })).rc).to.equal(1)
    })

    browser.it('uploads a JSON file of row objects in chunks', async (page) => {
      const rows = Array.from({ length: 60 }, (_, i) => ({ name: `item ${i}`, score: i + 0.25, n: i * 2 }))
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      await pickFile(page, 'scores.json', JSON.stringify(rows), 'application/json')
      await page.locator('#type-fields select[data-column="score"]').waitFor()
      await setChunkKb(page, 1)
      await recordProgress(page)
      await page.click('#upload')
      await page.locator('#uploaded').waitFor()
      expect((await progressSeen(page)).filter((v) => v > 0).length).to.be.at.least(3)
      const info = await bench().dbm<TableInfo>('get_table_info', { path: 'loads.scores', include: ['rows', 'cols'] })
      expect(info.rows).to.equal(60)
      expect(info.cols.map((c) => `${c.name}:${c.type}`)).to.deep.equal(['name:text', 'score:float', 'n:int'])
      const data = await bench().json<{ rows: unknown[][] }>('loads.scores/!data:json.rows?range_=59&to_=60')
      expect(data.rows).to.deep.equal([['item 59', 59.25, 118]])
    })

    for (const format of ['parquet', 'arrow'] as const) {
      browser.it(`uploads a ${format} file whole, keeping its column types (dates as dates)`, async (page) => {
        // The file is the service's own export of a typed table: int, text, float and a date.
        await bench().dbm('upload_table', { path: `loads.typed_src_${format}`, csv: salesCsv(30), mode: 'replace' })
        const exported = await bench().fetch(`loads.typed_src_${format}:${format}`)
        expect(exported.status).to.equal(200)
        await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
        await pickFile(page, `typed.${format}`, Buffer.from(await exported.arrayBuffer()), 'application/octet-stream')
        expect(await page.locator('#type-fields select').count(), 'the file brings its types: nothing to choose').to.equal(0)
        await page.fill('#table-name', `typed_${format}`)
        await page.click('#upload')
        await page.locator('#uploaded').waitFor()
        const source = await bench().dbm<TableInfo>('get_table_info', { path: `loads.typed_src_${format}`, include: ['rows', 'cols'] })
        const info = await bench().dbm<TableInfo>('get_table_info', { path: `loads.typed_${format}`, include: ['rows', 'cols'] })
        expect(info.rows).to.equal(30)
        expect(info.cols.map((c) => `${c.name}:${c.type}`)).to.deep.equal(source.cols.map((c) => `${c.name}:${c.type}`))
        const read = (path: string) => bench().json<{ rows: unknown[][] }>(`${path}/!data:json.rows?range_=0&to_=30&values_=formatted`)
        expect((await read(`loads.typed_${format}`)).rows).to.deep.equal((await read(`loads.typed_src_${format}`)).rows)
      })
    }

    browser.it('refuses a file of another kind before sending anything', async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      await pickFile(page, 'notes.txt', 'hello\n', 'text/plain')
      await eventually(async () => expect(await textOf(page, '#error')).to.contain('takes .csv, .json, .parquet, .arrow files'))
      await page.click('#upload')
      await eventually(async () => expect(await textOf(page, '#upload-detail')).to.equal('failed: nothing was saved'))
      expect((await adminDbm(bench(), 'get_table_info', { path: 'loads.notes' })).rc).to.equal(1)
    })
  })

  describe('as a user without rights on the folder', function () {
    const browser = useBrowser()
    let session = ''

    before(async function () {
      await addUser(bench(), 'dave', 'dave-secret-1')
    })

    beforeEach(async function () {
      session = await logInAs(bench(), 'dave', 'dave-secret-1')
      await useSession(bench(), browser.context, session)
    })

    browser.it('uploads into their own folder from the Upload entry, and reads the table', async (page) => {
      await openWorkbench(page, `${bench().api}/run`)
      await page.click('#nav-upload')
      await page.locator('#upload-form').waitFor()
      expect(await page.inputValue('#folder')).to.equal('uploads.dave')
      await pickFile(page, 'mine.csv', salesCsv(20))
      await page.click('#upload')
      await page.locator('#uploaded').waitFor()
      const info = await dbmAs<TableInfo>(bench(), session, 'get_table_info', { path: 'uploads.dave.mine' })
      expect(info.rc).to.equal(0)
      expect(info.value!.rows).to.equal(20)
    })

    browser.it("shows the API's refusal of a folder they may not write, and the forged begin is refused too", async (page) => {
      await openWorkbench(page, `${bench().api}/dbm/upload/loads`)
      await pickFile(page, 'sneaky.csv', salesCsv(5))
      await page.click('#upload')
      await eventually(async () => expect(await textOf(page, '#error')).to.match(/no permission to create in "loads"|No such/))
      expect((await adminDbm(bench(), 'get_table_info', { path: 'loads.sneaky' })).rc).to.equal(1)
      const forged = await dbmAs(bench(), session, 'upload_table', { path: 'loads.sneaky', data: { a: [1] } })
      expect(forged.rc).to.equal(1)
    })
  })
})
