/**
 * A worker that fails takes down only its own request. A query that needs more heap than
 * WORKER_MEMORY_MB (a real trigger: an SQL query building 150 MB of text), and the engine's test
 * hook (TABULA_TEST_FAULTS=1: a plain Error thrown, process.exit in the worker, an uncaught
 * exception from a timer) each answer 500 `internal` with a requestId whose log line names the
 * cause, while a query already running on the other worker finishes with the right answer, and
 * later queries (two at once, so both workers are needed) are answered normally.
 */
import { expect } from 'chai'
import { Piscina } from 'piscina'
import handleTask from '../../engine/worker.js'
import type { SqlTask } from '../../shared/protocol.js'
import type { TaskOutcome } from '../../engine/task/outcome.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { userCookie } from '../helpers/dbm.js'
import { dataOf } from '../helpers/columns.js'

/** Small enough that the trigger below really exceeds it; the smallest the configuration allows. */
const WORKER_MEMORY_MB = '64'

/** 3,000 rows of 50,000 characters: about 150 MB of strings, far over a 64 MB heap. */
const OUT_OF_MEMORY_SQL = "select trans, printf('%050000d', trans) as wide from pub.demo.retail.item"

/**
 * A query that keeps a worker busy for a few seconds, whatever else the machine is doing: sql.js
 * counting a recursive CTE (outside the compiled subset) up to BUSY_ROWS, about 3 s on a quiet
 * machine. It must outlast the out-of-memory failure, which can itself take seconds on a loaded
 * machine (a 9-million-pair join used here before sometimes finished first).
 */
const BUSY_ROWS = 15_000_000
const busySql = (round: number): string =>
  `with recursive c(x) as (select 1 union all select x + 1 from c where x < ${BUSY_ROWS}) ` + `select count(*) as n from c where ${round} > 0`

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

async function sql(svc: TestService, cookie: string, query: string): Promise<Answer> {
  const res = await svc.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: query })
  return { status: res.status, body: res.body as Record<string, unknown> }
}

/** Polls the session's !status until its query is running, so the fault surely overlaps it. */
async function waitUntilRunning(svc: TestService, cookie: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await svc.http.get('/v1/api/sql/!status:json').set('Cookie', cookie)
    if (res.body.running === true) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('the busy query never showed as running')
}

/** The log line of a 500 answer, found by its request id. */
function logLineOf(svc: TestService, requestId: unknown): string {
  expect(requestId, 'a 500 answer carries a requestId').to.be.a('string').and.not.equal('')
  const line = svc.logs.find((l) => l.requestId === requestId)
  expect(line, `a log line for request ${String(requestId)}`).to.not.equal(undefined)
  return JSON.stringify(line)
}

/**
 * A query the worker's fault hook fails in the way `kind` names. The hook reads SQL tasks, so the
 * query must run on sql.js: random() is not in the compiled subset (a bare SELECT of a constant
 * now runs on the columnar engine).
 */
const faultSql = (kind: string): string => `select 'tabula-test-fault:${kind}' where random() is not null`

