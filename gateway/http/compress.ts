/**
 * Response compression with node:zlib: gzip or Brotli when the client's Accept-Encoding allows
 * (its q-values honoured, `identity` when nothing else is acceptable), for the text-like types
 * the service writes (JSON, text, HTML, CSV). Small bodies (under COMPRESSION_MIN_BYTES) go as
 * they are; streamed bodies are always compressed, through a compressor that flushes after every
 * chunk so the client sees rows as they are produced and nothing is held back. A body that
 * already carries a Content-Encoding is left alone. Placed outside the error middleware, so
 * error bodies are compressed like any other.
 */
import type { Context, Next } from 'koa'
import { Readable, Stream, pipeline } from 'node:stream'
import zlib from 'node:zlib'
import type { Config } from '../../shared/config.js'

const COMPRESSIBLE = /^(application\/(json|csv|xml|vnd\.apache\.arrow\.stream)|text\/)/i

/**
 * Brotli's default quality (11) is far too slow for a live response; 4 compresses about as well
 * as gzip's default, in less time.
 */
const BROTLI_QUALITY = 4

type Coding = 'gzip' | 'br'

function compressor(coding: Coding): zlib.Gzip | zlib.BrotliCompress {
  return coding === 'gzip'
    ? zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH })
    : zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
}

function compressWhole(coding: Coding, body: Buffer | string): Buffer {
  return coding === 'gzip' ? zlib.gzipSync(body) : zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
}

/**
 * A whole body at least this large is compressed by the streaming compressor, whose work runs on
 * libuv's thread pool, instead of gzipSync on the event loop (about 14 ms per MB).
 */
const SYNC_MAX_BYTES = 64 * 1024

function byteLength(body: unknown): number | null {
  if (typeof body === 'string') return Buffer.byteLength(body)
  if (Buffer.isBuffer(body)) return body.length
  return null
}

export function compressResponses(config: Pick<Config, 'compression' | 'compressionMinBytes'>) {
  return async function compress(ctx: Context, next: Next): Promise<void> {
    await next()
    if (!config.compression) return
    const body: unknown = ctx.body
    if (body === null || body === undefined || ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304) return
    if (!COMPRESSIBLE.test(ctx.response.type)) return
    // Whatever this client gets, a cache must not give it to a client that accepts otherwise.
    ctx.vary('Accept-Encoding')
    if (ctx.response.get('Content-Encoding')) return
    const stream = body instanceof Stream
    const size = byteLength(body)
    if (!stream && (size === null || size < config.compressionMinBytes)) return
    const coding = ctx.acceptsEncodings('gzip', 'br', 'identity')
    if (coding !== 'gzip' && coding !== 'br') return
    ctx.set('Content-Encoding', coding)
    ctx.remove('Content-Length')
    if (stream) {
      // pipeline: when the response is cut short the compressor is destroyed, and so is the body.
      ctx.body = pipeline(body as Readable, compressor(coding), () => undefined)
    } else if (size! >= SYNC_MAX_BYTES) {
      ctx.body = pipeline(Readable.from([body as Buffer | string]), compressor(coding), () => undefined)
    } else {
      ctx.body = compressWhole(coding, body as Buffer | string)
    }
  }
}
