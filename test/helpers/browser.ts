/**
 * A real browser for the workbench tests: Debian's Chromium driven by playwright-core (which never
 * downloads a browser of its own). One browser per suite, a fresh context (cookies, storage) per
 * test, a screenshot under test/artifacts/ when a test fails, and every console error, uncaught
 * page error or dialog collected so a test fails on them even when its own checks pass.
 */
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { expect } from 'chai'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** Where Debian's package puts it; CHROMIUM_PATH points elsewhere (another distribution, a local build). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** test/artifacts of the source tree: the compiled helper lives in <outDir>/test/helpers. */
export const ARTIFACTS = fileURLToPath(new URL('../../../test/artifacts/', import.meta.url))

const LAUNCH_ARGS = [
  '--no-sandbox', // tests run as root in CI containers, where Chromium's sandbox cannot start
  '--disable-background-networking', // no update checks or other calls home
  '--disable-dev-shm-usage', // small /dev/shm in containers crashes tabs otherwise
  '--disable-gpu',
  '--no-first-run',
  '--disable-extensions',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--metrics-recording-only',
  '--mute-audio',
]

/**
 * Console messages that are not faults of the page: Chromium logs every 4xx answer a page fetches
 * (a wrong password, a stopped query, the 403 login page itself), and the tests check those
 * answers through what the page shows instead. 5xx answers still count as errors.
 */
const EXPECTED_CONSOLE = [/^Failed to load resource: the server responded with a status of 4\d\d\b/]

let skipNoted = false

/** Whether the browser tests can run; under CI a missing Chromium is a failure, not a skip. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI === 'true') {
    throw new Error(`CI=true but ${CHROMIUM} does not exist: the browser tests must run in CI (apt-get install chromium, as .ci/run does).`)
  }
  if (!skipNoted) console.log(`    Browser tests are skipped: ${CHROMIUM} is not installed (apt-get install chromium, or set CHROMIUM_PATH).`)
  skipNoted = true
  return false
}

export interface BrowserFixture {
  /** The current test's page (fresh context per test). */
  readonly page: Page
  readonly context: BrowserContext
  /** Console errors, page errors and dialogs seen so far in the current test. */
  readonly problems: string[]
  /** Declares a mocha test that also fails on any problem the page reported. */
  it(title: string, fn: (page: Page) => Promise<void>, timeoutMs?: number): void
}

/**
 * Registers the hooks of a browser suite in the surrounding `describe` and returns its fixture.
 * `prepare` runs on each new context before the page opens (e.g. to add a session cookie).
 */
export function useBrowser(prepare?: (context: BrowserContext) => Promise<void>): BrowserFixture {
  let browser: Browser | null = null
  let context: BrowserContext | null = null
  let page: Page | null = null
  let problems: string[] = []

  before(async function () {
    if (!chromiumAvailable()) this.skip()
    this.timeout(60_000)
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS })
  })

  beforeEach(async function () {
    problems = []
    context = await browser!.newContext({ viewport: { width: 1280, height: 900 } })
    // Well inside mocha's timeout, so a missing element fails with the locator's name in the message.
    context.setDefaultTimeout(10_000)
    context.setDefaultNavigationTimeout(20_000)
    if (prepare) await prepare(context)
    page = await context.newPage()
    watch(page, problems)
  })

  afterEach(async function () {
    const test = this.currentTest
    if (test?.state === 'failed' && page && !page.isClosed()) {
      await mkdir(ARTIFACTS, { recursive: true })
      const file = join(ARTIFACTS, `${fileName(test.fullTitle())}.png`)
      try {
        await page.screenshot({ path: file, fullPage: true })
        console.log(`    screenshot: ${file}`)
      } catch (err) {
        console.log(`    no screenshot: ${(err as Error).message}`)
      }
    }
    await context?.close()
    context = null
    page = null
  })

  after(async () => {
    await browser?.close()
    browser = null
  })

  return {
    get page() {
      if (!page) throw new Error('no page: use the fixture inside a test')
      return page
    },
    get context() {
      if (!context) throw new Error('no context: use the fixture inside a test')
      return context
    },
    get problems() {
      return problems
    },
    it(title, fn, timeoutMs) {
      it(title, async function () {
        if (timeoutMs !== undefined) this.timeout(timeoutMs)
        await fn(page!)
        expect(problems, 'console errors, page errors or dialogs').to.deep.equal([])
      })
    },
  }
}

/** Records what the page reports; dialogs are dismissed so a stray alert() cannot hang the test. */
function watch(page: Page, problems: string[]): void {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    const text = msg.text()
    if (EXPECTED_CONSOLE.some((re) => re.test(text))) return
    problems.push(`console error: ${text} (${msg.location().url})`)
  })
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  page.on('dialog', (dialog) => {
    problems.push(`dialog (${dialog.type()}): ${dialog.message()}`)
    void dialog.dismiss().catch(() => undefined)
  })
  // A popup (a link with target=_blank) is a page of its own: watch it too.
  page.on('popup', (popup) => watch(popup, problems))
}

/** A test title as a file name that every file system accepts. */
function fileName(title: string): string {
  return (
    title
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 150) || 'test'
  )
}

/** Where pages are photographed on purpose (each workbench page once per run), apart from failures. */
export const SCREENSHOTS = join(ARTIFACTS, 'screenshots')

/**
 * A full-page picture of what the page shows now, as test/artifacts/screenshots/<name>.png, named
 * in the test output so a reviewer can open it. The pictures in docs/ are copies of these.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true })
  const file = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  console.log(`      screenshot: ${file}`)
  return file
}
