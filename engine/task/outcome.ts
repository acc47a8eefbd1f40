/**
 * What a task answers: a result, an error, or a fallback. A fallback is not a failure: the way
 * the task ran cannot answer exactly, and the query should run another way. There are three:
 *  - sqlite: compiled SQL (engine/sql/compile) met data it cannot answer exactly as SQLite would
 *    (an integer beyond 2^53, a tie in a window's order…): the query runs on sql.js.
 *  - widen: an int `+ - *` left the 32-bit range (expr/widening.ts): the query runs again with
 *    that operator computing in big integers.
 *  - whole: the data do not fit the split plan (engine/parallel: text extremes, dictionaries that
 *    differ by part…): the query runs whole, in one piece.
 * Deep in a kernel a fallback can only be thrown, as a FallbackError; the worker's entry
 * (engine/worker.ts) answers it as a value, and the gateway decides what it means
 * (gateway/query/fallbacks.ts).
 */
import type { ErrorPayload } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'

export type Fallback =
  | { readonly kind: 'sqlite'; readonly why: string }
  /** `operator`: the operator's key (expr/widening.ts); `overflow`: the query's error if it cannot widen. */
  | { readonly kind: 'widen'; readonly operator: string; readonly overflow: ErrorPayload }
  | { readonly kind: 'whole'; readonly why: string }

/** A worker's answer to a task, plain data (errors never cross the thread boundary as classes). */
export type TaskOutcome =
  { readonly ok: true; readonly result: ResultSet } | { readonly ok: false; readonly error: ErrorPayload } | { readonly ok: false; readonly fallback: Fallback }

const messageOf = (f: Fallback): string => {
  switch (f.kind) {
    case 'sqlite':
      return `Not run on the columnar engine: ${f.why}.`
    case 'whole':
      return `Not run in parallel: ${f.why}.`
    case 'widen':
      return f.overflow.message
  }
}

/** The one error that carries a fallback out of the code that met it. */
export class FallbackError extends Error {
  override readonly name = 'FallbackError'
  constructor(readonly fallback: Fallback) {
    super(messageOf(fallback))
  }
}

/** The fallback `e` carries, or null when it is an error. */
export const fallbackOf = (e: unknown): Fallback | null => (e instanceof FallbackError ? e.fallback : null)

/** Compiled SQL cannot answer these data exactly as SQLite would: sql.js answers. */
export const sqlDeclined = (why: string): FallbackError => new FallbackError({ kind: 'sqlite', why })

/** The data do not fit the split plan: the query runs whole. */
export const splitDeclined = (why: string): FallbackError => new FallbackError({ kind: 'whole', why })
