/**
 * The policy of gateway/fair-share.ts on its own, with tasks whose end the test decides: who gets
 * a free worker, when a worker is taken back and from which task, and that a task taken back runs
 * again and only its last attempt counts. (fair-share.test.ts tests the same over HTTP.)
 */
import { expect } from 'chai'
import { FairShare } from '../../gateway/fair-share.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A task the test ends by hand; records each attempt's start and whether it was aborted. */
class Job {
  readonly attempts: { signal: AbortSignal; finish: (v: string) => void }[] = []
  readonly outcome: Promise<string>
  constructor(
    readonly name: string,
    fair: FairShare,
    user: string,
    readonly log: string[],
    signal: AbortSignal = new AbortController().signal,
  ) {
    this.outcome = fair.run(user, signal, (s) => {
      log.push(name)
      return new Promise<string>((resolve, reject) => {
        this.attempts.push({ signal: s, finish: resolve })
        s.addEventListener('abort', () => reject(s.reason), { once: true })
      })
    })
  }
  get running(): boolean {
    const last = this.attempts.at(-1)
    return last !== undefined && !last.signal.aborted
  }
  finish(): void {
    this.attempts.at(-1)!.finish(`${this.name} done`)
  }
}

describe('fair sharing policy (gateway/fair-share.ts)', () => {
  it('serves users in turn, the one holding fewest workers first, not in arrival order', async () => {
    const fair = new FairShare(1, 60_000)
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const a2 = new Job('a2', fair, 'a', log)
    const a3 = new Job('a3', fair, 'a', log)
    const b1 = new Job('b1', fair, 'b', log)
    const c1 = new Job('c1', fair, 'c', log)
    const b2 = new Job('b2', fair, 'b', log)
    expect(fair.waiting).to.equal(5)
    for (const j of [a1, b1, c1, a2, b2, a3]) {
      await sleep(1)
      expect(j.running, `${j.name} should run now (log ${log.join(' ')})`).to.equal(true)
      j.finish()
      expect(await j.outcome).to.equal(`${j.name} done`)
    }
    expect(log).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
    expect(fair.preemptions).to.equal(0)
  })

  it('takes back the youngest task of a user holding every worker once it ran a slice, runs the newcomer, then runs the task again', async () => {
    const fair = new FairShare(2, 150)
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    await sleep(30)
    const a2 = new Job('a2', fair, 'a', log)
    await sleep(1)
    expect(a1.running && a2.running).to.equal(true)
    const b1 = new Job('b1', fair, 'b', log)
    await sleep(1)
    // Not before a2 has had its slice.
    expect(b1.running).to.equal(false)
    await sleep(500)
    expect(b1.running).to.equal(true)
    expect(a1.running, 'the oldest task keeps its worker').to.equal(true)
    expect(a2.attempts[0].signal.aborted).to.equal(true)
    expect(fair.preemptions).to.equal(1)
    b1.finish()
    expect(await b1.outcome).to.equal('b1 done')
    await sleep(1)
    expect(a2.running, 'a2 runs again').to.equal(true)
    expect(a2.attempts).to.have.length(2)
    a2.finish()
    a1.finish()
    expect(await Promise.all([a1.outcome, a2.outcome])).to.deep.equal(['a1 done', 'a2 done'])
    expect(log).to.deep.equal(['a1', 'a2', 'b1', 'a2'])
  })

  it('doubles the slice each time the same task is taken back, so a long task still ends', async () => {
    const fair = new FairShare(2, 200)
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const a2 = new Job('a2', fair, 'a', log)
    await sleep(250)
    const b1 = new Job('b1', fair, 'b', log)
    await sleep(50)
    expect(b1.running).to.equal(true)
    b1.finish()
    await b1.outcome
    await sleep(1)
    expect(a2.running).to.equal(true)
    // The second time a2 must have run 400 ms before it is taken back.
    const b2 = new Job('b2', fair, 'b', log)
    await sleep(220)
    expect(b2.running, 'taken back before its doubled slice').to.equal(false)
    await sleep(700)
    expect(b2.running).to.equal(true)
    expect(a2.attempts).to.have.length(2)
    b2.finish()
    await sleep(1)
    a1.finish()
    a2.finish()
    expect(await Promise.all([a1.outcome, a2.outcome, b2.outcome])).to.deep.equal(['a1 done', 'a2 done', 'b2 done'])
  })

  it('takes nothing back while one user alone uses every worker, nor when the share is even', async () => {
    const fair = new FairShare(2, 10)
    const log: string[] = []
    const a = [new Job('a1', fair, 'a', log), new Job('a2', fair, 'a', log), new Job('a3', fair, 'a', log)]
    await sleep(60)
    expect(fair.preemptions).to.equal(0)
    a[0].finish()
    await sleep(1)
    expect(a[2].running).to.equal(true)
    const b1 = new Job('b1', fair, 'b', log)
    await sleep(60)
    // a holds 2, b none: one of a's is taken back for b1 (a2 or a3, whichever is younger: a3).
    expect(b1.running).to.equal(true)
    expect(fair.preemptions).to.equal(1)
    const c1 = new Job('c1', fair, 'c', log)
    await sleep(60)
    // a holds 1, b holds 1: c waits for a worker rather than taking one back.
    expect(c1.running).to.equal(false)
    expect(fair.preemptions).to.equal(1)
    b1.finish()
    await sleep(1)
    expect(c1.running, 'c goes before a (a holds one, c none)').to.equal(true)
    c1.finish()
    await sleep(1)
    a[1].finish()
    await sleep(1)
    a[2].finish()
    expect(await Promise.all(a.map((j) => j.outcome))).to.deep.equal(['a1 done', 'a2 done', 'a3 done'])
  })

  it("drops a waiting task whose signal aborts, with the signal's reason, and stops a running one", async () => {
    const fair = new FairShare(1, 60_000)
    const log: string[] = []
    const stopRunning = new AbortController()
    const stopWaiting = new AbortController()
    const a1 = new Job('a1', fair, 'a', log, stopRunning.signal)
    const b1 = new Job('b1', fair, 'b', log, stopWaiting.signal)
    const c1 = new Job('c1', fair, 'c', log)
    await sleep(1)
    stopWaiting.abort(new Error('b1 stopped'))
    const b = await b1.outcome.then(
      () => 'resolved',
      (e: Error) => e.message,
    )
    expect(b).to.equal('b1 stopped')
    expect(fair.waiting).to.equal(1)
    stopRunning.abort(new Error('a1 stopped'))
    expect(
      await a1.outcome.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    ).to.equal('a1 stopped')
    await sleep(1)
    expect(c1.running).to.equal(true)
    c1.finish()
    await c1.outcome
    expect(log).to.deep.equal(['a1', 'c1'])
  })
})
