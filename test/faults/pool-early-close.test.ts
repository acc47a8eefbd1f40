/**
 * A pool closed while its threads are still loading the engine must not take the process down.
 * On Node 20.19+ Piscina's require() of an ES module task file is synchronous, and a thread ended
 * in the middle of it aborted the whole process inside V8 ("IsGraphAsync must be used on an
 * instantiated module"): CI saw it when a test gateway closed right after it started. The pools
 * now load CommonJS doors that import() the engine (engine/worker-door.cts). The loop runs in a
 * child process, since the failure is an abort, not an exception; with the old task files it
 * crashed in about one of three runs of this length, so the test is a net, not a proof.
 */
import { expect } from 'chai'
import { spawnSync } from 'node:child_process'

const RUNNER = new URL('../../gateway/pool/runner.js', import.meta.url).href

/** Opens and closes pools at random moments of their threads' start, many times over. */
const CHILD = `
import { PoolRunner } from ${JSON.stringify(RUNNER)}
const pause = (ms) => new Promise((r) => setTimeout(r, ms))
for (let i = 0; i < 60; i++) {
  const runner = new PoolRunner({ workers: 2 })
  await pause(Math.random() * 250)
  await runner.close()
}
console.log('survived')
`

describe('a worker pool closed while its threads start', () => {
  it('ends its threads without aborting the process', function () {
    this.timeout(120_000)
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8', timeout: 110_000 })
    expect(child.stderr, 'the child printed an error').to.not.match(/FATAL ERROR|Aborted/)
    expect(child.status, child.stderr).to.equal(0)
    expect(child.stdout.trim()).to.equal('survived')
  })
})
