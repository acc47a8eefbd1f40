/**
 * One request to the API: the URL grammar (`{version}/api/{path}:{format}`), the session cookie
 * built from its three parts as the public quickapp-devbox client builds it, error answers turned
 * into TabulaError, and retries where they are safe.
 *
 * Retries: only requests marked `read` (GETs of results, listings, metadata) are ever sent twice,
 * on a failed connection, a 502 or a 503, and on a 429 or 503 that says Retry-After, with a
 * bounded, growing pause. A query, a dbm transaction, a login or anything else that changes
 * something is sent once: the first copy may have run even when its answer was lost.
 */
import { parseJsonKeepingBigints } from './json-bigint.js'
import { CODE_STATUS, TabulaError } from './errors.js'

export type Format = 'json' | 'json.rows' | 'json.keyed' | 'text' | 'csv' | 'arrow' | 'parquet'

/** The formats answered as bytes (a Uint8Array), and the media type each is sent with. */
export const BINARY_TYPES = { arrow: 'application/vnd.apache.arrow.stream', parquet: 'application/vnd.apache.parquet' } as const

/** What the Accept header asks for, per format. */
const ACCEPT: Record<Format, string> = {
  json: 'application/json',
  'json.rows': 'application/json',
  'json.keyed': 'application/json',
  text: 'text/plain',
  csv: 'text/csv',
  ...BINARY_TYPES,
}

/** The three parts of a session, as `!login` answers them. */
export interface SessionParts {
  readonly uid: string
  readonly sid: string
  readonly epw: string
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface RetryPolicy {
  /** Further attempts after the first (reads only). Default 3. */
  readonly retries: number
  /** First pause in ms, doubled each time. Default 200. */
  readonly baseDelayMs: number
  /** Longest pause, and the longest Retry-After that is waited for (longer: the error is thrown). */
  readonly maxDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 10_000 }

export interface RequestSpec {
  readonly method: 'GET' | 'POST'
  /** Path below `api/`, segments already in their final form (`sql/!data`, `7`, `dbm`). */
  readonly path: string
  readonly format?: Format
  readonly query?: Readonly<Record<string, string | number | undefined>>
  /** A JSON body (POST). Without one, a POST sends an empty JSON body, as the public client does. */
  readonly json?: unknown
  /** A form body instead (login). */
  readonly form?: Readonly<Record<string, string>>
  /** CSV bytes as the body instead (upload_chunk's rows, sent as they are). */
  readonly csv?: Uint8Array
  /** Or Parquet or Arrow bytes as the body (upload rows, sent as they are). */
  readonly binary?: { readonly format: keyof typeof BINARY_TYPES; readonly bytes: Uint8Array }
  /** True for requests that change nothing: only these are retried. */
  readonly read?: boolean
  readonly signal?: AbortSignal
}

export class Transport {
  session: SessionParts | null = null

  constructor(
    /** `http(s)://host[:port][/prefix]/{version}/api`, without a trailing slash. */
    readonly apiBase: string,
    private readonly fetchImpl: FetchLike,
    private readonly retry: RetryPolicy,
  ) {}

  url(path: string, format?: Format, query?: RequestSpec['query']): string {
    const suffix = format ? `:${format}` : ''
    const qs = new URLSearchParams()
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) qs.set(k, String(v))
    const q = qs.toString()
    return `${this.apiBase}${path === '' ? '' : '/'}${path}${suffix}${q ? `?${q}` : ''}`
  }