describe('worker failures (one in-process service, memory store, 2 workers)', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string
  let other: string
  const previousFaults = process.env.TABULA_TEST_FAULTS

  before(async function () {
    this.timeout(90_000)
    // Read by each worker thread from the environment it was created with (see engine/worker.ts).
    process.env.TABULA_TEST_FAULTS = '1'
    svc = await startTestService('memory', { WORKER_MEMORY_MB, WORKERS: '2' })
    admin = await svc.login()
    other = await userCookie(svc, 'bystander')
  })

  after(async function () {
    this.timeout(60_000)
    if (previousFaults === undefined) delete process.env.TABULA_TEST_FAULTS
    else process.env.TABULA_TEST_FAULTS = previousFaults
    await svc?.close()
  })

  /**
   * Runs the busy query in one session, and once it runs, the failing query in another; checks
   * the failure's answer and log line and that the busy query was not disturbed.
   */
  let round = 0
  async function failAlongsideBusyQuery(failing: string, cause: RegExp): Promise<void> {
    // A different text each time: an identical one would be answered from the result memo.
    const busy = sql(svc, other, busySql(++round))
    let busyDone = false
    void busy.then(() => (busyDone = true))
    await waitUntilRunning(svc, other)
    const failed = await sql(svc, admin, failing)
    expect(failed.status, JSON.stringify(failed.body)).to.equal(500)
    expect(failed.body).to.include({ code: 'internal', error: 'Internal error' })
    expect(logLineOf(svc, failed.body.requestId)).to.match(cause)
    // The busy query needs seconds; the failure answers sooner, even the out-of-memory one.
    expect(busyDone, 'the busy query was still running when the failure was answered').to.equal(false)
    const survivor = await busy
    expect(survivor.status, JSON.stringify(survivor.body)).to.equal(200)
    expect(survivor.body).to.deep.equal({ n: [BUSY_ROWS] })
  }

  /** Two queries at once after the failure: both answered, so the pool is whole again. */
  async function poolServesAgain(): Promise<void> {
    const [a, b] = await Promise.all([
      sql(svc, admin, 'select count(*) as n from pub.demo.retail.item'),
      sql(svc, other, 'select count(*) as n from pub.demo.retail.stores'),
    ])
    expect(a, JSON.stringify(a.body)).to.deep.include({ status: 200, body: { n: [3000] } })
    expect(b, JSON.stringify(b.body)).to.deep.include({ status: 200, body: { n: [100] } })
  }

  it('a query over WORKER_MEMORY_MB ends only its worker: 500 with a requestId, the other query finishes', async () => {
    await failAlongsideBusyQuery(OUT_OF_MEMORY_SQL, /ERR_WORKER_OUT_OF_MEMORY/)
    await poolServesAgain()
  })

  it('an engine bug (a plain Error) answers 500 with the stack in the log, not in the answer', async () => {
    await failAlongsideBusyQuery(faultSql('throw'), /injected fault: the engine threw a plain Error/)
    await poolServesAgain()
  })

  it('a worker that exits mid-task is replaced, and its request answers 500', async () => {
    await failAlongsideBusyQuery(faultSql('exit'), /exit/i)
    await poolServesAgain()
  })

  it('a worker killed by an uncaught exception is replaced, and its request answers 500', async () => {
    await failAlongsideBusyQuery(faultSql('uncaught'), /injected fault: an uncaught exception/)
    await poolServesAgain()
  })

  it('repeated failures leave the pool whole', async () => {
    for (const kind of ['exit', 'uncaught', 'exit']) {
      const res = await sql(svc, admin, faultSql(kind))
      expect(res.status).to.equal(500)
    }
    const oom = await sql(svc, admin, OUT_OF_MEMORY_SQL)
    expect(oom.status).to.equal(500)
    await poolServesAgain()
  })
})

describe('the worker fault hook is off unless TABULA_TEST_FAULTS=1', () => {
  it('runs a query with the marker as an ordinary query (called here, in the test thread)', () => {
    const saved = process.env.TABULA_TEST_FAULTS
    delete process.env.TABULA_TEST_FAULTS
    try {
      // With the hook on, this would end the test process itself: its absence is the point.
      const task: SqlTask = { kind: 'sql', sql: "select 'tabula-test-fault:exit' as t", tables: [], maxRows: 10 }
      const moved = handleTask(task) as Record<symbol, unknown>
      const outcome = (moved[Piscina.valueSymbol] ?? moved) as TaskOutcome
      expect(outcome.ok, JSON.stringify(outcome)).to.equal(true)
      if (outcome.ok) expect(dataOf(outcome.result.columns[0])).to.deep.equal(['tabula-test-fault:exit'])
    } finally {
      if (saved !== undefined) process.env.TABULA_TEST_FAULTS = saved
    }
  })
})
