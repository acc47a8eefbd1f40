/**
 * A long query in a browser: on the 10M-row demo table the progress bar moves while the query
 * runs, and the Stop button ends it with the API's "stopped" message.
 */
import { expect } from 'chai'
import type { Page } from 'playwright-core'
import { useBrowser } from '../helpers/browser.js'
import { eventually, openWorkbench, polledInstance, runQuery, textOf } from './pages.js'
import { useWorkbench } from './workbench.js'

/**
 * Eight full sorts of ten million rows: seconds of work in steps, long enough to watch and stop.
 * A willbe between each two keeps them apart: consecutive sorts run as one sort, and sorts before
 * `i_()<=N` as one top-N (interpret/run.ts), which would end in a moment.
 */
const SORT_KEYS = ['sales', '-customer', 'sku', '-cost', 'qty', '-date', 'store', '-trans']
const LONG =
  '<base table="pub.demo.retail.item"/>\n' +
  SORT_KEYS.map((k, i) => `<sort col="${k.replace('-', '')}"${k.startsWith('-') ? ' dir="down"' : ''}/>\n<willbe name="step${i}" value="${i}"/>\n`).join('') +
  '<sel value="i_()<=1000"/>'

type Status = { running: boolean; elapsed_ms: number | null; done: number | null; total: number | null; unit: string | null; fraction: number | null }

/** The progress bar as the page shows it: its value, or null while indeterminate. */
async function progressValue(page: Page): Promise<number | null> {
  return page.locator('progress#progress').evaluate((el) => {
    const bar = el as unknown as { position: number; value: number }
    return bar.position < 0 ? null : bar.value
  })
}

describe('browser: a long query', function () {
  // Generating ten million demo rows takes seconds, more on a busy machine.
  const bench = useWorkbench({ DEMO_ROWS: '10000000' }, 240_000)
  const browser = useBrowser((context) => bench().logIn(context))

  browser.it(
    'moves the progress bar while the query runs and stops it with the Stop button',
    async (page) => {
      await openWorkbench(page, `${bench().api}/run`)
      await runQuery(page, LONG)
      const stop = page.locator('button#stop')
      await eventually(async () => expect(await stop.isEnabled(), '#stop enabled while running').to.equal(true), 10_000, 50)

      // Watch the bar until it has moved forward twice (or at least once, from 0, before it gets late).
      const seen: (number | null)[] = []
      const started = Date.now()
      for (;;) {
        expect(await stop.isEnabled(), `the query ended before it was stopped; progress seen: ${seen.join(', ')}`).to.equal(true)
        const value = await progressValue(page)
        if (seen.length === 0 || value !== seen[seen.length - 1]) seen.push(value)
        const moves = seen.filter((v, i) => i > 0 && v !== null && v > (seen[i - 1] ?? 0)).length
        if (moves >= 2 || (moves >= 1 && Date.now() - started > 20_000)) break
        expect(Date.now() - started, `progress seen: ${seen.join(', ')}`).to.be.below(45_000)
        await page.waitForTimeout(100)
      }
      const last = seen[seen.length - 1]!
      expect(last).to.be.greaterThan(0).and.below(1)

      // The API agrees that the query runs and how far it is.
      // The page runs in an instance of its own, whose !status it polls.
      const tag = await polledInstance(page)
      const status = await bench().json<Status>(`${tag}/!status:json`)
      expect(status.running).to.equal(true)
      expect(status.unit).to.equal('ops')
      expect(status.total).to.be.greaterThan(1)
      expect(status.done).to.be.within(1, status.total! - 1)
      // !status rounds the fraction to four decimals (gateway/query/running/status.ts).
      expect(status.fraction).to.be.closeTo(status.done! / status.total!, 5e-5)

      const clicked = Date.now()
      await stop.click()
      await eventually(async () => expect(await textOf(page, '#notice')).to.match(/stopped/i), 15_000)
      await eventually(async () => expect(await stop.isDisabled(), '#stop disabled after the stop').to.equal(true))
      expect(Date.now() - clicked, 'stopped promptly').to.be.below(15_000)
      await eventually(async () => expect((await bench().json<Status>(`${tag}/!status:json`)).running).to.equal(false))
    },
    90_000,
  )
})
