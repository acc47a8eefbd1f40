/**
 * Issue 16, part 4a, at the HTTP level, against a real gateway process (dist/gateway/server.js)
 * on loopback, spoken to over raw sockets where the finding needs it:
 * - a form with more than MAX_FORM_FIELDS fields is refused (413), not cut silently;
 * - a body that arrives too slowly (or never) gets 408 after BODY_TIMEOUT_MS and its connection
 *   is closed, while a query that runs longer than that, its body sent at once, is unaffected;
 * - a client that sends its request and half-closes the connection still gets its answer.
 */
import { expect } from 'chai'
import net from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { start, stop, type Running } from '../helpers/processes.js'

const ADMIN = 'admin-secret-1'
const BODY_TIMEOUT_MS = 700

/** What came back on a raw connection: the bytes, and when (ms after sending) the server closed it. */
interface RawReply {
  readonly text: string
  readonly closedAfterMs: number
}

/**
 * Opens a connection, writes `parts` (strings, with a pause of `gapMs` between them), then
 * half-closes the connection when `halfClose`, and collects everything until the server closes
 * it (or `waitMs` passes, then the test fails on what it got).
 */
function raw(base: string, parts: string[], opts: { gapMs?: number; halfClose?: boolean; waitMs?: number } = {}): Promise<RawReply> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true })
    const began = Date.now()
    let text = ''
    const giveUp = setTimeout(() => {
      socket.destroy()
      resolve({ text, closedAfterMs: Number.POSITIVE_INFINITY })
    }, opts.waitMs ?? 20_000)
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (text += d))
    const finish = (): void => {
      clearTimeout(giveUp)
      resolve({ text, closedAfterMs: Date.now() - began })
      socket.destroy()
    }
    // The server's end of the connection closing: its FIN ('end'), or a reset while writing more.
    socket.on('end', finish)
    socket.on('error', (err) => (text === '' ? reject(err) : finish()))
    socket.on('close', finish)
    socket.on('connect', async () => {
      for (let i = 0; i < parts.length; i++) {
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs))
        if (socket.destroyed || socket.writableEnded) return
        socket.write(parts[i])
      }
      if (opts.halfClose) socket.end()
    })
  })
}

/** The final (non-1xx) status line's code and the body of a raw HTTP/1.1 reply. */
function finalResponse(text: string): { status: number; body: string; head: string } {
  const blocks = text.split('\r\n\r\n')
  let i = 0
  while (i < blocks.length && /^HTTP\/1\.1 1\d\d /.test(blocks[i])) i++
  const head = blocks[i] ?? ''
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  let body = blocks.slice(i + 1).join('\r\n\r\n')
  if (/transfer-encoding: chunked/i.test(head)) body = unchunk(body)
  return { status, body, head }
}

function unchunk(s: string): string {
  let out = ''
  let rest = s
  for (;;) {
    const eol = rest.indexOf('\r\n')
    if (eol < 0) return out
    const size = parseInt(rest.slice(0, eol), 16)
    if (!size) return out
    out += rest.slice(eol + 2, eol + 2 + size)
    rest = rest.slice(eol + 2 + size + 2)
  }
}

