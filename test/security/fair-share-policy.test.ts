/**
 * The policy of gateway/pool/fair-share.ts on its own, with tasks whose end the test decides: who gets
 * a free worker, when a worker is taken back and from which task, and that a task taken back runs
 * again and only its last attempt counts; that the slice stays the same however often a hog's task
 * is taken back (issue 36), that a light user gets a worker from one of two hogs holding one each,
 * and that a task taken back waits on the bench while others keep using its worker.
 * (fair-share.test.ts tests the same over HTTP.)
 */
import { expect } from 'chai'
import { FairShare, type FairShareTimings } from '../../gateway/pool/fair-share.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Short timings for tests: a waiting task waits one slice; the bench off unless a test turns it on. */
const quick = (t: Partial<FairShareTimings> = {}): Partial<FairShareTimings> => ({
  sliceMs: 60_000,
  benchMs: 0,
  benchMaxMs: 0,
  ...t,
  waitMs: t.waitMs ?? t.sliceMs ?? 60_000,
})

/** Polls until `cond` holds; answers the milliseconds it took, or throws after `limitMs`. */
async function until(cond: () => boolean, limitMs: number, what: string): Promise<number> {
  const t0 = performance.now()
  while (!cond()) {
    if (performance.now() - t0 > limitMs) throw new Error(`${what}: not within ${limitMs} ms`)
    await sleep(2)
  }
  return performance.now() - t0
}

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

