/**
 * The HTTP API's answers as they travel (docs/endpoints.md): the gateway builds them, client/
 * and the workbench read them, all three from these declarations. Field names are the wire's
 * (snake_case where the API has it).
 *
 * Declarations only (.d.ts), on purpose: the workbench bundles what it imports (gateway/ui/build.mjs),
 * and a declaration file brings types and nothing else, so it cannot grow
 * code the browser would then fail to load. Because `skipLibCheck` skips .d.ts files, a test
 * (test/shared/api-answers.test.ts) type-checks this one on its own.
 */

/** `!status`: whether a query runs under a result, for how long, and how far it got. */
export interface QueryStatus {
  readonly running: boolean
  readonly elapsed_ms: number | null
  readonly done: number | null
  readonly total: number | null
  /** What done and total count; null when they are unknown (SQL, or a run not started yet). */
  readonly unit: 'ops' | null
  /** done / total, rounded to four decimals; null when unknown. */
  readonly fraction: number | null
  /** For api/sql, the engine running the query once the gateway has chosen (as X-Tabula-Engine); null otherwise. */
  readonly engine: 'columnar' | 'sqlite' | null
}

/** `!stop`: whether something was running (the stopped request itself answers 409 `stopped`). */
export interface StopAnswer {
  readonly stopped: boolean
}

/** `!login`: the session's three parts, from which the cookie `session=<uid>|<sid>|<epw>` is built. */
export interface LoginAnswer {
  readonly uid: string
  readonly sid: string
  readonly epw: string
}

/** `!login` with `kill=auth`: the password is checked and no session is made. */
export type AuthCheckAnswer = Pick<LoginAnswer, 'uid'>

/** `!logout`, in the 1010data style (rc as a string). */
export interface LogoutAnswer {
  readonly rc: '0'
  readonly msg: string
}

/** `api/new` and `api/new/{app}`: the new instance's tag, its path below `api/`. */
export interface NewInstanceAnswer {
  readonly tag: number
}

/**
 * `api/dbm`: rc 0 with the transaction's value, or rc 1 with the message and code of a refusal
 * (HTTP 200 either way; a service failure is an ordinary error answer instead).
 */
export type DbmReply = { readonly rc: 0; readonly value: unknown } | { readonly rc: 1; readonly msg: string; readonly code: string }

/**
 * Every error answer's body (and `!login`'s whatever its status). `detail` only on 4xx answers
 * that have one; `requestId` always, also sent as X-Request-Id.
 */
export interface ErrorBody {
  readonly error: string
  readonly code: string
  readonly detail?: Readonly<Record<string, unknown>>
  readonly requestId: string
}
