/**
 * Instances in a browser: creating one on the api/new page, following its link, and changing a
 * variable of a dynamic instance in its form.
 */
import { expect } from 'chai'
import { useBrowser } from '../helpers/browser.js'
import { eventually, linkTarget, openWorkbench, shownTable, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/** Stores of one region, with the variables x and y (y follows x through a trigger) as columns. */
const DYNAMIC = `<macro>
  <dynamic x="1" y="0" region="South">
    <do on_="init"><set y="100"/></do>
    <do on_="change(x)"><set y="@x*10"/></do>
    <widget name="index" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@region}'"/>
      <willbe name="x" value="{@x}"/>
      <willbe name="y" value="{@y}"/>
      <colord cols="store,region,x,y"/>
    </widget>
  </dynamic>
</macro>`

type Data = { store: number[]; region: string[]; x: number[]; y: number[] }

describe('browser: instances', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  /** Creates an instance on the api/new page and returns the address its link points at. */
  async function create(page: import('playwright-core').Page, xml: string): Promise<string> {
    await openWorkbench(page, `${bench().api}/new`)
    await page.locator('textarea#query').fill(xml)
    await page.locator('button#create').click()
    await page.locator('a#instance-link').waitFor()
    const url = await linkTarget(page, 'a#instance-link')
    expect(new URL(url).pathname).to.match(/^\/v1\/api\/\d+\/?$/)
    return url
  }

  /** A column of the shown result, by its position among the headers. */
  async function column(page: import('playwright-core').Page, index: number): Promise<string[]> {
    return (await shownTable(page)).rows.map((r) => r[index].trim())
  }

  browser.it('creates a fixed instance with api/new and opens it through #instance-link', async (page) => {
    const url = await create(page, '<base table="pub.demo.retail.stores"/>\n<sel value="store<=7"/>\n<colord cols="store,city"/>')
    await page.locator('a#instance-link').click()
    await page.waitForURL(url)
    await page.locator('table#result tbody tr').first().waitFor()
    expect(await column(page, 0)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7'])
  })

  browser.it('changes a variable of a dynamic instance in its form and shows the new result', async (page) => {
    const url = await create(page, DYNAMIC)
    const tag = new URL(url).pathname.match(/(\d+)\/?$/)![1]
    await page.locator('a#instance-link').click()
    await page.waitForURL(url)

    // The form shows the current values, the result those values give.
    const region = page.locator('form#vars input[name="region"]')
    expect(await region.inputValue()).to.equal('South')
    expect(await page.locator('form#vars input[name="x"]').inputValue()).to.equal('1')
    expect(await page.locator('form#vars input[name="y"]').inputValue(), 'set by init').to.equal('100')
    await page.locator('table#result tbody tr').first().waitFor()
    const head = (await shownTable(page)).head
    const at = (name: string) => head.findIndex((h) => h.toLowerCase() === name)
    const regionAt = at('region')
    expect(regionAt, `headers ${head.join(', ')}`).to.be.at.least(0)
    expect(new Set(await column(page, regionAt))).to.deep.equal(new Set(['South']))

    await region.fill('West')
    await page.locator('form#vars input[name="x"]').fill('4')
    await page.locator('button#apply').click()
    await eventually(async () => expect(new Set(await column(page, regionAt))).to.deep.equal(new Set(['West'])))
    expect(await textOf(page, '#error')).to.equal('')

    // The instance itself changed, the trigger ran, and the page shows its kept result.
    const api = await bench().json<Data>(`${tag}/!data:json`)
    expect(new Set(api.region)).to.deep.equal(new Set(['West']))
    expect(api.y[0], 'change(x) set y').to.equal(40)
    expect(await column(page, 0)).to.deep.equal(api.store.map(String))
    expect(await column(page, at('y'))).to.deep.equal(api.y.map(String))
    await eventually(async () => expect(await page.locator('form#vars input[name="y"]').inputValue(), 'y after the trigger').to.equal('40'))
  })
})
