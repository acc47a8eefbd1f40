/**
 * Request bodies: JSON and form fields become ctx.request.body. koa-body reads every kind; the
 * common case of the API, a small JSON body sent plainly, is read here instead, with what
 * koa-body does for it and nothing else: koa-body asks type-is about four kinds of body and
 * passes the stream through three libraries on every request, a noticeable part of a small query.
 *
 * The plain case: POST, PUT or PATCH; `Content-Type: application/json` with no parameter or only
 * `charset=utf-8`; no Content-Encoding and no Transfer-Encoding; a Content-Length within the
 * limit. Everything else (forms, other JSON types or charsets, compressed or chunked bodies)
 * goes to koa-body as before. The result is the same as koa-body's (non-strict JSON, as it is
 * configured): the text decoded as UTF-8 without a byte-order mark, an empty body as '', a body
 * that does not parse refused with JSON.parse's message, and an object with a `__proto__` member
 * refused as `@hapi/bourne` (koa-body's parser) refuses it.
 */
import type { Context, Next } from 'koa'
import { koaBody } from 'koa-body'
import type { IncomingMessage } from 'node:http'
import { DEFAULTS, type Config } from '../../shared/config.js'
import { AppError } from '../../shared/errors.js'
import { withinBodyDeadline } from './body-deadline.js'
import { bodyLengthMismatch } from '../http/client-errors.js'
import { BINARY_MEDIA_TYPES } from '../ingest/binary-tables.js'

const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH'])
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8'])
/** A CSV body: upload rows sent as they are (dbm.ts), kept as bytes. */
const CSV_BODY = /^text\/csv(?:\s*;\s*charset=utf-8)?$/i

/** The formats of upload rows sent as the body itself. */
export type UploadBodyFormat = 'csv' | 'parquet' | 'arrow'

/** The upload format of a Content-Type, or null. Parquet and Arrow are bytes: no parameters. */
function uploadFormatOf(type: string | undefined): UploadBodyFormat | null {
  if (type === undefined) return null
  if (CSV_BODY.test(type)) return 'csv'
  const bare = type.trim().toLowerCase()
  for (const [format, types] of Object.entries(BINARY_MEDIA_TYPES)) if (types.includes(bare)) return format as UploadBodyFormat
  return null
}

/** What ctx.request.body holds for an upload body: the bytes and their format, for the route to take. */
export interface UploadBody {
  readonly uploadBytes: Buffer
  readonly uploadFormat: UploadBodyFormat
}

export const isUploadBody = (body: unknown): body is UploadBody =>
  typeof body === 'object' && body !== null && (body as UploadBody).uploadBytes instanceof Buffer

/** An error koa's and this service's error handling read as koa-body's (status, type). */
function bodyError(status: number, message: string, type: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type })
}

/** How messages name each kind of upload body. */
const UPLOAD_NAMES: Record<UploadBodyFormat, string> = { csv: 'text/csv', parquet: 'Parquet', arrow: 'Arrow' }

/** The declared length when the body is plain JSON this reader takes, else null. */
function plainJsonLength(ctx: Context, limit: number): number | null {
  const headers = ctx.req.headers
  const type = headers['content-type']
  if (type === undefined || !PLAIN_JSON.has(type.toLowerCase())) return null
  const encoding = headers['content-encoding']
  if ((encoding !== undefined && encoding.toLowerCase() !== 'identity') || headers['transfer-encoding'] !== undefined) return null
  const declared = headers['content-length']
  if (declared === undefined || !/^\d{1,15}$/.test(declared)) return null
  const length = Number(declared)
  return length <= limit ? length : null
}

/**
 * The Content-Length of a body read whole here (upload rows: CSV, Parquet, Arrow), checked against the limit: without
 * one (a chunked or compressed body) or over the limit, the request is refused with what to do.
 */
function declaredLength(ctx: Context, limit: number, what: string): number {
  const headers = ctx.req.headers
  const encoding = headers['content-encoding']
  if ((encoding !== undefined && encoding.toLowerCase() !== 'identity') || headers['transfer-encoding'] !== undefined) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `A ${what} body is read as sent: give it a Content-Length, and no Content-Encoding or Transfer-Encoding.`)
  }
  const declared = headers['content-length']
  if (declared === undefined || !/^\d{1,15}$/.test(declared))
    throw new AppError('INVALID_PARAMETER', `A ${what} body needs a Content-Length header giving its bytes.`)
  const length = Number(declared)
  if (length > limit) {
    throw new AppError(
      'BODY_TOO_LARGE',
      `The ${what} body has ${length} bytes, more than the ${limit} bytes a request may have (MAX_BODY_BYTES); send smaller chunks.`,
      {
        limit,
      },
    )
  }
  return length
}

/** The body's bytes, exactly `length` of them (fewer or more is a 400, as in raw-body). */
function readExactly(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const done = (err: Error | null, body?: Buffer): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted).off('close', onClose)
      if (err) reject(err)
      else resolve(body!)
    }
    const onData = (chunk: Buffer): void => {
      received += chunk.length
      chunks.push(chunk)
    }
    const onEnd = (): void => {
      if (received !== length || bodyLengthMismatch(req)) done(bodyError(400, 'request size did not match content length', 'request.size.invalid'))
      else done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received))
    }
    const onError = (err: Error): void => done(err)
    const onAborted = (): void => done(bodyError(400, 'request aborted', 'request.aborted'))
    const onClose = (): void => {
      // A body found longer than declared (client-errors.ts) is complete but must not be used.
      if (!req.complete || bodyLengthMismatch(req)) onAborted()
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted).on('close', onClose)
  })
}

