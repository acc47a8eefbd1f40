/**
 * GC_HEAP_GROWTH_PERCENT bounds how much garbage a heap may hold past its live data: the same
 * churn over the same live set peaks far lower at the default (50) than under V8's own rule (0).
 */
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { childEnv } from '../../shared/child-env.js'

const CHURN = fileURLToPath(new URL('../helpers/heap-churn.js', import.meta.url))

async function peakHeap(percent: string | undefined): Promise<number> {
  const env = percent === undefined ? childEnv() : childEnv({ GC_HEAP_GROWTH_PERCENT: percent })
  const { stdout } = await promisify(execFile)(process.execPath, [CHURN], { env, timeout: 60_000 })
  return (JSON.parse(stdout) as { peakBytes: number }).peakBytes
}

describe('GC_HEAP_GROWTH_PERCENT', function () {
  this.timeout(120_000)

  it('holds a churning heap well below where V8’s own rule lets it grow, by default', async () => {
    const own = await peakHeap('0')
    const byDefault = await peakHeap(undefined)
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`
    expect(byDefault, `peak ${mb(byDefault)} at the default, ${mb(own)} under V8's rule`).to.be.below(own * 0.75)
  })

  it('refuses a value that is not a whole percentage, naming the variable', async () => {
    const run = promisify(execFile)(process.execPath, [CHURN], { env: childEnv({ GC_HEAP_GROWTH_PERCENT: 'lots' }), timeout: 60_000 })
    const err = await run.then(
      () => null,
      (e: { stderr: string }) => e,
    )
    expect(err?.stderr).to.match(/GC_HEAP_GROWTH_PERCENT/)
  })
})
