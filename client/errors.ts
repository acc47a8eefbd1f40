/**
 * The one exception the client throws for anything the API refused or could not do: the API's
 * own `code` and `message` (its "error" or dbm "msg"), the HTTP status, the `detail` 4xx answers
 * may carry and the `requestId` 5xx answers carry. Connection failures are TabulaErrors too, with
 * status 0 and code `connection_failed`, so a caller needs one `catch` and one `switch`.
 */

/** Every code the API documents, plus the client's own for a failed connection or a bad answer. */
export type TabulaErrorCode =
  | 'bad_json'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'unknown_transaction'
  | 'sql_error'
  | 'sql_not_read_only'
  | 'sql_multiple_statements'
  | 'parse_error'
  | 'expr_error'
  | 'check_error'
  | 'bad_credentials'
  | 'credentials_expired'
  | 'no_session'
  | 'forbidden'
  | 'unknown_version'
  | 'not_found'
  | 'unknown_table'
  | 'unknown_directory'
  | 'unknown_user'
  | 'unknown_group'
  | 'unknown_company'
  | 'unknown_role'
  | 'no_result'
  | 'method_not_allowed'
  | 'already_logged_in'
  | 'table_exists'
  | 'already_exists'
  | 'directory_not_empty'
  | 'limit_reached'
  | 'stopped'
  | 'body_too_large'
  | 'result_too_large'
  | 'query_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unavailable'
  | 'timeout'
  | 'internal'
  | 'cross_site'
  /** The client's own: no connection, or it broke before an answer. */
  | 'connection_failed'
  /** The client's own: an answer that is not what the API sends (a proxy's page, cut JSON). */
  | 'bad_response'
  /** The client's own: the caller's AbortSignal fired. */
  | 'aborted'

/**
 * The HTTP status each code has on the API's ordinary endpoints. api/dbm answers its failures
 * with HTTP 200 and rc 1; the client gives such an error the status the same code has elsewhere,
 * so `status` means the same whichever endpoint failed.
 */
export const CODE_STATUS: Readonly<Record<string, number>> = {
  bad_json: 400,
  missing_parameter: 400,
  invalid_parameter: 400,
  unknown_transaction: 400,
  sql_error: 400,
  sql_not_read_only: 400,
  sql_multiple_statements: 400,
  parse_error: 400,
  expr_error: 400,
  check_error: 400,
  bad_credentials: 401,
  credentials_expired: 403,
  no_session: 403,
  forbidden: 403,
  unknown_version: 404,
  not_found: 404,
  unknown_table: 404,
  unknown_directory: 404,
  unknown_user: 404,
  unknown_group: 404,
  unknown_company: 404,
  unknown_role: 404,
  no_result: 404,
  method_not_allowed: 405,
  already_logged_in: 409,
  table_exists: 409,
  already_exists: 409,
  directory_not_empty: 409,
  limit_reached: 409,
  stopped: 409,
  body_too_large: 413,
  result_too_large: 413,
  query_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
  cross_site: 403,
}

export interface TabulaErrorInit {
  readonly status: number
  readonly code: TabulaErrorCode | (string & {})
  readonly message: string
  readonly detail?: Readonly<Record<string, unknown>>
  readonly requestId?: string
  /** Seconds the API asked to wait (Retry-After), when it did. */
  readonly retryAfter?: number
  readonly cause?: unknown
}

export class TabulaError extends Error {
  override readonly name = 'TabulaError'
  /** HTTP status; 0 when there was no answer (connection_failed, aborted). */
  readonly status: number
  readonly code: TabulaErrorCode | (string & {})
  readonly detail: Readonly<Record<string, unknown>>
  readonly requestId: string | undefined
  readonly retryAfter: number | undefined

  constructor(init: TabulaErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.status = init.status
    this.code = init.code
    this.detail = init.detail ?? {}
    this.requestId = init.requestId
    this.retryAfter = init.retryAfter
  }

  /** The session is missing or gone: log in again. */
  get isSessionError(): boolean {
    return this.code === 'no_session'
  }

  /** No answer, or the service failed (5xx): the request may succeed later. */
  get isServiceError(): boolean {
    return this.status === 0 ? this.code === 'connection_failed' : this.status >= 500
  }
}
