/**
 * The query editor in a browser: CodeMirror in place of the textarea (under the strict policy,
 * with no violation logged), highlighting, Tab, completion of tables, columns and functions, the
 * sidebar of tables, the query in the address, the recent queries, and the landing page.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../helpers/browser.js'
import { eventually, expectRowInfo, openWorkbench, rowInfoText, runQuery, setEditorText, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/** The text of the editor, read from the textarea the page keeps equal to it. */
const editorText = (page: Page): Promise<string> => page.locator('textarea#query').inputValue()

/** The color a token is drawn in, and the color of the editor's plain text. */
async function colors(page: Page, token: string): Promise<{ token: string; plain: string; classes: string }> {
  const span = page.locator('#editor .cm-line span', { hasText: new RegExp(`^${token}$`) }).first()
  const style = (el: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color
  return {
    token: await span.evaluate(style),
    plain: await page.locator('#editor .cm-content').evaluate(style),
    classes: (await span.getAttribute('class')) ?? '',
  }
}

/** The labels of the open completion list. */
async function completions(page: Page): Promise<string[]> {
  await page.locator('#editor .cm-tooltip-autocomplete').waitFor()
  return page.locator('#editor .cm-tooltip-autocomplete li .cm-completionLabel').allTextContents()
}

/**
 * Accepts `label` once the completion list has it selected. The list updates as each source
 * answers, and CodeMirror ignores Enter for a moment after an update (so a person does not pick
 * what they have not seen): the selection must hold for a while first.
 */
async function accept(page: Page, label: string): Promise<void> {
  const selected = () => textOf(page, '#editor .cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel')
  await eventually(async () => {
    expect(await selected()).to.equal(label)
    await page.waitForTimeout(250)
    expect(await selected()).to.equal(label)
  })
  await page.keyboard.press('Enter')
}

describe('browser: query editor', function () {
  const bench = useWorkbench()
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it('replaces the textarea with an editor that highlights SQL, under the strict policy with no <style> element', async (page) => {
    // Every violation of the page's policy, as the browser reports it to the page.
    await page.addInitScript(() => {
      const g = globalThis as unknown as {
        violations: string[]
        document: { addEventListener(t: string, f: (e: { violatedDirective: string }) => void, c: boolean): void }
      }
      g.violations = []
      g.document.addEventListener('securitypolicyviolation', (e) => g.violations.push(e.violatedDirective), true)
    })
    await openWorkbench(page, `${bench().api}/sql`)
    await page.locator('#editor .cm-editor').waitFor()
    expect(await page.locator('textarea#query').isHidden(), 'the textarea is the no-script fallback').to.equal(true)
    // CodeMirror's styles went into a constructed stylesheet of the editor's shadow root.
    expect(await page.locator('style').count(), 'style elements').to.equal(0)
    const adopted = await page
      .locator('#editor')
      .evaluate((host) => (host as unknown as { shadowRoot: { adoptedStyleSheets: unknown[] } }).shadowRoot.adoptedStyleSheets.length)
    expect(adopted).to.be.greaterThan(0)
    await setEditorText(page, 'select store, count(*) from pub.demo.retail.item')
    const c = await colors(page, 'select')
    expect(c.classes, 'a CodeMirror token class').to.match(/ͼ/)
    expect(c.token, 'keyword color').to.not.equal(c.plain)
    // The font of the theme applied: the editor is styled, not plain text.
    const font = await page
      .locator('#editor .cm-scroller')
      .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }).getComputedStyle(el).fontFamily)
    expect(font).to.match(/monospace/)
    // Typing, completing and the sidebar styled nothing against the policy.
    await page.keyboard.type(' where st')
    await page.keyboard.press('Control+Space')
    await completions(page)
    await page.locator('#sidebar-tree li.folder[data-path="pub"] > button.toggle').click()
    await page.locator('#sidebar-tree li.folder[data-path="pub.demo"]').waitFor()
    expect(await page.evaluate(() => (globalThis as unknown as { violations: string[] }).violations)).to.deep.equal([])
    await screenshot(page, 'editor-sql')
  })

  browser.it('keeps the plain form without script: the textarea posts the query and the server answers its result', async (page) => {
    const context = await page.context().browser()!.newContext({ javaScriptEnabled: false })
    try {
      await bench().logIn(context)
      const tab = await context.newPage()
      await tab.goto(`${bench().api}/sql`)
      const box = tab.locator('textarea#query')
      expect(await box.isVisible(), 'the textarea').to.equal(true)
      expect(await tab.locator('#editor').count(), 'no editor').to.equal(0)
      expect(await tab.locator('#sidebar').isHidden(), 'the sidebar needs script').to.equal(true)
      await box.fill('select count(*) as n from pub.demo.retail.stores')
      await Promise.all([tab.waitForURL(/\/api\/sql$/), tab.locator('button#run').click()])
      expect(await tab.locator('table').first().innerText()).to.match(/\bn\b[\s\S]*\b100\b/)
    } finally {
      await context.close()
    }
  })

  browser.it('gives an sql instance the same editor, describing its keys to screen readers, and runs against the instance', async (page) => {
    const tag = (await bench().json<{ tag: number }>('new/sql:json', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).tag
    await openWorkbench(page, `${bench().api}/${tag}`)
    const content = page.locator('#editor .cm-content')
    expect(await content.getAttribute('aria-label')).to.equal('SQL query')
    const description = await content.evaluate((el) => {
      const id = (el as unknown as { getAttribute(n: string): string }).getAttribute('aria-describedby')
      return (el as unknown as { getRootNode(): { getElementById(id: string): { textContent: string } | null } }).getRootNode().getElementById(id)?.textContent
    })
    expect(description).to.match(/Esc.*then.*Tab.*leaves the editor/)
    await runQuery(page, 'select 4 as four')
    await expectRowInfo(page, rowInfoText(1, 1, 1))
    expect(await bench().json<{ four: number[] }>(`${tag}/!data:json`)).to.deep.equal({ four: [4] })
    expect(new URL(page.url()).pathname).to.equal(`/v1/api/${tag}`)
    expect(new URL(page.url()).searchParams.get('sql')).to.equal('select 4 as four')
  })

  browser.it('highlights the macro language as XML and runs it with Ctrl+Enter', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await setEditorText(page, '<base table="pub.demo.retail.stores"/>\n<sel value="store<10"/>')
    const tag = await colors(page, 'base')
    expect(tag.classes).to.match(/ͼ/)
    expect(tag.token, 'tag name color').to.not.equal(tag.plain)
    await page.keyboard.press('Control+Enter')
    await expectRowInfo(page, rowInfoText(1, 9, 9))
    await screenshot(page, 'editor-run')
  })

  browser.it('indents with Tab, and leaves the editor with Escape then Tab', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await setEditorText(page, 'select 1')
    await page.keyboard.press('Home')
    await page.keyboard.press('Tab')
    expect(await editorText(page)).to.match(/^\s+select 1$/)
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)).to.equal(
      'editor',
    )
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await editorText(page), 'Tab did not indent again').to.match(/^\s+select 1$/)
    const focused = await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)
    expect(focused, 'focus moved on, to the Run button').to.equal('run')
  })

  browser.it('completes table paths, the columns of the tables named, and function names', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    // A dotted path lists the folder it is in.
    await setEditorText(page, 'select * from pub.demo.retail.')
    await page.keyboard.press('End')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include.members(['item', 'products', 'stores'])
    await page.keyboard.type('sto')
    await accept(page, 'stores')
    expect(await editorText(page)).to.equal('select * from pub.demo.retail.stores')

    // Columns of the table the query names, with their types.
    await setEditorText(page, 'select reg from pub.demo.retail.stores')
    await page.keyboard.press('Home')
    for (let i = 0; i < 'select reg'.length; i++) await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('region')
    await accept(page, 'region')
    expect(await editorText(page)).to.equal('select region from pub.demo.retail.stores')

    // Functions of SQLite.
    await setEditorText(page, 'select group_con')
    await page.keyboard.press('End')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('group_concat')
    await accept(page, 'group_concat')
    expect(await editorText(page)).to.equal('select group_concat(')
  })

  browser.it('completes macro-language elements, attributes, functions and columns', async (page) => {
    await openWorkbench(page, `${bench().api}/run`)
    await setEditorText(page, '<base table="pub.demo.retail.stores"/>\n<wil')
    await page.keyboard.press('End')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('willbe')
    await accept(page, 'willbe')
    await page.keyboard.type(' val')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('value')
    await setEditorText(page, '<base table="pub.demo.retail.stores"/>\n<willbe name="x" value="strup"/>')
    await page.keyboard.press('End')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('strupcase')
    await page.keyboard.press('Escape')
    await setEditorText(page, '<base table="pub.demo.retail.stores"/>\n<sel value="sq"/>')
    await page.keyboard.press('End')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Control+Space')
    expect(await completions(page)).to.include('sqft')
  })

  browser.it('lists folders, tables and columns in the sidebar, and inserts a name at the cursor on click', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    await setEditorText(page, 'select  from ')
    const tree = page.locator('#sidebar-tree')
    await tree.locator('li.folder[data-path="pub"] > button.toggle').click()
    await tree.locator('li.folder[data-path="pub.demo"] > button.toggle').click()
    await tree.locator('li.folder[data-path="pub.demo.retail"] > button.toggle').click()
    const stores = tree.locator('li.table[data-path="pub.demo.retail.stores"]')
    expect(await tree.locator('li.table').allTextContents()).to.have.length(3)
    await stores.locator('> button.toggle').click()
    await stores.locator('li.column', { hasText: 'sqft' }).waitFor()
    const api = await bench().json<{ name: string[] }>('pub.demo.retail.stores/!cols:json')
    expect(await stores.locator('li.column button.insert').allTextContents()).to.deep.equal(api.name)
    expect(await textOf(page, '#sidebar-tree li.column:has(button[data-insert="sqft"]) .type')).to.equal('int')
    // Table name at the end, then a column where the cursor is put.
    await page.locator('#editor .cm-content').click()
    await page.keyboard.press('End')
    await stores.locator('> button.insert').click()
    expect(await editorText(page)).to.equal('select  from pub.demo.retail.stores')
    await page.keyboard.press('Home')
    for (let i = 0; i < 'select '.length; i++) await page.keyboard.press('ArrowRight')
    await stores.locator('button[data-insert="city"]').click()
    expect(await editorText(page)).to.equal('select city from pub.demo.retail.stores')
    await screenshot(page, 'editor-sidebar')
  })

  browser.it('puts the query run in the address; opening it fills the editor, and with run=1 runs it', async (page) => {
    const query = "select city, state from pub.demo.retail.stores where region = 'West' order by city"
    await openWorkbench(page, `${bench().api}/sql`)
    await runQuery(page, query)
    await eventually(async () => expect(new URL(page.url()).searchParams.get('sql')).to.equal(query))
    const link = page.url()

    // Another browser (no storage of this one) opening the link finds the query, not yet run.
    const other = await page.context().browser()!.newContext()
    await bench().logIn(other)
    const tab = await other.newPage()
    await tab.goto(link)
    await tab.locator('#editor .cm-editor').waitFor()
    expect(await tab.locator('textarea#query').inputValue()).to.equal(query)
    expect(await tab.locator('#editor .cm-content').innerText()).to.equal(query)
    expect(await tab.locator('#result-box').isHidden(), 'nothing ran').to.equal(true)
    // With run=1 the page runs it.
    const count = (
      await bench().json<{ n: number[] }>(`sql:json?sql=${encodeURIComponent(`select count(*) as n from pub.demo.retail.stores where region = 'West'`)}`)
    ).n[0]
    await tab.goto(`${link}&run=1`)
    await eventually(async () => expect(await textOf(tab, '#rowinfo')).to.equal(rowInfoText(1, Math.min(count, 50), count)))
    await other.close()
  })

  browser.it('keeps recent queries per kind of page, lists them, and loads one on click', async (page) => {
    await openWorkbench(page, `${bench().api}/sql`)
    const first = 'select 1 as one'
    const second = 'select 2 as two'
    await runQuery(page, first)
    await expectRowInfo(page, rowInfoText(1, 1, 1))
    await runQuery(page, second)
    await eventually(async () => expect(await textOf(page, '#result thead')).to.equal('two'))
    await page.locator('#history summary').click()
    expect(await page.locator('#history-list button.recent').allTextContents()).to.deep.equal([second, first])
    await page.locator('#history-list button.recent', { hasText: first }).click()
    expect(await editorText(page)).to.equal(first)
    // The macro page has a history of its own.
    await openWorkbench(page, `${bench().api}/run`)
    await page.locator('#history summary').click()
    expect(await page.locator('#history-list button.recent').count()).to.equal(0)
  })

  browser.it('opens / as the landing page with links into the workbench and the recent queries', async (page) => {
    await openWorkbench(page, `${bench().origin}/`)
    expect(new URL(page.url()).pathname).to.equal('/v1/api')
    for (const [id, path] of [
      ['go-sql', '/v1/api/sql'],
      ['go-run', '/v1/api/run'],
      ['go-ls', '/v1/api/ls'],
      ['go-new', '/v1/api/new'],
      ['endpoints-json', '/v1/api:json'],
    ]) {
      expect(new URL((await page.locator(`a#${id}`).getAttribute('href'))!, page.url()).pathname, id).to.equal(path)
    }
    expect(await page.locator('#recent').isHidden(), 'no recent queries yet').to.equal(true)
    await page.locator('a#go-sql').click()
    await page.locator('#editor .cm-editor').waitFor()
    await runQuery(page, 'select 3 as three')
    await expectRowInfo(page, rowInfoText(1, 1, 1))
    await page.locator('a#nav-home').click()
    await page.locator('#recent-sql a').first().waitFor()
    expect(await page.locator('#recent-sql a').allTextContents()).to.deep.equal(['select 3 as three'])
    await screenshot(page, 'landing')
    await page.locator('#recent-sql a').first().click()
    await page.locator('#editor .cm-editor').waitFor()
    expect(await editorText(page)).to.equal('select 3 as three')
  })
})
