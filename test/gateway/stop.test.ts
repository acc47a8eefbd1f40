/**
 * StopRegistry (gateway/query/running/): two registries on two Store connections play two gateways. The
 * memory store has no second connection, so there both registries share the one store, which is
 * exactly the single-process case (its pub/sub delivers in-process).
 */
import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { SqlTask } from '../../shared/protocol.js'
import { createMemoryStore, createRedisStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/index.js'
import { PoolRunner } from '../../gateway/pool/runner.js'
import { StopRegistry, STOP_CHANNEL } from '../../gateway/query/running/index.js'
import { createClusterTestStore, redisAvailable, redisClusterAvailable, type StoreKind } from '../helpers/service.js'
import { STORE_KINDS } from '../helpers/suites.js'
import { interruptible } from '../helpers/interruptible-store.js'

/** The acceptance bound from issue 4: from the stop request to the stopped response. */
const STOP_LATENCY_MS = 100

interface Gateways {
  readonly a: StopRegistry
  readonly b: StopRegistry
  /** Gateway A's store connection, for looking at the records directly. */
  readonly store: Store
  close(): Promise<void>
}

/** A connected store of the kind; Redis connections opened with the same prefix see the same keys. */
async function openStore(kind: StoreKind, prefix: string): Promise<Store> {
  const store =
    kind === 'redis'
      ? createRedisStore(process.env.TEST_REDIS_URL!, { keyPrefix: prefix })
      : kind === 'redis-cluster'
        ? createClusterTestStore(prefix)
        : createMemoryStore()
  await store.connect()
  return store
}

async function openGateways(kind: StoreKind): Promise<Gateways> {
  const prefix = `test:${randomBytes(6).toString('hex')}:`
  const storeA = await openStore(kind, prefix)
  const storeB = kind === 'redis' || kind === 'redis-cluster' ? await openStore(kind, prefix) : storeA
  const a = new StopRegistry(storeA, { gatewayId: 'gw-a' })
  const b = new StopRegistry(storeB, { gatewayId: 'gw-b' })
  await Promise.all([a.start(), b.start()])
  return {
    a,
    b,
    store: storeA,
    async close() {
      await Promise.all([a.close(), b.close()])
      const keys = await storeA.keys('')
      if (keys.length > 0) await storeA.del(...keys)
      await Promise.all([...new Set([storeA, storeB])].map((s) => s.close()))
    },
  }
}

/** A tracked fake query that runs until its signal aborts, or `finish` ends it, or 30 s pass. */
interface FakeQuery {
  /** Resolves once `run` has been called, i.e. the query is recorded as running. */
  readonly started: Promise<void>
  /** How track settled: never rejects, so no test leaves an unhandled rejection behind. */
  readonly outcome: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>
  finish(value?: unknown): void
  fail(error: Error): void
}

function trackFake(registry: StopRegistry, queryKey: string, opts: { honorSignal?: boolean; ttl?: number } = {}): FakeQuery {
  let markStarted!: () => void
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  let finish!: (value?: unknown) => void
  let fail!: (error: Error) => void
  const run = (signal: AbortSignal): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the fake query was not stopped within 30 s')), 30_000)
      finish = (value) => (clearTimeout(timer), resolve(value))
      fail = (error) => (clearTimeout(timer), reject(error))
      if (opts.honorSignal !== false) signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
      markStarted()
    })
  const outcome = registry.track(queryKey, run, { ttl: opts.ttl }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
  return { started, outcome, finish: (v) => finish(v), fail: (e) => fail(e) }
}