  /** Sends the request (again, for reads, when that is safe) and answers the response body. */
  async send(spec: RequestSpec): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(spec)
      } catch (err) {
        const wait = spec.read ? this.retryDelay(err, attempt) : null
        if (wait === null) throw err
        await sleep(wait, spec.signal)
      }
    }
  }

  /** How long to wait before trying a read again, or null when it must not be tried again. */
  private retryDelay(err: unknown, attempt: number): number | null {
    if (!(err instanceof TabulaError) || attempt >= this.retry.retries) return null
    const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt)
    if (err.code === 'connection_failed' || err.status === 502) return backoff
    if (err.status === 503 || err.status === 429) {
      if (err.retryAfter !== undefined) return err.retryAfter * 1000 <= this.retry.maxDelayMs ? Math.max(err.retryAfter * 1000, 50) : null
      return err.status === 503 ? backoff : null
    }
    return null
  }

  private async once(spec: RequestSpec): Promise<unknown> {
    const headers: Record<string, string> = { Accept: ACCEPT[spec.format ?? 'json'] }
    if (this.session) headers.Cookie = `session=${this.session.uid}|${this.session.sid}|${this.session.epw}`
    let body: string | Uint8Array | undefined
    if (spec.method === 'POST') {
      if (spec.csv) {
        headers['Content-Type'] = 'text/csv'
        body = spec.csv
      } else if (spec.binary) {
        headers['Content-Type'] = BINARY_TYPES[spec.binary.format]
        body = spec.binary.bytes
      } else if (spec.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded'
        body = new URLSearchParams(spec.form as Record<string, string>).toString()
      } else {
        headers['Content-Type'] = 'application/json'
        body = spec.json === undefined ? '' : JSON.stringify(spec.json)
      }
    }
    let res: Response
    try {
      res = await this.fetchImpl(this.url(spec.path, spec.format, spec.query), { method: spec.method, headers, body, signal: spec.signal })
    } catch (err) {
      throw connectionError(err, spec.signal)
    }
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await res.arrayBuffer())
    } catch (err) {
      throw connectionError(err, spec.signal)
    }
    const text = (): string => new TextDecoder().decode(bytes)
    if (!res.ok) throw errorFromResponse(res, text())
    if (spec.format === 'arrow' || spec.format === 'parquet') return bytes
    if (spec.format === 'text' || spec.format === 'csv') return text()
    try {
      return parseJsonKeepingBigints(text())
    } catch {
      throw new TabulaError({ status: res.status, code: 'bad_response', message: `The answer of ${spec.path} is not JSON: ${text().slice(0, 200)}` })
    }
  }
}

function connectionError(err: unknown, signal?: AbortSignal): TabulaError {
  if (signal?.aborted) return new TabulaError({ status: 0, code: 'aborted', message: 'The request was aborted.', cause: err })
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))
  return new TabulaError({ status: 0, code: 'connection_failed', message: `Could not reach the service (${why}).`, cause: err })
}

/** Seconds from a Retry-After header (seconds or an HTTP date), if it has one. */
function retryAfterOf(res: Response): number | undefined {
  const h = res.headers.get('retry-after')
  if (h === null) return undefined
  if (/^\d+$/.test(h.trim())) return Number(h.trim())
  const at = Date.parse(h)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

export function errorFromResponse(res: Response, text: string): TabulaError {
  let body: Record<string, unknown> | null = null
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>
  } catch {
    // Not the API's JSON (a balancer's page, a cut answer): reported as such below.
  }
  const retryAfter = retryAfterOf(res)
  if (!body || typeof body.error !== 'string') {
    const code = res.status === 502 || res.status === 503 || res.status === 504 ? 'unavailable' : 'bad_response'
    return new TabulaError({ status: res.status, code, message: `HTTP ${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`, retryAfter })
  }
  return new TabulaError({
    status: res.status,
    code: typeof body.code === 'string' ? body.code : 'bad_response',
    message: body.error,
    detail: body.detail && typeof body.detail === 'object' ? (body.detail as Record<string, unknown>) : undefined,
    requestId: typeof body.requestId === 'string' ? body.requestId : undefined,
    retryAfter,
  })
}

/** An rc 1 dbm reply as an error, with the status its code has on other endpoints. */
export function dbmError(reply: { msg?: unknown; code?: unknown }): TabulaError {
  const code = typeof reply.code === 'string' ? reply.code : 'bad_response'
  return new TabulaError({ status: CODE_STATUS[code] ?? 400, code, message: typeof reply.msg === 'string' ? reply.msg : 'The transaction failed.' })
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new TabulaError({ status: 0, code: 'aborted', message: 'The request was aborted.' }))
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(new TabulaError({ status: 0, code: 'aborted', message: 'The request was aborted.' }))
      },
      { once: true },
    )
  })
}
