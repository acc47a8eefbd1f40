/**
 * Streaming result bodies (gateway/format/paged.ts, gateway/http/respond.ts): a selection rendered
 * piece by piece gives the same bytes as renderResult in every format, a body many times larger
 * than the heap growth it causes streams through a real HTTP server (plain and gzip), and a
 * renderer that fails before or after its first byte is answered as respond.ts documents.
 */
import { expect } from 'chai'
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import zlib from 'node:zlib'
import Koa from 'koa'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, NA_INT, type ColumnMeta } from '../../shared/table.js'
import { collectBody, FORMATS, renderResult, type Format } from '../../gateway/format/index.js'
import { PIECE_ROWS, renderPaged, type PagedRows } from '../../gateway/format/paged.js'
import { compressResponses } from '../../gateway/http/compress.js'
import { errorMarker, send, sendRows, useBodyLogger } from '../../gateway/http/respond.js'

/** A full garbage collection, so heapUsed counts live memory only (works without --expose-gc). */
const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
})()

const WORDS = ['', 'alpha', 'ünïcödé', '日本語', '👍🏽', 'tab\there', 'line\nbreak', '"q"\\', '<b>&amp;</b>', 'wide '.repeat(9)]

const COLS: readonly ColumnMeta[] = [
  columnMeta({ name: 'n', type: 'int' }),
  columnMeta({ name: 'day', type: 'date' }),
  columnMeta({ name: 'x', type: 'float', format: 'type:num;dec:2' }),
  columnMeta({ name: 's', type: 'text', label: 'Some\ntext' }),
]

/** Rows [from, to) of a synthetic result, computed on demand: the whole never exists at once. */
function rowsOf(from: number, to: number): ResultSet {
  const n = to - from
  const ints = new Int32Array(n)
  const days = new Int32Array(n)
  const xs = new Float64Array(n)
  const texts: string[] = []
  for (let i = 0; i < n; i++) {
    const r = from + i
    ints[i] = r % 17 === 0 ? NA_INT : r * 31
    days[i] = 20240101 + (r % 28)
    xs[i] = r % 19 === 0 ? NaN : r / 7
    texts.push(WORDS[r % WORDS.length] + (r % 3 === 0 ? '' : String(r)))
  }
  const columns: ResultColumn[] = [
    { kind: 'int', data: ints },
    { kind: 'int', data: days },
    { kind: 'float', data: xs },
    { kind: 'text', data: texts },
  ]
  return { cols: COLS, columns, rowCount: n }
}

/** A source of `rowCount` rows whose `failOnRead`-th read (counting from 1) fails. */
function synthetic(rowCount: number, failOnRead = Infinity): PagedRows {
  let reads = 0
  return {
    cols: COLS,
    rowCount,
    async read(from, to) {
      if (++reads === failOnRead) throw new Error('injected failure of the row source')
      return rowsOf(from, to)
    },
  }
}

/** How many reads a rendering of the format makes of a source of `rowCount` rows. */
async function readsOf(format: Format, rowCount: number): Promise<number> {
  let reads = 0
  const source = synthetic(rowCount)
  await collectBody(renderPaged({ ...source, read: (from, to) => (reads++, source.read(from, to)) }, format))
  return reads
}

/** An HTTP server whose one route sends `rows` through sendRows (with compression, as in the app). */
async function serve(rows: () => PagedRows, logs: Record<string, unknown>[] = []): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa()
  app.silent = true
  app.use(compressResponses({ compression: true, compressionMinBytes: 1024 }))
  app.use(async (ctx) => {
    ctx.state.requestId = 'req-1234'
    const format = ctx.path.slice(1) as Format
    const source = rows()
    await sendRows(ctx, source, { from: 0, to: source.rowCount }, format)
  })
  useBodyLogger(app, (line) => logs.push(line))
  const server = http.createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

interface Received {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** Whether the body arrived whole (the chunked encoding was ended properly). */
  readonly complete: boolean
  readonly body: Buffer
}

/**
 * GETs a URL and reads its body. `onChunk` sees each decoded piece instead of keeping it (the
 * body is then not returned), so a test can consume a huge body without holding it.
 */
