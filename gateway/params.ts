/**
 * Request parameters arrive as query-string values, form fields or JSON members. They are merged
 * into one object with the body winning over the query string. The client-side meta keys `fmt_`
 * and `method_` (which the browser client serialises into every body) are dropped.
 */
import type { Context } from 'koa'
import { AppError } from '../shared/errors.js'

export type Params = Readonly<Record<string, unknown>>

const IGNORED = new Set(['fmt_', 'method_'])

function lastValue(v: unknown): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v
}

/** Builds the parameters of a request from its query string and its parsed body. */
export function requestParams(ctx: Context): Params {
  const out: Record<string, unknown> = Object.create(null)
  for (const [k, v] of Object.entries(ctx.query)) if (!IGNORED.has(k)) out[k] = lastValue(v)
  const body: unknown = (ctx.request as { body?: unknown }).body
  if (body !== undefined && body !== null && body !== '') {
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('INVALID_PARAMETER', 'The request body must be a JSON object (or form fields), not a JSON array or scalar.')
    }
    // A repeated form field arrives as an array (the last one counts); a JSON member that is an
    // array is a value of its own (dbm's cmd, upload data) and is kept whole.
    const json = ctx.is('json') !== false
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
    if (opts.required) throw new AppError('MISSING_PARAMETER', `The parameter "${name}" is missing; send it as a form field, JSON member or query-string value.`, { parameter: name })
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
