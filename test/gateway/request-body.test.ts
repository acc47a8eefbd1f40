/**
 * The plain-JSON body reader (gateway/routes/request-body.ts) against koa-body with the gateway's
 * options: for every body, the same ctx.request.body, or the same error status and message.
 */
import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa, { type Context, type Next } from 'koa'
import { koaBody } from 'koa-body'
import { requestBodies } from '../../gateway/routes/request-body.js'
import { STATUS } from '../../gateway/http/errors.js'
import { AppError } from '../../shared/errors.js'

const LIMIT = 1024

type Echo = { status: number; body: string }

function echoApp(bodies: (ctx: Context, next: Next) => Promise<unknown>): Koa {
  const app = new Koa()
  app.use(async (ctx, next) => {
    try {
      await next()
    } catch (err) {
      const e = err as { status?: number; message: string }
      // The service's own refusals carry a code, mapped to a status as the gateway maps it.
      ctx.status = e.status ?? (err instanceof AppError ? STATUS[err.code] : 500)
      ctx.body = { error: e.message }
    }
  })
  app.use(bodies)
  app.use((ctx) => {
    const body = (ctx.request as { body?: unknown }).body
    ctx.body = { kind: typeof body, body: body === undefined ? '(none)' : body }
  })
  app.silent = true
  return app
}

async function listen(app: Koa): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Sends raw bytes, optionally in several writes, with the given headers. */
function send(port: number, method: string, headers: Record<string, string>, parts: readonly Buffer[]): Promise<Echo> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/', headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    for (const p of parts) req.write(p)
    req.end()
  })
}

describe('the plain-JSON body reader', () => {
  let ours: Awaited<ReturnType<typeof listen>>
  let reference: Awaited<ReturnType<typeof listen>>
  before(async () => {
    ours = await listen(echoApp(requestBodies({ maxBodyBytes: LIMIT })))
    const general = koaBody({ json: true, urlencoded: true, text: false, multipart: false, jsonStrict: false, jsonLimit: LIMIT, formLimit: LIMIT })
    reference = await listen(echoApp(general))
  })
  after(async () => {
    await ours.close()
    await reference.close()
  })

  const json = (text: string, type = 'application/json'): [Record<string, string>, Buffer[]] => {
    const bytes = Buffer.from(text, 'utf8')
    return [{ 'content-type': type, 'content-length': String(bytes.length) }, [bytes]]
  }

  const cases: [string, Record<string, string>, Buffer[]][] = [
    ['an object', ...json('{"sql":"select 1","n":[1,2]}')],
    ['an array', ...json('[1,"a",null]')],
    ['a string, a number and null', ...json('"text"')],
    ['a number', ...json('12.5')],
    ['null', ...json('null')],
    ['an empty body', ...json('')],
    ['whitespace only', ...json('  \n')],
    ['a byte-order mark', ...json('\ufeff{"a":1}')],
    ['invalid JSON', ...json('{"a":')],
    ['a __proto__ member', ...json('{"a":1,"__proto__":{"admin":true}}')],
    ['a nested escaped __proto__ member', ...json('{"a":{"b":[{"\\u005f_proto__":{}}]}}')],
    ['a __proto__ inside a string only', ...json('{"a":"\\"__proto__\\": 1"}')],
    ['a charset parameter', ...json('{"a":"é"}', 'application/json; charset=utf-8')],
    ['an upper-case type', ...json('{"a":2}', 'Application/JSON')],
    ['another JSON type', ...json('{"a":3}', 'application/vnd.api+json')],
    ['a form', ...json('a=1&b=2&b=3', 'application/x-www-form-urlencoded')],
    ['a body over the limit', ...json(`{"a":"${'x'.repeat(LIMIT)}"}`)],
    ['a body at the limit', ...json(`{"a":"${'x'.repeat(LIMIT - 8)}"}`)],
    [
      'a multi-byte character split between writes',
      { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength('{"a":"€"}')) },
      [Buffer.from('{"a":"€"}').subarray(0, 7), Buffer.from('{"a":"€"}').subarray(7)],
    ],
    ['a chunked body', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [Buffer.from('{"a":'), Buffer.from('4}')]],
  ]

  for (const [name, headers, parts] of cases) {
    it(`reads ${name} as koa-body does`, async () => {
      const [a, b] = await Promise.all([send(ours.port, 'POST', headers, parts), send(reference.port, 'POST', headers, parts)])
      expect(a).to.deep.equal(b)
    })
  }

  // koa-body drops these bodies without a word, and the request then fails as if a parameter
  // were missing: this reader refuses them with 415, naming the types it reads.
  const unread: [string, Record<string, string>, Buffer[]][] = [
    ['text/plain', ...json('sql=select 1', 'text/plain')],
    ['multipart form data', ...json('--x\r\nContent-Disposition: form-data; name="sql"\r\n\r\nselect 1\r\n--x--\r\n', 'multipart/form-data; boundary=x')],
    ['XML', ...json('<base table="pub.demo"/>', 'application/xml')],
    ['no Content-Type at all', { 'content-length': '12' }, [Buffer.from('sql=select 1')]],
    ['a chunked body of no type', { 'transfer-encoding': 'chunked' }, [Buffer.from('sql=select 1')]],
  ]
  for (const [name, headers, parts] of unread) {
    it(`refuses a body of ${name} with 415 and the types it reads, where koa-body ignores it`, async () => {
      const [a, b] = await Promise.all([send(ours.port, 'POST', headers, parts), send(reference.port, 'POST', headers, parts)])
      expect(b).to.deep.equal({ status: 200, body: JSON.stringify({ kind: 'undefined', body: '(none)' }) })
      expect(a.status).to.equal(415)
      expect(JSON.parse(a.body).error).to.match(/Content-Type.*send parameters as application\/json or application\/x-www-form-urlencoded/)
    })
  }

  it('takes an empty body of any type or none, as a body that says nothing', async () => {
    for (const headers of [{ 'content-length': '0' }, { 'content-type': 'text/plain', 'content-length': '0' }] as Record<string, string>[]) {
      const a = await send(ours.port, 'POST', headers, [])
      expect(a.status, JSON.stringify(headers)).to.equal(200)
    }
  })

  it('leaves the body of a GET alone, as koa-body does', async () => {
    const [headers, parts] = json('{"a":1}')
    const [a, b] = await Promise.all([send(ours.port, 'GET', headers, parts), send(reference.port, 'GET', headers, parts)])
    expect(a).to.deep.equal(b)
    expect(JSON.parse(a.body).body).to.equal('(none)')
  })
})