describe('fair sharing policy (gateway/pool/fair-share.ts)', () => {
  it('serves users in turn: the one holding fewest workers first, then the one with least recent worker time, not in arrival order', async () => {
    const fair = new FairShare(1, quick())
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const a2 = new Job('a2', fair, 'a', log)
    const a3 = new Job('a3', fair, 'a', log)
    const b1 = new Job('b1', fair, 'b', log)
    const c1 = new Job('c1', fair, 'c', log)
    const b2 = new Job('b2', fair, 'b', log)
    expect(fair.waiting).to.equal(5)
    // a1 runs 80 ms, the others about 1 ms: after c1, b (1 ms of recent time) goes before a (80 ms).
    for (const [j, ms] of [
      [a1, 80],
      [b1, 1],
      [c1, 1],
      [b2, 1],
      [a2, 1],
      [a3, 1],
    ] as const) {
      await sleep(1)
      expect(j.running, `${j.name} should run now (log ${log.join(' ')})`).to.equal(true)
      await sleep(ms)
      j.finish()
      expect(await j.outcome).to.equal(`${j.name} done`)
    }
    expect(log).to.deep.equal(['a1', 'b1', 'c1', 'b2', 'a2', 'a3'])
    expect(fair.preemptions).to.equal(0)
    expect(fair.recentMs('a')).to.be.greaterThan(fair.recentMs('b'))
  })

  it('takes back the youngest task of a user holding every worker once it ran a slice and the newcomer waited one, runs the newcomer, then runs the task again', async () => {
    const fair = new FairShare(2, quick({ sliceMs: 150 }))
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

  it('keeps the slice the same however often the same task is taken back, so a newcomer never waits longer the longer a hog runs (issue 36)', async () => {
    const slice = 40
    const fair = new FairShare(2, quick({ sliceMs: slice }))
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const a2 = new Job('a2', fair, 'a', log)
    const waits: number[] = []
    // Twelve small tasks of b one after the other, each as a2 has run again: a doubling slice
    // (the code before) made the twelfth wait 40 ms * 2^11, 82 s.
    for (let i = 0; i < 12; i++) {
      await until(() => a2.running, 2000, `a2 runs again before b${i}`)
      const b = new Job(`b${i}`, fair, 'b', log)
      waits.push(await until(() => b.running, 2000, `b${i} gets a worker`))
      b.finish()
      await b.outcome
    }
    expect(a2.attempts).to.have.length(13)
    expect(a1.attempts, 'the oldest task kept its worker all along').to.have.length(1)
    expect(a1.running).to.equal(true)
    // Each b waits one slice (a2's, restarted just before) and a little more for the timer.
    for (const w of waits) expect(w, `waits ${waits.map(Math.round).join(' ')}`).to.be.below(slice * 4)
    a1.finish()
    a2.finish()
    expect(await Promise.all([a1.outcome, a2.outcome])).to.deep.equal(['a1 done', 'a2 done'])
  })

  it('takes a worker from the busier of two hogs holding one each for a user with little recent worker time, not one hog from the other', async () => {
    const fair = new FairShare(2, quick({ sliceMs: 20 }))
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    await sleep(60)
    const d1 = new Job('d1', fair, 'd', log)
    await sleep(200)
    // a holds one and d one: the rule of two workers more (the code before) never takes one back.
    const b1 = new Job('b1', fair, 'b', log)
    await until(() => b1.running, 1000, 'b1 gets a worker')
    expect(a1.attempts[0].signal.aborted, 'a has more recent time: its task is taken back').to.equal(true)
    expect(d1.running).to.equal(true)
    b1.finish()
    await b1.outcome
    await until(() => a1.running, 1000, 'a1 runs again')
    // A hog that just lost its worker does not take one from the other: d's time is not over
    // twice a's yet.
    const a2 = new Job('a2', fair, 'a', log)
    await sleep(150)
    expect(a2.running).to.equal(false)
    expect(d1.attempts).to.have.length(1)
    for (const j of [a1, d1]) j.finish()
    await until(() => a2.running, 1000, 'a2 runs once a worker is free')
    a2.finish()
    expect(await Promise.all([a1.outcome, d1.outcome, a2.outcome])).to.deep.equal(['a1 done', 'd1 done', 'a2 done'])
  })

  it('lets a waiting task wait a slice for another user to finish before it takes a worker back', async () => {
    const fair = new FairShare(2, quick({ sliceMs: 150 }))
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    await sleep(400)
    const b1 = new Job('b1', fair, 'b', log)
    await sleep(1)
    expect(b1.running).to.equal(true)
    // c waits: b's short task ends within c's slice, so a's long task is not taken back.
    const c1 = new Job('c1', fair, 'c', log)
    await sleep(40)
    b1.finish()
    await until(() => c1.running, 500, 'c1 gets b1 worker')
    expect(a1.attempts).to.have.length(1)
    expect(fair.preemptions).to.equal(0)
    c1.finish()
    a1.finish()
    await Promise.all([a1.outcome, b1.outcome, c1.outcome])
  })

  it('benches a user who lost a worker while the others keep using it, up to a bound, so the task is not started and ended for every small query', async () => {
    const fair = new FairShare(2, { sliceMs: 20, benchMs: 150, benchMaxMs: 700, shareRatio: 2, usageHalfLifeMs: 60_000 })
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const a2 = new Job('a2', fair, 'a', log)
    await sleep(50)
    const b1 = new Job('b1', fair, 'b', log)
    await until(() => b1.running, 500, 'b1 gets a worker')
    b1.finish()
    await b1.outcome
    // b keeps sending small tasks 50 ms apart: a2 stays on the bench, the worker free for b.
    const t0 = performance.now()
    while (performance.now() - t0 < 400) {
      await sleep(50)
      expect(a2.running, `a2 stays benched (log ${log.join(' ')})`).to.equal(false)
      const b = new Job('b', fair, 'b', log)
      await sleep(1)
      expect(b.running, 'the lost worker is free for b at once').to.equal(true)
      b.finish()
      await b.outcome
    }
    expect(fair.preemptions).to.equal(1)
    // Once b stops, a2 gets its worker back after the bench.
    await until(() => a2.running, 500, 'a2 runs again after the bench')
    expect(a2.attempts).to.have.length(2)
    // And however busy b stays, the bench ends at its bound (700 ms after a2 lost the worker).
    const b3 = new Job('b3', fair, 'b', log)
    await until(() => b3.running, 500, 'b3 gets a worker')
    const lostAt = performance.now()
    let waited = 0
    while (!a2.running) {
      waited = performance.now() - lostAt
      if (waited > 1500) throw new Error('a2 never left the bench')
      if (b3.running) {
        b3.finish()
        await b3.outcome
        const next = new Job('bn', fair, 'b', log)
        await until(() => next.running || a2.running, 500, 'b or a2 runs')
        if (next.running) {
          next.finish()
          await next.outcome
        }
      }
      await sleep(30)
    }
    expect(waited).to.be.within(500, 1200)
    a1.finish()
    a2.finish()
    await Promise.all([a1.outcome, a2.outcome])
  })

  it('looks again while a task waits and nobody owes it a worker yet, so it gets one once the busy users pass twice its recent time, with no task starting or ending meanwhile', async () => {
    const fair = new FairShare(2, quick({ sliceMs: 20 }))
    const log: string[] = []
    // b has 150 ms of recent time.
    const b0 = new Job('b0', fair, 'b', log)
    await sleep(150)
    b0.finish()
    await b0.outcome
    const a1 = new Job('a1', fair, 'a', log)
    const d1 = new Job('d1', fair, 'd', log)
    await sleep(1)
    // Nothing owes b a worker yet: a and d have run for a moment, b has 150 ms.
    const b1 = new Job('b1', fair, 'b', log)
    await sleep(100)
    expect(b1.running).to.equal(false)
    // Once a's time passes 2 x 150 ms + a slice, a's worker is taken back for b (the code before
    // looked only when a task arrived or ended, and b waited for a hog's query to end).
    const waited = await until(() => b1.running, 1500, 'b1 gets a worker')
    expect(waited).to.be.below(800)
    b1.finish()
    await b1.outcome
    for (const j of [a1, d1]) {
      await until(() => j.running, 1000, `${j.name} runs`)
      j.finish()
    }
    expect(await Promise.all([a1.outcome, d1.outcome])).to.deep.equal(['a1 done', 'd1 done'])
  })

  it('keeps one worker, not every worker, for the others while two hogs are benched', async () => {
    const fair = new FairShare(2, { sliceMs: 20, benchMs: 400, benchMaxMs: 5000, shareRatio: 2, usageHalfLifeMs: 60_000 })
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const d1 = new Job('d1', fair, 'd', log)
    await sleep(100)
    // b takes a's worker (a benched at none, d at the one it holds); while b's next task holds
    // it, c takes d's: both hogs are benched at none.
    const b1 = new Job('b1', fair, 'b', log)
    await until(() => b1.running, 1000, 'b1 gets a worker')
    b1.finish()
    await b1.outcome
    const b2 = new Job('b2', fair, 'b', log)
    await sleep(1)
    expect(b2.running, 'the freed worker serves b at once').to.equal(true)
    const c1 = new Job('c1', fair, 'c', log)
    await until(() => c1.running, 1000, 'c1 gets a worker')
    expect(a1.running || d1.running).to.equal(false)
    expect(fair.preemptions).to.equal(2)
    b2.finish()
    c1.finish()
    await Promise.all([b2.outcome, c1.outcome])
    // Both workers are free: one hog may run again at once, the other worker stays free for the
    // light users while the bench lasts (the code before kept both idle).
    await until(() => a1.running || d1.running, 200, 'one hog runs again')
    await sleep(50)
    expect(a1.running && d1.running, 'the second worker stays free').to.equal(false)
    const b3 = new Job('b3', fair, 'b', log)
    await sleep(1)
    expect(b3.running, 'the free worker serves b at once').to.equal(true)
    b3.finish()
    await b3.outcome
    await until(() => a1.running && d1.running, 1500, 'both hogs run after the bench')
    a1.finish()
    d1.finish()
    expect(await Promise.all([a1.outcome, d1.outcome])).to.deep.equal(['a1 done', 'd1 done'])
  })

  it('lets two hogs take turns at one worker while light users keep the other, without the bench lapsing', async () => {
    // Recent time halves every 400 ms here, so turns come within a second or two.
    const fair = new FairShare(2, { sliceMs: 20, waitMs: 20, benchMs: 300, benchMaxMs: 60_000, shareRatio: 2, usageHalfLifeMs: 400 })
    const log: string[] = []
    const a1 = new Job('a1', fair, 'a', log)
    const d1 = new Job('d1', fair, 'd', log)
    await sleep(300)
    // b polls with tiny tasks: its first takes a hog's worker, and that worker stays b's.
    const hogs = [a1, d1]
    let benched: Job | undefined
    let turns = 0
    const t0 = performance.now()
    while (performance.now() - t0 < 3000 && turns < 2) {
      const b = new Job('b', fair, 'b', log)
      await until(() => b.running, 1000, 'b gets a worker')
      b.finish()
      await b.outcome
      const out = hogs.filter((h) => !h.running)
      expect(out, 'one hog runs, the other waits: the light worker is not given to a hog').to.have.length(1)
      if (benched !== undefined && out[0] !== benched) turns++
      benched = out[0]
      await sleep(40)
    }
    // The code before gave the benched hog nothing until the bench lapsed (here a minute away).
    expect(turns, `hogs took turns (log ${log.join(' ')})`).to.be.at.least(2)
    for (const h of hogs) {
      await until(() => h.running, 1000, `${h.name} runs`)
      h.finish()
    }
    expect(await Promise.all(hogs.map((h) => h.outcome))).to.deep.equal(['a1 done', 'd1 done'])
  })

  it('takes nothing back while one user alone uses every worker', async () => {
    const fair = new FairShare(2, quick({ sliceMs: 10 }))
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
    expect(a[2].attempts[0].signal.aborted).to.equal(true)
    expect(fair.preemptions).to.equal(1)
    b1.finish()
    await until(() => a[2].running, 500, 'a3 runs again')
    a[1].finish()
    await sleep(1)
    a[2].finish()
    expect(await Promise.all(a.map((j) => j.outcome))).to.deep.equal(['a1 done', 'a2 done', 'a3 done'])
  })

  it("drops a waiting task whose signal aborts, with the signal's reason, and stops a running one", async () => {
    const fair = new FairShare(1, quick())
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