function expectStopped(outcome: Awaited<FakeQuery['outcome']>, queryKey: string): void {
  expect(outcome.ok, 'the query should have been stopped').to.equal(false)
  const error = (outcome as { error: unknown }).error
  expect(error).to.be.instanceOf(AppError)
  expect((error as AppError).code).to.equal('STOPPED')
  expect((error as AppError).detail).to.deep.equal({ queryKey })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `check` holds, for the things a stop finishes just after answering (record removal, abort). */
async function eventually(check: () => Promise<boolean> | boolean, what: string, withinMs = 1000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`)
    await sleep(5)
  }
}

for (const kind of STORE_KINDS) {
  describe(`StopRegistry (${kind} store, two gateways)`, function () {
    let gw: Gateways
    before(function () {
      if (kind === 'redis' && !redisAvailable()) return this.skip()
      if (kind === 'redis-cluster' && !redisClusterAvailable()) return this.skip()
    })
    beforeEach(async () => {
      gw = await openGateways(kind)
    })
    afterEach(async () => gw?.close())

    describe('#requestStop', () => {
      it('stops a query tracked on gateway A from gateway B within 100 ms, with code STOPPED', async () => {
        const q = trackFake(gw.a, 'inst:42')
        await q.started
        expect(await gw.b.isRunning('inst:42')).to.equal(true)
        const t0 = performance.now()
        expect(await gw.b.requestStop('inst:42')).to.deep.equal({ stopped: true })
        const outcome = await q.outcome
        const elapsed = performance.now() - t0
        expectStopped(outcome, 'inst:42')
        expect(elapsed).to.be.below(STOP_LATENCY_MS)
      })

      it('answers stopped:false for a key nothing runs under', async () => {
        expect(await gw.b.requestStop('inst:nothing')).to.deep.equal({ stopped: false })
        expect(await gw.b.requestStop('inst:nothing', { force: true })).to.deep.equal({ stopped: false })
      })

      it('settles the tracked query at once even when its run ignores the signal', async () => {
        const q = trackFake(gw.a, 'inst:deaf', { honorSignal: false })
        await q.started
        const t0 = performance.now()
        await gw.b.requestStop('inst:deaf')
        expectStopped(await q.outcome, 'inst:deaf')
        expect(performance.now() - t0).to.be.below(STOP_LATENCY_MS)
        q.finish('too late') // the late result is dropped, not delivered and not unhandled
      })

      it('does not disturb a query under another key', async () => {
        const x = trackFake(gw.a, 'inst:x')
        const y = trackFake(gw.a, 'inst:y')
        await Promise.all([x.started, y.started])
        await gw.b.requestStop('inst:x')
        expectStopped(await x.outcome, 'inst:x')
        await sleep(20) // room for a stray abort to arrive
        expect(await gw.b.isRunning('inst:y')).to.equal(true)
        y.finish('y done')
        expect(await y.outcome).to.deep.equal({ ok: true, value: 'y done' })
      })

      it('stops every copy of a key, on one gateway and across gateways', async () => {
        const copies = [trackFake(gw.a, 'sess:s1:run'), trackFake(gw.a, 'sess:s1:run'), trackFake(gw.b, 'sess:s1:run')]
        await Promise.all(copies.map((q) => q.started))
        await gw.a.requestStop('sess:s1:run')
        for (const q of copies) expectStopped(await q.outcome, 'sess:s1:run')
        await eventually(async () => !(await gw.a.isRunning('sess:s1:run')), 'the records are removed')
      })

      it('keeps an overlapping copy stoppable after the first copy of its key finishes', async () => {
        const first = trackFake(gw.a, 'sess:s2:run')
        const second = trackFake(gw.b, 'sess:s2:run')
        await Promise.all([first.started, second.started])
        first.finish(1)
        expect((await first.outcome).ok).to.equal(true)
        expect(await gw.a.requestStop('sess:s2:run')).to.deep.equal({ stopped: true })
        expectStopped(await second.outcome, 'sess:s2:run')
      })

      it('is harmless before a query starts: the query then runs normally', async () => {
        expect(await gw.b.requestStop('inst:7')).to.deep.equal({ stopped: false })
        const q = trackFake(gw.a, 'inst:7')
        await q.started
        await sleep(20)
        q.finish('ok')
        expect(await q.outcome).to.deep.equal({ ok: true, value: 'ok' })
      })

      it('is harmless after a query finished, and does not reach the next query of the key', async () => {
        const q = trackFake(gw.a, 'inst:8')
        await q.started
        q.finish('first')
        await q.outcome
        expect(await gw.b.requestStop('inst:8')).to.deep.equal({ stopped: false })
        const next = trackFake(gw.a, 'inst:8')
        await next.started
        await sleep(20)
        next.finish('second')
        expect(await next.outcome).to.deep.equal({ ok: true, value: 'second' })
      })

      it('with force, removes the running record at once, even one whose gateway is gone', async () => {
        // A record written by a gateway that died: nobody will abort or remove it.
        await gw.store.batch([
          { op: 'hset', key: 'running:inst:ghost', fields: { t0: JSON.stringify({ gatewayId: 'gw-dead', startedAt: 1 }) } },
          { op: 'expire', key: 'running:inst:ghost', ttl: 30 },
        ])
        expect(await gw.b.requestStop('inst:ghost')).to.deep.equal({ stopped: true })
        expect(await gw.b.isRunning('inst:ghost')).to.equal(true)
        expect(await gw.b.requestStop('inst:ghost', { force: true })).to.deep.equal({ stopped: true })
        expect(await gw.b.isRunning('inst:ghost')).to.equal(false)
      })

      it('ignores malformed messages on the stop channel', async () => {
        const q = trackFake(gw.a, 'inst:9')
        await q.started
        for (const junk of ['not json', 'null', '{}', '{"queryKey":42}', '[]']) await gw.store.publish(STOP_CHANNEL, junk)
        await sleep(20)
        expect(await gw.a.isRunning('inst:9')).to.equal(true)
        await gw.b.requestStop('inst:9')
        expectStopped(await q.outcome, 'inst:9')
      })
    })

    describe('#track', () => {
      it('records the query with a TTL while it runs and removes the record when it completes', async () => {
        const q = trackFake(gw.a, 'inst:10')
        await q.started
        expect(await gw.store.keys('running:')).to.deep.equal(['running:inst:10'])
        const ttl = await gw.store.ttl('running:inst:10')
        expect(ttl).to.be.within(1, 30)
        const [record] = Object.values(await gw.store.hgetall('running:inst:10'))
        expect(JSON.parse(record)).to.include({ gatewayId: 'gw-a' })
        q.finish(10)
        expect(await q.outcome).to.deep.equal({ ok: true, value: 10 })
        expect(await gw.store.keys('running:')).to.deep.equal([])
      })

      it('removes the record when the query fails, and passes the failure on unchanged', async () => {
        const q = trackFake(gw.a, 'inst:11')
        await q.started
        const failure = new AppError('SQL_ERROR', 'no such column: nope')
        q.fail(failure)
        expect(await q.outcome).to.deep.equal({ ok: false, error: failure })
        expect(await gw.store.keys('running:')).to.deep.equal([])
      })

      it('removes the record when the query is stopped', async () => {
        const q = trackFake(gw.a, 'inst:12')
        await q.started
        await gw.b.requestStop('inst:12')
        await q.outcome
        await eventually(async () => (await gw.store.keys('running:')).length === 0, 'the record is removed')
        expect(await gw.b.isRunning('inst:12')).to.equal(false)
      })

      it('answers the caller first, then aborts the signal handed to run with the same STOPPED error', async () => {
        let signal!: AbortSignal
        const outcome = gw.a.track('inst:16', (s) => ((signal = s), new Promise<never>(() => undefined))).catch((e: unknown) => e)
        await eventually(() => signal !== undefined, 'run is called')
        await gw.b.requestStop('inst:16')
        const error = await outcome
        expect(error).to.be.instanceOf(AppError).with.property('code', 'STOPPED')
        await eventually(() => signal.aborted, 'the signal is aborted')
        expect(signal.reason).to.equal(error)
      })

      it('does not run a query that is stopped while its record is being written', async () => {
        const first = trackFake(gw.a, 'inst:17')
        await first.started
        // Gateway C writes its record slowly: the stop for the key arrives in the middle.
        let release!: () => void
        const gate = new Promise<void>((resolve) => (release = resolve))
        let writing!: () => void
        const writeStarted = new Promise<void>((resolve) => (writing = resolve))
        const slowStore = new Proxy(gw.store, {
          get(target, name) {
            if (name === 'batch') return async (...args: Parameters<Store['batch']>) => (writing(), await gate, target.batch(...args))
            const value = Reflect.get(target, name) as unknown
            return typeof value === 'function' ? value.bind(target) : value
          },
        })
        const c = new StopRegistry(slowStore, { gatewayId: 'gw-c' })
        let ran = false
        const second = c.track('inst:17', async () => (ran = true)).catch((e: unknown) => e)
        await writeStarted
        await gw.b.requestStop('inst:17')
        expectStopped(await first.outcome, 'inst:17')
        release()
        expect(await second)
          .to.be.instanceOf(AppError)
          .with.property('code', 'STOPPED')
        expect(ran).to.equal(false)
        await c.close()
      })

      it('refreshes the record of a query that outlives its TTL', async function () {
        this.timeout(10_000)
        const q = trackFake(gw.a, 'inst:13', { ttl: 1 })
        await q.started
        await sleep(2200)
        expect(await gw.b.isRunning('inst:13')).to.equal(true)
        expect(await gw.b.requestStop('inst:13')).to.deep.equal({ stopped: true })
        expectStopped(await q.outcome, 'inst:13')
      })

      it('removes the record of a query that ended while the Store was away within seconds of its return, not after its TTL', async () => {
        const cut = interruptible(gw.store)
        const registry = new StopRegistry(cut.store, { gatewayId: 'gw-c' })
        await registry.start()
        const q = trackFake(registry, 'inst:16', { ttl: 30 })
        await q.started
        cut.down = true
        q.finish('done')
        expect((await q.outcome).ok).to.equal(true)
        // The removal failed: the record says "running" while nothing runs.
        expect(await gw.a.isRunning('inst:16')).to.equal(true)
        cut.down = false
        await eventually(async () => !(await gw.a.isRunning('inst:16')), 'the record removed once the Store is back', 3000)
        await registry.close()
      })

      it('rejects a TTL that is not a whole number of seconds above 0', async () => {
        for (const ttl of [0, -1, 1.5]) {
          const error = await gw.a.track('inst:14', async () => 'ran', { ttl }).catch((e: unknown) => e)
          expect(error).to.be.instanceOf(RangeError)
        }
      })

      it('does not run the query when the Store cannot record it', async () => {
        const store = await openStore(kind, `test:${randomBytes(6).toString('hex')}:`)
        const registry = new StopRegistry(store)
        await registry.start()
        await store.close()
        let ran = false
        const error = await registry.track('inst:15', async () => (ran = true)).catch((e: unknown) => e)
        expect(error).to.be.instanceOf(AppError).with.property('code', 'UNAVAILABLE')
        expect(ran).to.equal(false)
        await registry.close()
      })
    })

    describe('#close', () => {
      it('unsubscribes: a stop no longer reaches the closed gateway, and closing twice is harmless', async () => {
        const q = trackFake(gw.a, 'inst:20')
        await q.started
        await gw.a.close()
        await gw.a.close()
        expect(await gw.b.requestStop('inst:20')).to.deep.equal({ stopped: true }) // the record is still there
        await sleep(50)
        q.finish('kept running')
        expect(await q.outcome).to.deep.equal({ ok: true, value: 'kept running' })
        const error = await gw.a.track('inst:21', async () => 'ran').catch((e: unknown) => e)
        expect(error).to.be.instanceOf(Error)
      })
    })

    describe('with a real PoolRunner', () => {
      /** Counts forever: only a terminated worker ends it. */
      const LONG: SqlTask = {
        kind: 'sql',
        sql: 'with recursive c(x) as (select 1 union all select x+1 from c) select count(*) from c',
        tables: [],
        maxRows: 10,
      }
      /** Counts to 3 million: keeps one worker busy for a second or so. */
      const BLOCKER: SqlTask = { ...LONG, sql: 'with recursive c(x) as (select 1 union all select x+1 from c where x < 3000000) select count(*) from c' }
      const SELECT_1: SqlTask = { kind: 'sql', sql: 'select 1', tables: [], maxRows: 10 }
      let runner: PoolRunner

      before(async function () {
        this.timeout(30_000)
        runner = new PoolRunner({ workers: 2 })
        // Both workers up (sql.js loaded) before anything is timed.
        await Promise.all([runner.run(SELECT_1), runner.run(SELECT_1)])
      })
      after(async () => runner?.close())

      it('stops a long SQL task from the other gateway quickly; a concurrent and a later task succeed', async function () {
        this.timeout(30_000)
        let running!: () => void
        const started = new Promise<void>((resolve) => (running = resolve))
        const long = gw.a
          .track('inst:100', (signal) => {
            running()
            return runner.run(LONG, { signal })
          })
          .then(
            () => null,
            (error: unknown) => error,
          )
        await started
        await sleep(200) // let the worker get deep into the query
        const short = runner.run(SELECT_1)

        const t0 = performance.now()
        expect(await gw.b.requestStop('inst:100')).to.deep.equal({ stopped: true })
        const error = await long
        const toStopped = performance.now() - t0
        expect(error).to.be.instanceOf(AppError).with.property('code', 'STOPPED')
        const afterStop = await runner.run(SELECT_1)
        const toNext = performance.now() - t0
        expect((await short).rowCount).to.equal(1)
        expect(afterStop.rowCount).to.equal(1)
        // The killed worker was replaced: while one worker is busy, another still answers at once.
        let blockerDone = false
        const blocker = runner.run(BLOCKER).then(() => (blockerDone = true))
        await runner.run(SELECT_1)
        const toReplaced = performance.now() - t0
        expect(blockerDone, 'select 1 waited for the blocker: only one worker serves').to.equal(false)
        await blocker
        console.log(
          `      stop → STOPPED ${toStopped.toFixed(1)} ms, → next select 1 ${toNext.toFixed(1)} ms, → two workers serving ${toReplaced.toFixed(1)} ms`,
        )
        expect(toStopped).to.be.below(STOP_LATENCY_MS)
        expect(runner.pending).to.equal(0)
      })
    })
  })
}
