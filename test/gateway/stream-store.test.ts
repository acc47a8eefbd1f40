/**
 * `!data` of a large result kept in the Store, read by a second gateway that never ran the query:
 * it streams chunk by chunk (the same bytes as the gateway that holds the result in memory), and
 * when the Store fails part way the body ends as respond.ts documents and the failure is logged.
 * Also the object URL of a large table, streamed from the table cache.
 */
import { expect } from 'chai'
import http from 'node:http'
import zlib from 'node:zlib'
import { FORMATS } from '../../gateway/format/index.js'
import type { Store } from '../../shared/store/types.js'
import { loggedIn, type TestDeps } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { startSecondGateway } from '../helpers/second-gateway.js'

const ROWS = 20_000
const ALL = 'select * from pub.demo.retail.item'

interface Received {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly complete: boolean
  readonly body: Buffer
}

/** POSTs to a URL and reads the (decoded) body, also when the transfer is cut off. */
function post(url: string, cookie: string, body: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Received> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body)
    const req = http.request(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers } }, (res) => {
      const parts: Buffer[] = []
      const decoded = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip()) : res
      let settled = false
      const finish = (): void => {
        if (settled) return
        settled = true
        resolve({ status: res.statusCode ?? 0, headers: res.headers, complete: res.complete, body: Buffer.concat(parts) })
      }
      decoded.on('data', (chunk: Buffer) => parts.push(chunk))
      decoded.on('end', finish)
      decoded.on('error', finish)
      res.on('close', () => {
        if (!res.complete) setTimeout(finish, 50)
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** The store with a switch that makes one mget (counted from when it is armed) fail. */
function failingStore(store: Store): { store: Store; failOnMget: (n: number) => void; mgets: () => number } {
  let calls = 0
  let failAt = Infinity
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'mget') {
        return async (keys: readonly string[]) => {
          if (++calls === failAt) throw new Error('injected store failure: connection lost')
          return target.mget(keys)
        }
      }
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    store: wrapped,
    failOnMget: (n) => {
      calls = 0
      failAt = n
    },
    mgets: () => calls,
  }
}

/** A second gateway on the first one's store, whose Store reads can be made to fail, keeping its log lines. */
async function secondGateway(first: TestDeps) {
  const injected = failingStore(first.store)
  const logs: Record<string, unknown>[] = []
  const gateway = await startSecondGateway(first, { store: injected.store, log: (line) => logs.push(line) })
  return { ...gateway, logs, injected }
}

forEachStore(
  'streamed bodies of large kept results',
  (svc) => {
    let b: Awaited<ReturnType<typeof secondGateway>>
    const session = loggedIn(svc)
    let aUrl: string

    before(async function () {
      this.timeout(60_000)
      b = await secondGateway(svc().deps)
      aUrl = svc().http.get('/').url.replace(/\/$/, '')
      const run = await post(`${aUrl}/v1/api/sql:json.rows`, session.cookie, { sql: ALL })
      expect(JSON.parse(run.body.toString()).rows).to.have.length(ROWS)
      // The copy in the Store is written after the answer: wait for its meta entry.
      for (let i = 0; i < 100; i++) {
        if ((await svc().deps.store.keys('res:')).some((k) => k.endsWith(':meta'))) return
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error('the result was never kept in the store')
    })
    after(() => b.close())

    for (const format of FORMATS) {
      it(`!data:${format} from the Store streams the same bytes as from memory, without running the query`, async function () {
        this.timeout(30_000)
        const fromMemory = await post(`${aUrl}/v1/api/sql/!data:${format}`, session.cookie)
        const runs = b.runs()
        const fromStore = await post(`${b.url}/v1/api/sql/!data:${format}`, session.cookie)
        expect(fromStore.status).to.equal(200)
        expect(fromStore.headers['content-length'], 'a streamed body has no length').to.equal(undefined)
        expect(fromStore.body.equals(fromMemory.body)).to.equal(true)
        expect(b.runs() - runs).to.equal(0)
        // Five chunks of 4096 rows, each fetched on its own (plus one for the first row).
        expect(b.injected.mgets()).to.be.at.least(Math.ceil(ROWS / 4096))
      })
    }

    it('a gzip-encoded !data arrives identical to the plain one', async function () {
      this.timeout(30_000)
      const plain = await post(`${b.url}/v1/api/sql/!data:text`, session.cookie)
      const gz = await post(`${b.url}/v1/api/sql/!data:text`, session.cookie, {}, { 'accept-encoding': 'gzip' })
      expect(gz.headers['content-encoding']).to.equal('gzip')
      expect(gz.body.equals(plain.body)).to.equal(true)
    })

    describe('when the Store fails part way', () => {
      /** How many mgets a clean `!data` in the format makes on the second gateway. */
      async function mgetsOf(format: string): Promise<number> {
        b.injected.failOnMget(Infinity)
        await post(`${b.url}/v1/api/sql/!data:${format}`, session.cookie)
        return b.injected.mgets()
      }

      afterEach(() => b.injected.failOnMget(Infinity))

      it('a text body ends with the error marker, and the failure is logged with its request id', async function () {
        this.timeout(30_000)
        b.injected.failOnMget(await mgetsOf('text'))
        const res = await post(`${b.url}/v1/api/sql/!data:text`, session.cookie)
        expect(res.status).to.equal(200)
        const text = res.body.toString('utf8')
        const marker = /\n#ERROR requestId=([0-9a-f-]+) code=internal Internal error\n$/.exec(text)
        expect(marker, text.slice(-200)).to.not.equal(null)
        const line = b.logs.find((l) => l.requestId === marker![1] && l.level === 'error')
        expect(line, JSON.stringify(b.logs.slice(-3))).to.include({ msg: 'response body failed after it began', code: 'INTERNAL' })
        expect(String(line!.err)).to.contain('injected store failure')
      })

      for (const format of ['json', 'json.rows', 'json.keyed'] as const) {
        it(`a ${format} body is cut off: invalid JSON, an incomplete transfer, a log line`, async function () {
          this.timeout(30_000)
          b.injected.failOnMget(await mgetsOf(format))
          const logged = b.logs.length
          const res = await post(`${b.url}/v1/api/sql/!data:${format}`, session.cookie)
          expect(res.complete).to.equal(false)
          expect(res.body.length).to.be.above(1000)
          expect(() => JSON.parse(res.body.toString('utf8'))).to.throw(SyntaxError)
          expect(b.logs.slice(logged).some((l) => l.msg === 'response body failed after it began')).to.equal(true)
        })
      }

      it('a failure before the first byte is an ordinary 500 with a JSON error', async () => {
        b.injected.failOnMget(1)
        const res = await post(`${b.url}/v1/api/sql/!data:json.rows`, session.cookie)
        expect(res.status).to.equal(500)
        expect(JSON.parse(res.body.toString())).to.include({ error: 'Internal error', code: 'internal' })
      })
    })

    it('the object URL of a large table streams every row from the table cache', async function () {
      this.timeout(30_000)
      const res = await post(`${b.url}/v1/api/pub.demo.retail.item:json.rows`, session.cookie)
      expect(res.status).to.equal(200)
      expect(res.headers['content-length']).to.equal(undefined)
      expect(JSON.parse(res.body.toString()).rows).to.have.length(ROWS)
    })
  },
  { DEMO_ROWS: String(ROWS) },
  { skip: ['cluster'] },
)
