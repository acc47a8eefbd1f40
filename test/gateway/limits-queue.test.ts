/**
 * MAX_QUEUE: PoolRunner lets at most that many tasks wait for a busy worker and refuses the next
 * one at once (TOO_MANY_REQUESTS with a Retry-After estimate of 1 s or more); 0 means no waiting
 * at all, and without the option the queue is unbounded as before. Through the API (one gateway,
 * one worker, MAX_QUEUE=0) the refusal is a 429 with a Retry-After header.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { SqlTask } from '../../shared/protocol.js'
import { PoolRunner } from '../../gateway/pool/runner.js'
import { userCookie } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'

const sql = (text: string): SqlTask => ({ kind: 'sql', sql: text, tables: [], maxRows: 10 })
/** Counts until aborted. */
const FOREVER = sql('with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('PoolRunner queue bound (MAX_QUEUE)', function () {
  this.timeout(30_000)
  let runner: PoolRunner
  let stop: AbortController
  before(async () => {
    runner = new PoolRunner({ workers: 1 })
    await runner.run(sql('select 1')) // the worker is up
  })
  after(() => runner.close())
  beforeEach(() => {
    stop = new AbortController()
  })
  /** Occupies the only worker until stop.abort(). */
  const occupy = () => runner.run(FOREVER, { signal: stop.signal }).catch((err: unknown) => err)

  it('with MAX_QUEUE=1 lets one task wait and refuses the next at once with a Retry-After of at least 1 s', async () => {
    const busy = occupy()
    const waiting = runner.run(sql('select 2 as two'), { maxQueue: 1 })
    let waited = false
    void waiting.then(
      () => (waited = true),
      () => (waited = true),
    )
    const refused = await refusal(runner.run(sql('select 3'), { maxQueue: 1 }))
    expect(refused.code).to.equal('TOO_MANY_REQUESTS')
    expect(refused.message).to.contain('MAX_QUEUE = 1')
    expect(refused.detail.retryAfterSeconds).to.be.a('number').at.least(1)
    expect(waited, 'the waiting task must still wait').to.equal(false)
    stop.abort(new AppError('STOPPED', 'test over'))
    expect(((await busy) as AppError).code).to.equal('STOPPED')
    expect((await waiting).rowCount).to.equal(1)
  })

  it('with MAX_QUEUE=0 lets nothing wait, and runs again once the worker is free', async () => {
    const busy = occupy()
    await sleep(50)
    const refused = await refusal(runner.run(sql('select 4'), { maxQueue: 0 }))
    expect(refused.code).to.equal('TOO_MANY_REQUESTS')
    expect(refused.message).to.contain('MAX_QUEUE = 0')
    stop.abort(new AppError('STOPPED', 'test over'))
    await busy
    expect((await runner.run(sql('select 5'), { maxQueue: 0 })).rowCount).to.equal(1)
  })

  it('without the option queues without bound, as before', async () => {
    const busy = occupy()
    const queued = Array.from({ length: 4 }, (_, i) => runner.run(sql(`select ${i}`)))
    await sleep(50)
    expect(runner.pending).to.equal(5)
    stop.abort(new AppError('STOPPED', 'test over'))
    await busy
    expect((await Promise.all(queued)).map((r) => r.rowCount)).to.deep.equal([1, 1, 1, 1])
  })
})

forEachStore(
  'MAX_QUEUE',
  (svc) => {
    it('answers 429 with Retry-After at once when the only worker is busy and MAX_QUEUE is 0', async function () {
      this.timeout(30_000)
      const cookie = await svc().login()
      const other = await userCookie(svc(), 'queue_other')
      const long = svc()
        .http.post('/v1/api/sql:json')
        .set('Cookie', cookie)
        .send({ sql: FOREVER.sql })
        .then((r) => r)
      const deadline = Date.now() + 20_000
      while (!(await svc().http.get('/v1/api/sql/!status:json').set('Cookie', cookie)).body.running) {
        if (Date.now() > deadline) throw new Error('the long query did not start')
        await sleep(30)
      }
      const refused = await svc().http.post('/v1/api/sql:json').set('Cookie', other).send({ sql: 'select 6 as six' })
      expect(refused.status, refused.text).to.equal(429)
      expect(Number(refused.headers['retry-after'])).to.be.at.least(1)
      expect(refused.body.code).to.equal('too_many_requests')
      expect(refused.body.error).to.contain('MAX_QUEUE')
      await svc().http.post('/v1/api/sql/!stop:json').set('Cookie', cookie)
      expect((await long).status).to.equal(409)
      const again = await svc().http.post('/v1/api/sql:json').set('Cookie', other).send({ sql: 'select 6 as six' })
      expect(again.body).to.deep.equal({ six: [6] })
    })
  },
  { WORKERS: '1', MAX_QUEUE: '0' },
  { skip: ['redis', 'cluster'] },
)
