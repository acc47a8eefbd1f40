/**
 * The first middleware: everything thrown below it becomes an AppError, mapped to one HTTP
 * status from one table, and rendered as `{"error": message, "code": code}`. Messages of 4xx
 * errors are shown as they are (they tell the caller what to fix); 5xx errors show only
 * "Internal error" plus a request id, and the cause goes to the log. A request for HTML (no
 * format suffix) gets the same status with a page instead: the login page when it has no
 * session, otherwise the message on a workbench page.
 */
import type { Context, Next } from 'koa'
import { randomUUID } from 'node:crypto'
import type { ErrorBody } from '../../shared/api-answers.js'
import { AppError, type ErrorCode } from '../../shared/errors.js'
import { sessionCookieValues } from '../auth/cookie.js'
import { type ParsedPath, parsedRouteOf } from './path.js'
import type { AuthState } from '../auth/require-session.js'
import { errorPage, loginPage } from '../ui/error-pages.js'
import { stringLimitError } from '../format/string-limit.js'
import type { Logger } from '../logger.js'

export const STATUS = {
  BAD_JSON: 400,
  MISSING_PARAMETER: 400,
  INVALID_PARAMETER: 400,
  SQL_ERROR: 400,
  SQL_NOT_READ_ONLY: 400,
  SQL_MULTIPLE_STATEMENTS: 400,
  PARSE_ERROR: 400,
  EXPR_ERROR: 400,
  CHECK_ERROR: 400,
  BAD_CREDENTIALS: 401,
  CREDENTIALS_EXPIRED: 403,
  NO_SESSION: 403,
  FORBIDDEN: 403,
  CROSS_SITE: 403,
  UNKNOWN_VERSION: 404,
  NOT_FOUND: 404,
  UNKNOWN_TABLE: 404,
  UNKNOWN_DIRECTORY: 404,
  NO_RESULT: 404,
  METHOD_NOT_ALLOWED: 405,
  ALREADY_LOGGED_IN: 409,
  TABLE_EXISTS: 409,
  ALREADY_EXISTS: 409,
  DIRECTORY_NOT_EMPTY: 409,
  UNKNOWN_USER: 404,
  UNKNOWN_GROUP: 404,
  UNKNOWN_COMPANY: 404,
  UNKNOWN_ROLE: 404,
  UNKNOWN_TRANSACTION: 400,
  LIMIT_REACHED: 409,
  STOPPED: 409,
  CONFLICT: 409,
  BODY_TOO_LARGE: 413,
  BODY_TIMEOUT: 408,
  BODY_LENGTH_MISMATCH: 400,
  RESULT_TOO_LARGE: 413,
  QUERY_TOO_LARGE: 413,
  SQL_OUT_OF_MEMORY: 413,
  TABLE_TOO_LARGE: 413,
  CELL_TOO_LARGE: 413,
  ROW_TOO_LARGE: 413,
  VOLUME_FULL: 507,
  TOO_MANY_COLUMNS: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>

/** The wire form of a code: lower case, as in the reference's `"code": "bad_credentials"`. */
export const wireCode = (code: ErrorCode): string => code.toLowerCase()

/** Errors thrown by koa-body and Koa itself carry a status; keep their meaning. */
function fromHttpError(err: { status?: number; statusCode?: number; message?: string; type?: string }): AppError | null {
  const status = err.status ?? err.statusCode
  if (status === 413) return new AppError('BODY_TOO_LARGE', 'The request body is larger than the limit (MAX_BODY_BYTES); send less data.')
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json or application/x-www-form-urlencoded.')
  if (status === 400 && err.type === 'request.size.invalid') {
    return new AppError(
      'BODY_LENGTH_MISMATCH',
      'The request body is not as long as its Content-Length declares; Content-Length must count the bytes of the body as sent (UTF-8), not its characters.',
    )
  }
  if (status === 400) {
    const hint = err.message ?? 'The request body could not be read.'
    return /json/i.test(hint) || err.type === 'entity.parse.failed'
      ? new AppError('BAD_JSON', `The request body is not valid JSON: ${hint}. Send a JSON object, or no body.`)
      : new AppError('INVALID_PARAMETER', `The request body could not be read: ${hint}`)
  }
  return null
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  const tooLong = stringLimitError(err)
  if (tooLong) return tooLong
  if (err && typeof err === 'object') {
    const mapped = fromHttpError(err as Record<string, never>)
    if (mapped) return mapped
  }
  return new AppError('INTERNAL', 'Internal error', {}, { cause: err })
}

/**
 * Renders an error body. Every one carries the request id (also the X-Request-Id header), so a
 * caller can quote it and an operator find the request's log lines, and the cause of a 5xx.
 */
export function errorBody(e: AppError, requestId: string): ErrorBody {
  const status = STATUS[e.code]
  return {
    error: status >= 500 && e.code === 'INTERNAL' ? 'Internal error' : e.message,
    code: wireCode(e.code),
    ...(status < 500 && Object.keys(e.detail).length > 0 && { detail: e.detail }),
    requestId,
  }
}

/**
 * Errors that only one engine raises: their answers say which engine it was, as successful SQL
 * answers do (X-Tabula-Engine), so a client sees that sql.js ran out of memory, not the columnar engine.
 */
const ENGINE_OF: Partial<Record<ErrorCode, string>> = { SQL_OUT_OF_MEMORY: 'sqlite' }

/** Codes that mean "log in (again)": a browser gets the login page for them. */
const LOGIN_CODES: ReadonlySet<ErrorCode> = new Set(['NO_SESSION', 'CREDENTIALS_EXPIRED'])

/** `!login` and `!logout` answer JSON whatever the suffix (login.ts): their errors too. */
function wantsHtml(route: ParsedPath | undefined): route is ParsedPath {
  if (route?.format !== 'html') return false
  const [first, second] = route.segments
  return !(route.segments.length === 2 && first === 'index' && (second === 'login' || second === 'logout'))
}

/** The HTML page of an error, for a request without a format suffix. */
function htmlError(ctx: Context, route: ParsedPath, e: AppError, requestId: string): string {
  const rendered = LOGIN_CODES.has(e.code)
    ? loginPage({ version: route.version, expired: sessionCookieValues(ctx.get('cookie')).length > 0 })
    : errorPage({
        version: route.version,
        uid: (ctx.state.auth as AuthState | undefined)?.session.uid ?? null,
        status: STATUS[e.code],
        body: errorBody(e, requestId),
      })
  return rendered.body as string
}

export function errorMiddleware(log: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    // The id gateway/observe/request-id.ts gave the request; a fresh one when used without it.
    const requestId = (ctx.state.requestId as string | undefined) ?? randomUUID()
    ctx.state.requestId = requestId
    try {
      await next()
    } catch (err) {
      const e = toAppError(err)
      const status = STATUS[e.code]
      if (status >= 500) log({ level: 'error', requestId, code: e.code, path: ctx.path, detail: e.detail, err: String((e.cause as Error)?.stack ?? e.stack) })
      ctx.status = status
      if (e.code === 'METHOD_NOT_ALLOWED' && Array.isArray(e.detail.allow)) ctx.set('Allow', e.detail.allow.join(', '))
      const engine = ENGINE_OF[e.code]
      if (engine !== undefined) ctx.set('X-Tabula-Engine', engine)
      // Throttles and full queues say when to come back (detail.retryAfterSeconds).
      const retryAfter = e.detail.retryAfterSeconds
      if (typeof retryAfter === 'number' && retryAfter > 0) ctx.set('Retry-After', String(Math.ceil(retryAfter)))
      const route = parsedRouteOf(ctx)
      if (wantsHtml(route)) {
        ctx.type = 'text/html; charset=utf-8'
        ctx.body = htmlError(ctx, route, e, requestId)
        return
      }
      ctx.type = 'application/json; charset=utf-8'
      ctx.body = JSON.stringify(errorBody(e, requestId))
    }
  }
}
