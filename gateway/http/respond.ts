/**
 * Writes a rendered body to the response, streaming it when the renderer produced a stream.
 *
 * A streamed body is pulled one chunk at a time, only when the connection has taken the previous
 * one (a Readable whose _read asks the renderer for the next chunk), so memory holds a chunk or
 * two whatever the size of the body. When the renderer fails:
 * - before its first chunk, nothing has been sent: the response becomes an ordinary JSON error
 *   (status from the error's code, `{"error", "code", "requestId"}`), or the caller's own answer
 *   for that case (`instead`: a saved query result that cannot be sent back, saved-answer.ts);
 * - after it, the status line is gone, so the body itself says so. Text ends with the line
 *   `#ERROR requestId=<id> code=<code> <message>` (after a newline, so it stands on its own
 *   line); HTML closes the table and ends with `<p class="error" role="alert">#ERROR
 *   requestId=<id> code=<code> <message></p>`; JSON is cut off: the connection is destroyed
 *   without the last chunk of the chunked encoding, and since only a rendering's last chunk
 *   closes its brackets, what arrived never parses, and the client sees an aborted transfer.
 *   (A marker written into JSON would either be invalid anyway or, worse, make a short but
 *   complete document.)
 * Either way the failure is logged with the request id.
 */
import type Koa from 'koa'
import type { Context } from 'koa'
import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { errorBody, STATUS, toAppError, wireCode } from './errors.js'
import type { Logger } from '../logger.js'
import type { Format, PagedRows, PageInfo, Rendered, RowRange } from '../format/index.js'
import { escapeHtml, renderPaged, renderResult, STREAM_THRESHOLD } from '../format/index.js'

const BODY_LOG = Symbol('tabula.bodyLog')

/** Lets send log bodies that fail while streaming (called once by createApp). */
export function useBodyLogger(app: Koa, log: Logger): void {
  ;(app.context as unknown as Record<symbol, Logger>)[BODY_LOG] = log
}

/** What to answer, with status 200, when a streamed rendering fails before its first chunk. */
export type AnswerInstead = (err: unknown) => Rendered & { readonly body: string }

export function send(ctx: Context, rendered: Rendered, status = 200, instead?: AnswerInstead): void {
  ctx.status = status
  ctx.type = rendered.type
  ctx.body = typeof rendered.body === 'string' ? rendered.body : new RenderedStream(ctx, rendered.body, instead)
}

/**
 * Rows [from, to) of a result that can be read in parts (a kept result, a stored table): small
 * ranges are fetched whole and rendered, large ones stream piece by piece (format/paged.ts).
 */
export async function sendRows(ctx: Context, source: Pick<PagedRows, 'cols' | 'read'>, range: RowRange, format: Format, page?: PageInfo): Promise<void> {
  const { from, to } = range
  if (to - from <= STREAM_THRESHOLD) return send(ctx, renderResult(await source.read(from, to), format, { page }))
  const rows: PagedRows = { cols: source.cols, rowCount: to - from, read: (a, b) => source.read(from + a, from + b) }
  send(ctx, renderPaged(rows, format, page))
}

/** The marker a streamed text or HTML body ends with when its rendering failed part way. */
export function errorMarker(type: string, requestId: string, code: string, message: string): string {
  const line = `#ERROR requestId=${requestId} code=${code} ${message.replace(/[\r\n]+/g, ' ')}`
  return type.startsWith('text/html') ? `\n</tbody></table>\n<p class="error" role="alert">${escapeHtml(line)}</p>\n` : `\n${line}\n`
}

/** A rendered body as a byte stream that asks for the next chunk only when it is wanted. */
class RenderedStream extends Readable {
  readonly #ctx: Context
  readonly #chunks: AsyncIterator<string | Uint8Array>
  /** Whether any chunk has been handed on (after that, the response has begun). */
  #begun = false
  #pulling = false
  readonly #instead: AnswerInstead | undefined

  constructor(ctx: Context, body: AsyncIterable<string | Uint8Array>, instead?: AnswerInstead) {
    super()
    this.#ctx = ctx
    this.#chunks = body[Symbol.asyncIterator]()
    this.#instead = instead
  }

  override _read(): void {
    if (this.#pulling) return
    this.#pulling = true
    this.#chunks.next().then(
      (step) => {
        this.#pulling = false
        if (this.destroyed) return
        if (step.done) {
          this.push(null)
          return
        }
        this.#begun = true
        this.push(step.value)
      },
      (err: unknown) => {
        this.#pulling = false
        if (!this.destroyed) this.#fail(err)
      },
    )
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    // The client went away (or the response failed): stop rendering and let go of the source.
    this.#chunks.return?.().catch(() => undefined)
    callback(err)
  }

  #fail(err: unknown): void {
    const ctx = this.#ctx
    if (!this.#begun && !ctx.res.headersSent && this.#instead !== undefined) {
      const answer = this.#instead(err)
      ctx.res.statusCode = 200
      ctx.res.setHeader('Content-Type', answer.type)
      this.push(answer.body)
      this.push(null)
      return
    }
    const e = toAppError(err)
    const requestId = typeof ctx.state.requestId === 'string' ? ctx.state.requestId : randomUUID()
    const type = String(ctx.response.get('Content-Type'))
    const begun = this.#begun || ctx.res.headersSent
    const log = (ctx as unknown as Record<symbol, Logger | undefined>)[BODY_LOG]
    log?.({
      level: 'error',
      msg: begun ? 'response body failed after it began' : 'response body failed before it began',
      requestId,
      code: e.code,
      path: ctx.path,
      err: String((e.cause as Error | undefined)?.stack ?? e.stack),
    })
    const body = errorBody(e, requestId)
    if (!begun) {
      ctx.res.statusCode = STATUS[e.code]
      ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8')
      this.push(JSON.stringify(body))
      this.push(null)
    } else if (type.startsWith('text/')) {
      this.push(errorMarker(type, requestId, wireCode(e.code), String(body.error)))
      this.push(null)
    } else {
      // JSON: leave it unfinished and say so at the transport level too.
      this.destroy()
      ctx.res.destroy()
    }
  }
}

/**
 * Links to the same resource in the other formats, for HTML pages. The default is the path as
 * the client sent it: ctx.path has been rewritten to the router's canonical form by then.
 */
export function formatLinks(ctx: Context, path: string = ctx.originalUrl.split('?')[0]): { label: string; href: string }[] {
  const base = path.replace(/:[^/]*$/, '')
  const qs = ctx.querystring ? `?${ctx.querystring}` : ''
  return [
    { label: 'text', href: `${base}:text${qs}` },
    { label: 'json', href: `${base}:json${qs}` },
    { label: 'json.rows', href: `${base}:json.rows${qs}` },
    { label: 'json.keyed', href: `${base}:json.keyed${qs}` },
  ]
}
