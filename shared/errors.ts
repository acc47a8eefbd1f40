/**
 * The one catalogue of error codes. Every failure the service reports carries one of these codes,
 * a message that tells the caller what to fix, and optional detail (line, column, parameter…).
 * Domain code throws AppError; only gateway/http/errors.ts knows about HTTP statuses.
 */
export const ERROR_CODES = {
  BAD_JSON: 'The request body is not valid JSON.',
  MISSING_PARAMETER: 'A required parameter is missing.',
  INVALID_PARAMETER: 'A parameter has a value that cannot be used.',
  SQL_ERROR: 'The SQL query could not be run.',
  SQL_NOT_READ_ONLY: 'Only one read-only statement (SELECT, WITH or VALUES) is allowed.',
  SQL_MULTIPLE_STATEMENTS: 'Only one SQL statement is allowed per request.',
  PARSE_ERROR: 'The query is not well-formed XML.',
  EXPR_ERROR: 'An expression in the query could not be parsed.',
  CHECK_ERROR: 'The query refers to something that does not exist or has the wrong type.',
  BAD_CREDENTIALS: 'Invalid user id or password.',
  CREDENTIALS_EXPIRED: 'The credentials have expired; log in again.',
  NO_SESSION: 'No valid session; log in again.',
  FORBIDDEN: 'You do not have permission for this action.',
  CROSS_SITE: 'A browser sent this state-changing request from another site; it was refused.',
  UNKNOWN_VERSION: 'Unknown API version.',
  NOT_FOUND: 'No such endpoint.',
  UNKNOWN_TABLE: 'No such table.',
  UNKNOWN_DIRECTORY: 'No such directory.',
  NO_RESULT: 'There is no result to read yet; run a query first.',
  METHOD_NOT_ALLOWED: 'This endpoint does not accept that HTTP method.',
  ALREADY_LOGGED_IN: 'The user already has a session.',
  TABLE_EXISTS: 'The table already exists.',
  ALREADY_EXISTS: 'An object with that name already exists.',
  DIRECTORY_NOT_EMPTY: 'The directory is not empty.',
  UNKNOWN_USER: 'Invalid user identification.',
  UNKNOWN_GROUP: 'No such group.',
  UNKNOWN_COMPANY: 'No such company.',
  UNKNOWN_ROLE: 'No such role.',
  UNKNOWN_TRANSACTION: 'Invalid transaction type.',
  LIMIT_REACHED: 'A limit set for the account or company has been reached.',
  STOPPED: 'The query was stopped.',
  CONFLICT: 'Others kept changing the object while this change was being made.',
  BODY_TOO_LARGE: 'The request body is too large.',
  BODY_TIMEOUT: 'The request body did not arrive in time.',
  BODY_LENGTH_MISMATCH: 'The request body is not as long as its Content-Length declares.',
  RESULT_TOO_LARGE: 'The result has more rows than the service allows.',
  QUERY_TOO_LARGE: 'The query text is longer than the service allows.',
  SQL_OUT_OF_MEMORY: 'The SQL query needed more memory than the service allows (SQL_MEMORY_MB).',
  TABLE_TOO_LARGE: 'The query needs a whole table larger than the table cache (TABLE_CACHE_MB).',
  CELL_TOO_LARGE: 'A value to save is larger than the service allows (MAX_CELL_BYTES).',
  ROW_TOO_LARGE: 'A row to save is larger than the service allows (MAX_ROW_BYTES).',
  VOLUME_FULL: 'The data volume is full; drop tables or free space.',
  TOO_MANY_COLUMNS: 'The result has more columns than the service allows.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body has a content type the service does not read.',
  TOO_MANY_REQUESTS: 'Too many requests; try again later.',
  UNAVAILABLE: 'The service is temporarily unavailable; try again later.',
  TIMEOUT: 'The query took longer than the time limit.',
  INTERNAL: 'Internal error.',
} as const

export type ErrorCode = keyof typeof ERROR_CODES

/** A plain-data form of an AppError, safe to send across threads and processes. */
export interface ErrorPayload {
  readonly code: ErrorCode
  readonly message: string
  readonly detail: Record<string, unknown>
}

export class AppError extends Error {
  override readonly name = 'AppError'
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CODES[code],
    readonly detail: Record<string, unknown> = {},
    opts?: { cause?: unknown },
  ) {
    super(message, opts)
  }
}

export const isErrorCode = (x: unknown): x is ErrorCode => typeof x === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, x)

export const toPayload = (e: AppError): ErrorPayload => ({ code: e.code, message: e.message, detail: e.detail })

export function fromPayload(p: ErrorPayload): AppError {
  return new AppError(isErrorCode(p.code) ? p.code : 'INTERNAL', p.message, p.detail ?? {})
}
