import { expect } from 'chai'
import { EventEmitter } from 'node:events'
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore, type Store } from '../../shared/store/index.js'
import type { Deps } from '../../gateway/deps.js'
import { StopRegistry } from '../../gateway/query/running/registry.js'
import type { RunControl } from '../../gateway/query/run-control.js'
import { clientGoneSignal, requestTimeout, runForRequest } from '../../gateway/routes/abort.js'

/** A request of a logged-in session, over HTTP/1.0 (which is never probed), whose response can close. */
function fakeCtx(query: Record<string, string> = {}): Context & { res: EventEmitter & { writableFinished: boolean }; stopsCounted: string[] } {
  const stopsCounted: string[] = []
  const res = Object.assign(new EventEmitter(), { writableFinished: false })
  const req = { httpVersionMajor: 1, httpVersionMinor: 0, headers: {} }
  const state = { auth: { session: { uid: 'ann', sid: 's1' } }, countQueryStop: (reason: string) => stopsCounted.push(reason) }
  return { req, res, state, query, request: {}, is: () => false, stopsCounted } as unknown as Context & {
    res: EventEmitter & { writableFinished: boolean }
    stopsCounted: string[]
  }
}

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  )

describe('gateway/routes/abort.ts', () => {
  let store: Store
  let stops: StopRegistry
  let deps: Deps
  before(async () => {
    store = createMemoryStore()
    await store.connect()
    stops = new StopRegistry(store)
    await stops.start()
    deps = { store, stops, config: { queryTimeoutMs: 5000, maxQueriesPerSession: 1, maxQueriesPerUser: 5 } } as unknown as Deps
  })
  after(async () => {
    await stops.close()
    await store.close()
  })

  describe('clientGoneSignal()', () => {
    it('aborts with STOPPED and counts a disconnect when the response closes unfinished', () => {
      const ctx = fakeCtx()
      const signal = clientGoneSignal(ctx)
      expect(signal.aborted).to.equal(false)
      ctx.res.emit('close')
      expect(signal.aborted).to.equal(true)
      expect((signal.reason as AppError).code).to.equal('STOPPED')
      expect(ctx.stopsCounted).to.deep.equal(['disconnect'])
    })

    it('does not abort once the response was sent in full', () => {
      const ctx = fakeCtx()
      const signal = clientGoneSignal(ctx)
      ctx.res.writableFinished = true
      ctx.res.emit('close')
      expect(signal.aborted).to.equal(false)
      expect(ctx.stopsCounted).to.deep.equal([])
    })
  })

  describe('requestTimeout()', () => {
    it('takes timeout_ below QUERY_TIMEOUT_MS, and refuses a bad one', () => {
      expect(requestTimeout(fakeCtx(), deps)).to.deep.equal({ timeoutMs: 5000, timeoutLimit: 'QUERY_TIMEOUT_MS' })
      expect(requestTimeout(fakeCtx({ timeout_: '100' }), deps)).to.deep.equal({ timeoutMs: 100, timeoutLimit: 'timeout_' })
      expect(() => requestTimeout(fakeCtx({ timeout_: 'x' }), deps)).to.throw(AppError)
    })
  })

  describe('runForRequest()', () => {
    it("hands the run the signals, the time limit and the session's user, and answers its result", async () => {
      let seen: RunControl | undefined
      const out = await runForRequest(fakeCtx({ timeout_: '250' }), deps, 'q:1', async (control) => {
        seen = control
        return 42
      })
      expect(out).to.equal(42)
      expect(seen?.user).to.equal('ann')
      expect(seen?.timeout).to.deep.equal({ timeoutMs: 250, timeoutLimit: 'timeout_' })
      expect(seen?.signals).to.have.length(2)
    })

    it("holds one of the session's slots while it runs (429 for the next) and gives it back when it settles", async () => {
      let finish: () => void = () => {}
      const first = runForRequest(fakeCtx(), deps, 'q:2', () => new Promise<void>((r) => (finish = r)))
      await new Promise((r) => setTimeout(r, 20))
      const refused = await rejection(runForRequest(fakeCtx(), deps, 'q:3', async () => 'ran'))
      expect((refused as AppError).code).to.equal('TOO_MANY_REQUESTS')
      finish()
      await first
      expect(await runForRequest(fakeCtx(), deps, 'q:4', async () => 'ran')).to.equal('ran')
    })

    it('gives the slot back after a failed run too', async () => {
      const failed = await rejection(runForRequest(fakeCtx(), deps, 'q:5', () => Promise.reject(new Error('boom'))))
      expect((failed as Error).message).to.equal('boom')
      expect(await runForRequest(fakeCtx(), deps, 'q:6', async () => 'ran')).to.equal('ran')
    })

    it('is stopped by !stop under its key and by the client going away', async () => {
      const untilAborted = (control: RunControl) =>
        new Promise<never>((_, reject) => {
          for (const s of control.signals ?? []) s.addEventListener('abort', () => reject(s.reason as Error))
        })
      const stopped = rejection(runForRequest(fakeCtx(), deps, 'q:7', untilAborted))
      await new Promise((r) => setTimeout(r, 20))
      await stops.requestStop('q:7')
      expect(await stopped).to.be.instanceOf(Error)

      const ctx = fakeCtx()
      const gone = rejection(runForRequest(ctx, deps, 'q:8', untilAborted))
      await new Promise((r) => setTimeout(r, 20))
      ctx.res.emit('close')
      expect(((await gone) as AppError).code).to.equal('STOPPED')
    })
  })
})
