/**
 * Reading and driving the workbench pages by the element ids of the UI contract, shared by the
 * browser tests. Everything here goes through what a person sees: text content, enabled buttons,
 * the progress bar's value.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'

/**
 * Retries a check until it passes or time runs out, then throws its last failure: pages update
 * after requests finish, and a fixed sleep would be either flaky or slow.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (err) {
      if (Date.now() >= deadline) throw err
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
}

/** "rows 1–50 of 1,000,000": the #rowinfo text of rows `from`..`to` (from 1, inclusive). */
export function rowInfoText(from: number, to: number, total: number): string {
  const n = (x: number) => x.toLocaleString('en-US')
  return `rows ${n(from)}\u2013${n(to)} of ${n(total)}`
}

/** Opens a page and checks it is a logged-in workbench page (200, HTML5, the top navigation). */
export async function openWorkbench(page: Page, url: string): Promise<void> {
  const res = await page.goto(url)
  expect(res?.status(), `GET ${url}`).to.equal(200)
  expect((await res!.text()).slice(0, 15).toLowerCase()).to.equal('<!doctype html>')
  await page.locator('nav#topnav').waitFor()
}

export interface ShownTable {
  readonly head: string[]
  readonly rows: string[][]
}

/** The header labels and body cells of a table as the page shows them (text content). */
export async function shownTable(page: Page, selector = 'table#result'): Promise<ShownTable> {
  const head = await page.locator(`${selector} thead th`).allTextContents()
  // One round trip for all cells; the callback runs in the page.
  const rows = await page.$$eval(`${selector} tbody tr`, (trs) =>
    trs.map((tr) => Array.from((tr as unknown as { cells: ArrayLike<{ textContent: string | null }> }).cells, (td) => td.textContent ?? '')),
  )
  return { head: head.map((h) => h.trim()), rows }
}

export async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim()
}

/** Waits until #rowinfo reads exactly `expected`. */
export async function expectRowInfo(page: Page, expected: string, timeoutMs?: number): Promise<void> {
  await eventually(async () => expect(await textOf(page, '#rowinfo')).to.equal(expected), timeoutMs)
}

/**
 * Replaces the editor's text as a person pasting it would: focus the editor, select all, insert
 * the text (an input event, so no key binding such as auto-indent changes it). The page keeps the
 * hidden textarea#query equal to the editor, which is how the text is checked.
 */
export async function setEditorText(page: Page, query: string): Promise<void> {
  const content = page.locator('#editor .cm-content')
  await content.click()
  await page.keyboard.press('Control+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(query)
  await eventually(async () => expect(await page.locator('textarea#query').inputValue()).to.equal(query))
}

/** Types a query into the editor and runs it with the Run button, or with Ctrl+Enter in the editor. */
export async function runQuery(page: Page, query: string, how: 'button' | 'keys' = 'button'): Promise<void> {
  await setEditorText(page, query)
  // The completion list may be open after typing: close it so Run is not hidden beneath it.
  await page.keyboard.press('Escape')
  if (how === 'keys') await page.keyboard.press('Control+Enter')
  else await page.locator('button#run').click()
}

/** Waits until no query runs (Stop disabled) and checks #error is empty. */
export async function expectIdleWithoutError(page: Page): Promise<void> {
  await eventually(async () => expect(await page.locator('button#stop').isDisabled(), '#stop disabled').to.equal(true))
  expect(await textOf(page, '#error')).to.equal('')
}

/** The absolute address a link points at. */
export async function linkTarget(page: Page, selector: string): Promise<string> {
  const href = await page.locator(selector).getAttribute('href')
  expect(href, `${selector} has an href`).to.be.a('string').and.not.equal('')
  return new URL(href!, page.url()).href
}

/** A number as a cell may show it: thousands separators, a currency sign or a percent sign removed. */
export function cellNumber(text: string): number {
  return Number(text.replace(/[,$%\s]/g, ''))
}

/**
 * Where the page's result is kept, as a path after api/ (`7`): a query page runs in an instance
 * of its own, whose tag the format links name. Waits until the links point somewhere.
 */
export async function resultPath(page: Page): Promise<string> {
  return eventually(async () => {
    const href = (await page.locator('a#link-json').getAttribute('href')) ?? ''
    const m = /\/api\/([^/]+)\/!data:json\?/.exec(href)
    expect(m, `a#link-json href ${href}`).to.not.equal(null)
    return m![1]
  })
}

/** The tag of the instance a query page made for itself at its first Run, read from its Stop/status use. */
export async function pageInstance(page: Page): Promise<string> {
  const path = await resultPath(page)
  expect(path, 'the page runs in an instance of its own').to.match(/^\d+$/)
  return path
}

/**
 * The tag of the instance whose `!status` the page polls while its query runs (its own instance:
 * the page made it with api/new before the query started), from the page's resource timings.
 */
export async function polledInstance(page: Page): Promise<string> {
  return eventually(async () => {
    const tag = await page.evaluate(() =>
      (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string }[] } }).performance
        .getEntriesByType('resource')
        .map((e) => /\/api\/(\d+)\/!status:json/.exec(e.name)?.[1])
        .find((t) => t !== undefined),
    )
    expect(tag, 'the page polls the !status of an instance of its own').to.be.a('string')
    return tag!
  })
}
