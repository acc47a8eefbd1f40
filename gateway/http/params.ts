/**
 * Request parameters arrive as query-string values, form fields or JSON members. They are merged
 * into one object with the body winning over the query string. The client-side meta keys `fmt_`
 * and `method_` (which the browser client serialises into every body) are dropped.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { isUploadBody } from '../routes/request-body.js'

export type Params = Readonly<Record<string, unknown>>

const IGNORED = new Set(['fmt_', 'method_'])

function lastValue(v: unknown): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v
}

/** The usual JSON type, matched without type-is (which parses the header on every call). */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset=utf-8)?$/i

/** Whether the body was sent as JSON (koa's ctx.is('json') for it), so arrays in it are values. */
function isJsonBody(ctx: Context): boolean {
  const type = ctx.req.headers['content-type']
  return type !== undefined && PLAIN_JSON.test(type) ? true : ctx.is('json') !== false
}

/** Builds the parameters of a request from its query string and its parsed body. */
export function requestParams(ctx: Context): Params {
  const out: Record<string, unknown> = Object.create(null)
  for (const [k, v] of Object.entries(ctx.query)) if (!IGNORED.has(k)) out[k] = lastValue(v)
  const body: unknown = (ctx.request as { body?: unknown }).body
  if (isUploadBody(body)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'A text/csv, Parquet or Arrow body is taken only by api/dbm for upload_table and upload_chunk (cmd in the query string); send other requests as JSON or form fields.',
    )
  }
  if (body !== undefined && body !== null && body !== '') {
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('INVALID_PARAMETER', 'The request body must be a JSON object (or form fields), not a JSON array or scalar.')
    }
    // A repeated form field arrives as an array (the last one counts); a JSON member that is an
    // array is a value of its own (dbm's cmd, upload data) and is kept whole.
    const json = isJsonBody(ctx)
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (!IGNORED.has(k)) out[k] = json ? v : lastValue(v)
    }
  }
  return out
}

/** A string parameter; numbers are accepted and turned into text. */
export function stringParam(params: Params, name: string, opts: { required: true }): string
export function stringParam(params: Params, name: string, opts?: { required?: false }): string | undefined
export function stringParam(params: Params, name: string, opts: { required?: boolean } = {}): string | undefined {
  const v = params[name]
  if (v === undefined || v === null) {
    if (opts.required)
      throw new AppError('MISSING_PARAMETER', `The parameter "${name}" is missing; send it as a form field, JSON member or query-string value.`, {
        parameter: name,
      })
    return undefined
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (typeof v !== 'string') throw new AppError('INVALID_PARAMETER', `The parameter "${name}" must be a string.`, { parameter: name })
  return v
}

/** A non-negative whole-number parameter (row numbers); empty means absent. */
export function rowParam(params: Params, name: string): number | undefined {
  const raw = params[name]
  if (raw === undefined || raw === null || raw === '') return undefined
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim())
  if (!Number.isInteger(n) || n < 0) {
    throw new AppError('INVALID_PARAMETER', `The parameter "${name}" must be a whole number of 0 or more (got "${String(raw)}").`, { parameter: name })
  }
  return n
}

/**
 * Refuses a query text (`xml`, `sql`) over MAX_QUERY_BYTES, measured in UTF-8 bytes, before
 * anything parses it: the parsers' cost grows with the text, and a megabyte of query is a mistake.
 */
export function checkQuerySize(name: string, text: string, maxBytes: number): void {
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: short texts need no count.
  if (text.length * 3 <= maxBytes) return
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes <= maxBytes) return
  throw new AppError(
    'QUERY_TOO_LARGE',
    `The parameter "${name}" is ${bytes} bytes long, more than the limit of ${maxBytes} bytes (MAX_QUERY_BYTES); send a shorter query.`,
    { parameter: name, bytes, limit: maxBytes },
  )
}

/** A 0/1 switch such as `truncate_`; absent or empty is off. */
export function flagParam(params: Params, name: string): boolean {
  const raw = (stringParam(params, name) ?? '').trim().toLowerCase()
  if (['1', 'true', 'yes'].includes(raw)) return true
  if (['0', 'false', 'no', ''].includes(raw)) return false
  throw new AppError('INVALID_PARAMETER', `The parameter "${name}" must be 0 or 1 (got "${raw}").`, { parameter: name })
}

/** Which limit set a query's time limit; the 504 message names it. */
export type TimeoutLimit = 'QUERY_TIMEOUT_MS' | 'timeout_'

/** A request's time limit: milliseconds, and which limit they come from (named in the 504 message). */
export interface RequestTimeout {
  readonly timeoutMs: number
  readonly timeoutLimit: TimeoutLimit
}

/**
 * `timeout_`: a whole number of milliseconds (1 or more) that lowers the service's limit for this
 * request; a larger value is held to `maxMs` (QUERY_TIMEOUT_MS), never raising it.
 */
export function timeoutParam(params: Params, maxMs: number): RequestTimeout {
  const raw = params.timeout_
  if (raw === undefined || raw === null || raw === '') return { timeoutMs: maxMs, timeoutLimit: 'QUERY_TIMEOUT_MS' }
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN
  if (!(ms >= 1)) {
    throw new AppError(
      'INVALID_PARAMETER',
      `The parameter "timeout_" must be a whole number of milliseconds, 1 or more (got "${typeof raw === 'string' ? raw : JSON.stringify(raw)}").`,
      { parameter: 'timeout_' },
    )
  }
  return ms < maxMs ? { timeoutMs: ms, timeoutLimit: 'timeout_' } : { timeoutMs: maxMs, timeoutLimit: 'QUERY_TIMEOUT_MS' }
}