describe('limits: form fields, body deadline, half-close (a real gateway process)', function () {
  this.timeout(120_000)
  let gw: Running
  let dataDir: string
  let cookie: string
  let host: string

  before(async function () {
    this.timeout(60_000)
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-limits-'))
    gw = await start({
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_ROWS: '300',
      WORKERS: '1',
      ADMIN_PASSWORD: ADMIN,
      LOG_LEVEL: 'silent',
      BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    })
    host = new URL(gw.base).host
    const res = await fetch(`${gw.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: ADMIN }) })
    expect(res.status).to.equal(200)
    const s = (await res.json()) as { uid: string; sid: string; epw: string }
    cookie = `session=${s.uid}|${s.sid}|${s.epw}`
  })
  after(async () => {
    if (gw) await stop(gw)
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const post = (path: string, body: string, type: string) => fetch(`${gw.base}/${path}`, { method: 'POST', headers: { cookie, 'content-type': type }, body })

  describe('form fields (MAX_FORM_FIELDS, default 1000)', () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=x`).join('&')

    it('refuses a form with a 1001st field with 413 naming the limit, instead of dropping it', async () => {
      // The query is field 1001: before, qs dropped it and the answer was "missing parameter".
      const res = await post('sql:json', `${fields(1000)}&sql=select+7+as+n`, 'application/x-www-form-urlencoded')
      const body = (await res.json()) as { code: string; error: string }
      expect(res.status, JSON.stringify(body)).to.equal(413)
      expect(body.code).to.equal('body_too_large')
      expect(body.error).to.include('1000').and.include('MAX_FORM_FIELDS')
    })

    it('still reads a form of exactly 1000 fields, the last one included', async () => {
      const res = await post('sql:json', `${fields(999)}&sql=select+7+as+n`, 'application/x-www-form-urlencoded')
      expect(res.status).to.equal(200)
      expect(await res.json()).to.deep.equal({ n: [7] })
    })

    it('counts a repeated field as many fields (the last value counts), not as a cut array', async () => {
      const repeated = Array.from({ length: 30 }, (_, i) => `sql=select+${i}+as+n`).join('&')
      const res = await post('sql:json', repeated, 'application/x-www-form-urlencoded')
      expect(res.status).to.equal(200)
      expect(await res.json()).to.deep.equal({ n: [29] })
    })

    it('keeps the query string unlimited and uncut (URLSearchParams): the 1001st parameter counts', async () => {
      const res = await fetch(`${gw.base}/sql:json?${fields(1000)}&sql=select+8+as+n`, { headers: { cookie } })
      expect(res.status).to.equal(200)
      expect(await res.json()).to.deep.equal({ n: [8] })
    })
  })

  describe('body deadline (BODY_TIMEOUT_MS)', () => {
    const head = (type: string, length: number) =>
      `POST /v1/api/sql:json HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`

    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      it(`answers 408 and closes the connection when a ${type} body stops half-way`, async () => {
        const body = type === 'application/json' ? '{"sql":"select 1 as n"}' : 'sql=select+1+as+n'
        const reply = await raw(gw.base, [head(type, body.length) + body.slice(0, 5)], { waitMs: 15_000 })
        const { status, body: answer, head: h } = finalResponse(reply.text)
        expect(status, reply.text).to.equal(408)
        expect(JSON.parse(answer).code).to.equal('body_timeout')
        expect(JSON.parse(answer).error).to.include('BODY_TIMEOUT_MS')
        expect(h).to.match(/connection: close/i)
        // Closed by the server soon after the deadline (generous: the machine is shared).
        expect(reply.closedAfterMs)
          .to.be.at.least(BODY_TIMEOUT_MS - 50)
          .and.below(BODY_TIMEOUT_MS + 8_000)
      })
    }

    it('answers 408 to a body trickled a byte at a time past the deadline', async () => {
      const body = '{"sql":"select 1 as n"}'
      const reply = await raw(gw.base, [head('application/json', body.length), ...body.split('')], { gapMs: 100, waitMs: 15_000 })
      expect(finalResponse(reply.text).status, reply.text).to.equal(408)
      expect(reply.closedAfterMs).to.be.below(BODY_TIMEOUT_MS + 8_000)
    })

    it('leaves a query that runs longer than the deadline alone once its body is in', async () => {
      // About 2 s of counting (3,000,000 took 0.65 s once worker threads came warm): well past
      // BODY_TIMEOUT_MS (700 ms).
      const sql = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 10000000) select count(*) as n from c'
      const began = Date.now()
      const res = await post('sql:json', JSON.stringify({ sql }), 'application/json')
      const took = Date.now() - began
      expect(res.status).to.equal(200)
      expect(await res.json()).to.deep.equal({ n: [10000000] })
      expect(took, 'the query must outlast the body deadline for this test to mean anything').to.be.above(BODY_TIMEOUT_MS)
    })
  })

  describe('half-closed connections', () => {
    const request = (body: string) =>
      `POST /v1/api/sql:json HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

    it('answers a client that sends its request and then shuts its write side', async () => {
      const reply = await raw(gw.base, [request('{"sql":"select 42 as n"}')], { halfClose: true })
      const { status, body } = finalResponse(reply.text)
      expect(status, reply.text).to.equal(200)
      expect(JSON.parse(body)).to.deep.equal({ n: [42] })
    })

    it('answers a half-closed client whose query runs for seconds (the liveness probes do not disturb it)', async () => {
      const sql = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) as n from c'
      const reply = await raw(gw.base, [request(JSON.stringify({ sql }))], { halfClose: true, waitMs: 60_000 })
      const { status, body } = finalResponse(reply.text)
      expect(status, reply.text).to.equal(200)
      expect(JSON.parse(body)).to.deep.equal({ n: [2000000] })
    })

    it('still stops the query of a client that closed the connection entirely', async () => {
      const sql = 'with recursive c(x) as (select 99 union all select x + 1 from c) select count(*) as n from c'
      const url = new URL(gw.base)
      const socket = net.connect({ host: url.hostname, port: Number(url.port) })
      await new Promise((r) => socket.once('connect', r))
      socket.write(request(JSON.stringify({ sql })))
      const running = async () => {
        const res = await fetch(`${gw.base}/sql/!status:json`, { headers: { cookie } })
        return ((await res.json()) as { running?: boolean }).running === true
      }
      let deadline = Date.now() + 20_000
      while (!(await running())) {
        if (Date.now() > deadline) throw new Error('the endless query never started')
        await new Promise((r) => setTimeout(r, 50))
      }
      socket.destroy()
      deadline = Date.now() + 15_000
      while (await running()) {
        if (Date.now() > deadline) throw new Error('the query of the departed client still runs')
        await new Promise((r) => setTimeout(r, 50))
      }
    })
  })
})