function get(url: string, headers: Record<string, string> = {}, onChunk?: (chunk: Buffer) => void): Promise<Received> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const parts: Buffer[] = []
        const coding = res.headers['content-encoding']
        const decoded = coding === 'gzip' ? res.pipe(zlib.createGunzip()) : coding === 'br' ? res.pipe(zlib.createBrotliDecompress()) : res
        let settled = false
        const finish = (): void => {
          if (settled) return
          settled = true
          resolve({ status: res.statusCode ?? 0, headers: res.headers, complete: res.complete, body: Buffer.concat(parts) })
        }
        decoded.on('data', (chunk: Buffer) => (onChunk ? onChunk(chunk) : parts.push(chunk)))
        decoded.on('end', finish)
        decoded.on('error', finish)
        // A body cut off: the decompressor never sees an end; report what it let through.
        res.on('close', () => {
          if (!res.complete) setTimeout(finish, 50)
        })
      })
      .on('error', reject)
  })
}

describe('streamed result bodies', () => {
  describe('rendering piece by piece', () => {
    // Not a multiple of PIECE_ROWS, so the last piece is short, and above the stream threshold.
    const ROWS = 2 * PIECE_ROWS + 1234

    for (const format of FORMATS) {
      it(`gives the same bytes as renderResult (${format})`, async () => {
        const whole = await collectBody(renderResult(rowsOf(0, ROWS), format))
        const paged = renderPaged(synthetic(ROWS), format)
        expect(typeof paged.body).to.not.equal('string')
        expect(await collectBody(paged)).to.equal(whole)
        // A second iteration renders afresh, the same again.
        expect(await collectBody(paged)).to.equal(whole)
      })
    }

    it('reads the source a piece at a time, never the whole selection', async () => {
      const asked: number[] = []
      const source = synthetic(ROWS)
      const counting: PagedRows = { ...source, read: (from, to) => (asked.push(to - from), source.read(from, to)) }
      await collectBody(renderPaged(counting, 'json.rows'))
      expect(Math.max(...asked)).to.be.at.most(PIECE_ROWS)
    })
  })

  describe('memory', function () {
    this.timeout(120_000)
    // ~400,000 rows of json.rows is ~25 MB of body: far more than the allowed heap growth.
    const ROWS = 400_000
    let server: Awaited<ReturnType<typeof serve>>
    before(async () => {
      server = await serve(() => synthetic(ROWS))
    })
    after(() => server.close())

    for (const coding of ['identity', 'gzip'] as const) {
      it(`streams a body many times the size of its heap growth (${coding})`, async () => {
        collectGarbage()
        const base = process.memoryUsage().heapUsed
        let peak = 0
        let bytes = 0
        let count = 0
        const res = await get(`${server.url}/json.rows`, coding === 'gzip' ? { 'accept-encoding': 'gzip' } : {}, (chunk) => {
          bytes += chunk.length
          // Live memory while the body is under way (a collection first, so garbage is not counted).
          if (++count % 64 === 0) {
            collectGarbage()
            peak = Math.max(peak, process.memoryUsage().heapUsed - base)
          }
        })
        expect(res.status).to.equal(200)
        expect(res.headers['content-encoding']).to.equal(coding === 'gzip' ? 'gzip' : undefined)
        expect(bytes).to.be.above(20 * 2 ** 20)
        // The body is never held: live memory grows by a small fraction of it.
        console.log(`      peak live heap growth ${(peak / 2 ** 20).toFixed(1)} MiB for a ${(bytes / 2 ** 20).toFixed(1)} MiB body (${count} chunks)`)
        expect(count).to.be.above(64)
        expect(peak).to.be.below(bytes / 8)
      })
    }
  })

  describe('gzip', () => {
    it('a streamed body arrives gzip-decoded identical to the uncompressed one, in every format', async function () {
      this.timeout(60_000)
      const server = await serve(() => synthetic(3 * PIECE_ROWS))
      try {
        // Parquet is compressed already (snappy) and goes as it is.
        for (const format of FORMATS.filter((f) => f !== 'parquet')) {
          const plain = await get(`${server.url}/${format}`)
          const gz = await get(`${server.url}/${format}`, { 'accept-encoding': 'gzip' })
          expect(plain.headers['content-encoding']).to.equal(undefined)
          expect(gz.headers['content-encoding']).to.equal('gzip')
          expect(gz.headers.vary).to.match(/accept-encoding/i)
          const digest = (b: Buffer): string => createHash('sha256').update(b).digest('hex')
          expect(digest(gz.body), format).to.equal(digest(plain.body))
          expect(plain.complete && gz.complete).to.equal(true)
        }
      } finally {
        await server.close()
      }
    })
  })

  describe('a failing row source', () => {
    const ROWS = 3 * PIECE_ROWS
    let logs: Record<string, unknown>[]
    let server: Awaited<ReturnType<typeof serve>>
    // Which read fails, in the rendering of the request about to be made.
    let failOnRead = Infinity
    beforeEach(async () => {
      logs = []
      server = await serve(() => synthetic(ROWS, failOnRead), logs)
    })
    afterEach(() => server.close())

    const failureLogged = (when: 'after' | 'before'): void => {
      const line = logs.find((l) => l.msg === `response body failed ${when} it began`)
      expect(line, JSON.stringify(logs)).to.include({ level: 'error', requestId: 'req-1234', code: 'INTERNAL' })
      expect(String(line!.err)).to.contain('injected failure')
    }

    for (const coding of ['identity', 'gzip'] as const) {
      const headers: Record<string, string> = coding === 'gzip' ? { 'accept-encoding': 'gzip' } : {}

      it(`ends a text body with the error marker line (${coding})`, async () => {
        // The last read: text reads every piece twice (widths, then lines), so this is the
        // last piece of the second pass, after the header and most rows went out.
        failOnRead = await readsOf('text', ROWS)
        const res = await get(`${server.url}/text`, headers)
        expect(res.status).to.equal(200)
        const text = res.body.toString('utf8')
        expect(text.endsWith('\n#ERROR requestId=req-1234 code=internal Internal error\n')).to.equal(true)
        expect(text).to.match(/^ +n +day/)
        failureLogged('after')
      })

      it(`ends an HTML body with the error marker after closing the table (${coding})`, async () => {
        failOnRead = await readsOf('html', ROWS)
        const res = await get(`${server.url}/html`, headers)
        const html = res.body.toString('utf8')
        expect(html.endsWith(errorMarker('text/html', 'req-1234', 'internal', 'Internal error'))).to.equal(true)
        expect(html).to.contain('</tbody></table>\n<p class="error" role="alert">#ERROR requestId=req-1234 code=internal Internal error</p>')
        failureLogged('after')
      })

      for (const format of ['json', 'json.rows', 'json.keyed'] as const) {
        it(`cuts a ${format} body off, leaving invalid JSON and an incomplete transfer (${coding})`, async () => {
          failOnRead = await readsOf(format, ROWS)
          const res = await get(`${server.url}/${format}`, headers)
          expect(res.status).to.equal(200)
          expect(res.complete).to.equal(false)
          expect(res.body.length).to.be.above(0)
          expect(() => JSON.parse(res.body.toString('utf8'))).to.throw(SyntaxError)
          failureLogged('after')
        })
      }
    }

    for (const format of FORMATS) {
      it(`answers a proper JSON error when the source fails before the first byte (${format})`, async () => {
        failOnRead = 1
        const res = await get(`${server.url}/${format}`)
        expect(res.status).to.equal(500)
        expect(res.headers['content-type']).to.match(/^application\/json/)
        expect(JSON.parse(res.body.toString('utf8'))).to.deep.equal({ error: 'Internal error', code: 'internal', requestId: 'req-1234' })
        failureLogged('before')
      })
    }
  })

  it('send leaves small string bodies as they are', async () => {
    const app = new Koa()
    app.use(async (ctx) => send(ctx, renderResult(rowsOf(0, 3), 'json')))
    const server = http.createServer(app.callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const res = await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      expect(res.headers['content-length']).to.equal(String(res.body.length))
      expect(JSON.parse(res.body.toString()).n).to.have.length(3)
    } finally {
      server.close()
    }
  })
})