/** A key spelling `__proto__`, escapes included: the text bourne looks for before it scans. */
const SUSPECT_PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/

/** Refuses any object in the parsed value that has an own `__proto__` member. */
function refuseProtoMembers(value: object): void {
  let level: object[] = [value]
  while (level.length > 0) {
    const next: object[] = []
    for (const node of level) {
      if (Object.prototype.hasOwnProperty.call(node, '__proto__')) throw new SyntaxError('Object contains forbidden prototype property')
      for (const member of Object.values(node)) if (member !== null && typeof member === 'object') next.push(member)
    }
    level = next
  }
}

/** koa-body's non-strict JSON: '' for an empty body, else the parsed value. */
export function parseJsonBody(bytes: Buffer): unknown {
  let text = bytes.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (text === '') return ''
  try {
    const value: unknown = JSON.parse(text)
    if (value !== null && typeof value === 'object' && SUSPECT_PROTO.test(text)) refuseProtoMembers(value)
    return value
  } catch (err) {
    throw Object.assign(err as Error, { status: 400, statusCode: 400, expose: true, body: text })
  }
}

/**
 * qs (koa-body's form parser) keeps the first `parameterLimit` fields and drops the rest without
 * a word; told to throw instead, it throws a RangeError, turned here into a 413 naming the limit.
 * Arrays get the same bound, so `a=1&a=2…` counts like any other field rather than by qs's
 * default of 20.
 */
function formFieldLimit(maxFields: number) {
  return {
    queryString: { parameterLimit: maxFields, arrayLimit: maxFields, throwOnLimitExceeded: true },
    onError(err: Error): never {
      if (err instanceof RangeError && /limit exceeded/i.test(err.message)) {
        throw new AppError('BODY_TOO_LARGE', `The form has more than ${maxFields} fields (MAX_FORM_FIELDS); send fewer fields, or the data as one JSON body.`, {
          maxFields,
        })
      }
      throw err
    },
  }
}

/** The body types koa-body reads (its default JSON types, and forms). */
const READ_TYPES = ['json', '+json', 'application/csp-report', 'urlencoded']

/**
 * A body that carries something in a type nothing reads (text/plain, multipart, XML, none at
 * all) would be dropped without a word and the request would fail later as if a parameter were
 * missing: refuse it here, saying which types are read. An empty body has no type to check.
 */
function refuseUnreadBody(ctx: Context): void {
  const { 'content-length': length, 'transfer-encoding': chunked } = ctx.req.headers
  const carries = chunked !== undefined || (length !== undefined && length.trim() !== '0')
  if (!carries || ctx.request.is(READ_TYPES) !== false) return
  const type = ctx.req.headers['content-type']
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${type === undefined ? 'The request body has no Content-Type' : `The request body's Content-Type "${type.slice(0, 100)}" is not one the service reads`}: ` +
      'send parameters as application/json or application/x-www-form-urlencoded (or in the query string); ' +
      'api/dbm uploads also take text/csv, Parquet and Arrow bodies.',
    { contentType: type ?? null },
  )
}

export function requestBodies(config: Pick<Config, 'maxBodyBytes'> & Partial<Pick<Config, 'bodyTimeoutMs' | 'maxFormFields'>>) {
  const bodyTimeoutMs = config.bodyTimeoutMs ?? Number(DEFAULTS.BODY_TIMEOUT_MS)
  const general = koaBody({
    json: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonStrict: false,
    jsonLimit: config.maxBodyBytes,
    formLimit: config.maxBodyBytes,
    ...formFieldLimit(config.maxFormFields ?? Number(DEFAULTS.MAX_FORM_FIELDS)),
  })
  return function readBody(ctx: Context, next: Next): Promise<void> {
    if (!PARSED_METHODS.has(ctx.method)) return next()
    // The request goes on only with a body as long as declared: one cut short by the client's
    // Content-Length (client-errors.ts) is refused, whichever reader read it.
    const checked: Next = () => {
      if (bodyLengthMismatch(ctx.req)) throw bodyError(400, 'request size did not match content length', 'request.size.invalid')
      return next()
    }
    const uploadFormat = uploadFormatOf(ctx.req.headers['content-type'])
    if (uploadFormat !== null) {
      const uploadLength = declaredLength(ctx, config.maxBodyBytes, UPLOAD_NAMES[uploadFormat])
      return withinBodyDeadline(
        ctx,
        bodyTimeoutMs,
        (proceed) =>
          readExactly(ctx.req, uploadLength).then((bytes) => {
            ;(ctx.request as { body?: unknown }).body = { uploadBytes: bytes, uploadFormat } satisfies UploadBody
            return proceed()
          }),
        checked,
      )
    }
    refuseUnreadBody(ctx)
    const length = plainJsonLength(ctx, config.maxBodyBytes)
    if (length === null) return withinBodyDeadline(ctx, bodyTimeoutMs, (proceed) => general(ctx, proceed), checked)
    return withinBodyDeadline(
      ctx,
      bodyTimeoutMs,
      (proceed) =>
        readExactly(ctx.req, length).then((bytes) => {
          // Typed by koa-body's declarations as JSON only; a body of '' is possible too.
          const request = ctx.request as { body?: unknown }
          request.body = parseJsonBody(bytes)
          return proceed()
        }),
      checked,
    )
  }
}
