/**
 * Response compression (gateway/http/compress.ts): gzip and Brotli per Accept-Encoding and its
 * q-values, for every result format through the whole service, and the rules of the middleware
 * itself (threshold, types, error bodies, bodies already encoded, COMPRESSION=0).
 */
import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import Koa from 'koa'
import { loadConfig } from '../../shared/config.js'
import { AppError } from '../../shared/errors.js'
import { compressResponses } from '../../gateway/http/compress.js'
import { errorMiddleware } from '../../gateway/http/errors.js'
import { TEXT_FORMATS } from '../../gateway/format/index.js'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

interface Raw {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** The body as sent, still encoded. */
  readonly raw: Buffer
}

function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(parts) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

/** The body decoded per its Content-Encoding. */
function decoded(res: Raw): string {
  const coding = res.headers['content-encoding']
  const bytes = coding === 'gzip' ? zlib.gunzipSync(res.raw) : coding === 'br' ? zlib.brotliDecompressSync(res.raw) : res.raw
  return bytes.toString('utf8')
}

describe('response compression', () => {
  describe('through the service', function () {
    this.timeout(60_000)
    let svc: TestService
    let base: string
    const SQL = 'select * from pub.demo.retail.item limit 300'

    before(async () => {
      svc = await startTestService('memory')
      base = svc.http.get('/').url.replace(/\/$/, '')
    })
    const session = loggedIn(() => svc)
    after(() => svc.close())

    const query = (format: string, acceptEncoding?: string, sql = SQL): Promise<Raw> =>
      request(`${base}/v1/api/sql:${format}`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'content-type': 'application/json', ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
        body: JSON.stringify({ sql }),
      })

    for (const format of TEXT_FORMATS) {
      it(`gzip round trip of a ${format} result, identical to the identity body`, async () => {
        const plain = await query(format)
        const gz = await query(format, 'gzip, deflate')
        expect(plain.headers['content-encoding']).to.equal(undefined)
        expect(plain.headers.vary).to.match(/accept-encoding/i)
        expect(gz.headers['content-encoding']).to.equal('gzip')
        expect(gz.headers.vary).to.match(/accept-encoding/i)
        expect(gz.raw.length).to.be.below(plain.raw.length)
        expect(Number(gz.headers['content-length'])).to.equal(gz.raw.length)
        expect(decoded(gz)).to.equal(plain.raw.toString('utf8'))
      })
    }

    it('sends Brotli to a client that prefers it, and honours q=0', async () => {
      const plain = decoded(await query('json.rows'))
      const br = await query('json.rows', 'br')
      expect(br.headers['content-encoding']).to.equal('br')
      expect(decoded(br)).to.equal(plain)
      expect((await query('json.rows', 'gzip;q=0')).headers['content-encoding']).to.equal(undefined)
      expect((await query('json.rows', 'gzip;q=0, br')).headers['content-encoding']).to.equal('br')
      expect((await query('json.rows', 'br;q=0.2, gzip;q=0.8')).headers['content-encoding']).to.equal('gzip')
      expect((await query('json.rows', '*;q=0, identity')).headers['content-encoding']).to.equal(undefined)
    })

    it('leaves small bodies uncompressed', async () => {
      const res = await query('json', 'gzip', 'select 1 as one')
      expect(res.headers['content-encoding']).to.equal(undefined)
      expect(JSON.parse(res.raw.toString())).to.deep.equal({ one: [1] })
    })

    it('keeps a small error body plain and JSON-correct', async () => {
      const res = await query('json', 'gzip', 'select nonsense from')
      expect(res.status).to.equal(400)
      expect(res.headers['content-encoding']).to.equal(undefined)
      expect(JSON.parse(decoded(res))).to.include({ code: 'sql_error' })
    })
  })

  describe('the middleware', () => {
    async function serve(app: Koa): Promise<{ url: string; close: () => void }> {
      const server = http.createServer(app.callback())
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
    }

    function appWith(config: { compression: boolean; compressionMinBytes: number }, handler: Koa.Middleware): Koa {
      const app = new Koa()
      app.silent = true
      app.use(compressResponses(config))
      app.use(errorMiddleware(() => undefined))
      app.use(handler)
      return app
    }

    const BIG = JSON.stringify({ words: Array.from({ length: 500 }, (_, i) => `word ${i}`) })

    it('compresses error bodies too: they still decode to the JSON error', async () => {
      const server = await serve(
        appWith({ compression: true, compressionMinBytes: 0 }, () => {
          throw new AppError('INVALID_PARAMETER', 'The parameter "x" must be a number.')
        }),
      )
      try {
        const res = await request(server.url, { headers: { 'accept-encoding': 'gzip' } })
        expect(res.status).to.equal(400)
        expect(res.headers['content-encoding']).to.equal('gzip')
        expect(JSON.parse(decoded(res))).to.include({ error: 'The parameter "x" must be a number.', code: 'invalid_parameter' })
      } finally {
        server.close()
      }
    })

    it('applies the byte threshold, skips other types and bodies already encoded', async () => {
      const server = await serve(
        appWith({ compression: true, compressionMinBytes: BIG.length }, (ctx) => {
          if (ctx.path === '/small') ctx.body = BIG.slice(1)
          else if (ctx.path === '/png') {
            ctx.type = 'image/png'
            ctx.body = Buffer.alloc(5000)
          } else if (ctx.path === '/encoded') {
            ctx.type = 'application/json'
            ctx.set('Content-Encoding', 'gzip')
            ctx.body = zlib.gzipSync(BIG)
          } else {
            ctx.type = 'application/json'
            ctx.body = BIG
          }
        }),
      )
      try {
        const gzip = { 'accept-encoding': 'gzip' }
        expect((await request(`${server.url}/big`, { headers: gzip })).headers['content-encoding']).to.equal('gzip')
        expect((await request(`${server.url}/small`, { headers: gzip })).headers['content-encoding']).to.equal(undefined)
        expect((await request(`${server.url}/png`, { headers: gzip })).headers['content-encoding']).to.equal(undefined)
        const encoded = await request(`${server.url}/encoded`, { headers: gzip })
        // Encoded once, not twice.
        expect(decoded(encoded)).to.equal(BIG)
        const head = await request(`${server.url}/big`, { method: 'HEAD', headers: gzip })
        expect(head.headers['content-encoding']).to.equal(undefined)
      } finally {
        server.close()
      }
    })

    it('does nothing with COMPRESSION=0', async () => {
      const server = await serve(
        appWith({ compression: false, compressionMinBytes: 0 }, (ctx) => {
          ctx.type = 'application/json'
          ctx.body = BIG
        }),
      )
      try {
        const res = await request(server.url, { headers: { 'accept-encoding': 'gzip, br' } })
        expect(res.headers['content-encoding']).to.equal(undefined)
        expect(res.raw.toString()).to.equal(BIG)
      } finally {
        server.close()
      }
    })
  })

  describe('configuration', () => {
    it('is on by default with a 1 KB threshold, and both settings are checked', () => {
      const config = loadConfig({})
      expect(config.compression).to.equal(true)
      expect(config.compressionMinBytes).to.equal(1024)
      expect(loadConfig({ COMPRESSION: '0', COMPRESSION_MIN_BYTES: '0' })).to.include({ compression: false, compressionMinBytes: 0 })
      expect(() => loadConfig({ COMPRESSION: 'gzip' })).to.throw(/COMPRESSION must be 1 or 0/)
      expect(() => loadConfig({ COMPRESSION_MIN_BYTES: '-1' })).to.throw(/COMPRESSION_MIN_BYTES must be a whole number/)
    })
  })
})
