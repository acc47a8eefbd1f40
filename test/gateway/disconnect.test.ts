/**
 * Cancel on disconnect: when the client of a running api/sql, api/run or instance request cuts its
 * connection, the query is stopped as `!stop` would: `!status` shows nothing running, the worker is
 * free again (each gateway has one worker and the query would run for minutes, so a new query
 * answering at all proves it), and so is the session's only query slot (MAX_QUERIES_PER_SESSION=1).
 * The requests go through node:http so that the test can destroy the socket.
 */
import { expect } from 'chai'
import http from 'node:http'
import supertest from 'supertest'
import type { Cluster } from '../helpers/cluster.js'
import { loggedIn, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Counts for ever; `n` makes each text (and so each recipe) distinct. */
const forever = (n: number) => `with recursive c(x) as (select ${n} union all select x + 1 from c) select count(*) as n from c`

/** Two thousand sorts of two million rows: many minutes of work, in steps. */
function endlessMacro(n: number): string {
  const sorts = Array.from({ length: 2000 }, (_, i) => `<sort col="r" dir="${i % 2 ? 'up' : 'down'}"/>`).join('')
  return `<table depth="2000000"/><willbe name="r" value="mod(i_()*7919.0;1000003)+${n}"/>${sorts}`
}

/** A request in flight whose connection the test can cut. */
interface OpenRequest {
  /** Settles with what happened to the request: `answered <status>` or `cut`. */
  readonly outcome: Promise<string>
  cut(): void
}

function openRequest(url: string, cookie: string, params: object): OpenRequest {
  const body = JSON.stringify(params)
  const req = http.request(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
  const outcome = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      res.resume()
      resolve(`answered ${res.statusCode}`)
    })
    req.on('error', () => resolve('cut'))
    req.on('close', () => resolve('cut'))
  })
  req.end(body)
  return { outcome, cut: () => req.destroy() }
}

/** The service's origin, for node:http: supertest knows it for a listening server and for a URL alike. */
const originOf = (svc: TestService): string => new URL(svc.http.get('/').url).origin

forEachStore(
  'cancel on disconnect',
  (svc, kind) => {
    const session = loggedIn(svc)
    let serial = 0

    const status = async (path: string): Promise<boolean> => {
      const res = await session.get(`/v1/api/${path}/!status:json`)
      expect(res.status, res.text).to.equal(200)
      return res.body.running === true
    }

    async function until(check: () => Promise<boolean>, what: string, withinMs: number): Promise<void> {
      const deadline = Date.now() + withinMs
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`)
        await sleep(40)
      }
    }

    /**
     * A new query of the same session answers: the worker (of every gateway, in the cluster) and the
     * session's one slot are free. A still-running query would hold both for minutes; the client
     * gives up long before that.
     */
    async function expectFreeToRun(): Promise<void> {
      const bases = kind === 'cluster' ? (svc() as TestService & { cluster: Cluster }).cluster.gateways.map((g) => new URL(g.base).origin) : [originOf(svc())]
      for (const base of bases) {
        const n = ++serial
        const res = await supertest(base)
          .post('/v1/api/sql:json')
          .set('Cookie', session.cookie)
          .send({ sql: `select ${n} as n` })
          .timeout(15_000)
        expect(res.status, res.text).to.equal(200)
        expect(res.body).to.deep.equal({ n: [n] })
      }
    }

    /** Starts the request, waits until its query runs, cuts the connection, and checks everything is released. */
    async function cutWhileRunning(path: string, params: object): Promise<void> {
      const request = openRequest(`${originOf(svc())}/v1/api/${path}:json`, session.cookie, params)
      await Promise.race([
        until(() => status(path), `the query of api/${path} runs`, 20_000),
        request.outcome.then((what) => Promise.reject(new Error(`the request ended before it was cut: ${what}`))),
      ])
      request.cut()
      expect(await request.outcome).to.equal('cut')
      await until(async () => !(await status(path)), `!status of api/${path} shows nothing running after the disconnect`, 15_000)
      await expectFreeToRun()
    }

    it('stops an api/sql query whose client went away', async function () {
      this.timeout(60_000)
      await cutWhileRunning('sql', { sql: forever(++serial) })
    })

    it('stops an api/run query whose client went away', async function () {
      this.timeout(60_000)
      await cutWhileRunning('run', { xml: endlessMacro(++serial) })
    })

    it('stops the query of an instance whose client went away', async function () {
      this.timeout(60_000)
      const tag = (await session.post('/v1/api/new/sql:json').send({})).body.tag as number
      await cutWhileRunning(String(tag), { sql: forever(++serial) })
    })
  },
  { WORKERS: '1', MAX_QUERIES_PER_SESSION: '1', QUERY_TIMEOUT_MS: '600000' },
)
