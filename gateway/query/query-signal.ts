/**
 * The one signal a query runs under, made once per query by runOnPool (pool.ts). It aborts when
 * any of the request's signals does (`!stop`, the client gone), when the query's time limit
 * passes, or when the query gives itself up (a failed part of a split run stops the others), and
 * its reason is the query's answer. A whole run, and every part and merge of a split run, run
 * under it: one merge of signals and one timer per query, however many tasks it takes, and none
 * made again per task by the runner.
 */
import { AppError } from '../../shared/errors.js'
import type { RequestTimeout } from '../http/params.js'

/** The answer to a query stopped by its time limit, naming the limit that set it (runner.ts counts these). */
export function timeoutError(limit: RequestTimeout): AppError {
  const detail = { timeoutMs: limit.timeoutMs, limit: limit.timeoutLimit }
  if (limit.timeoutLimit === 'timeout_') {
    return new AppError(
      'TIMEOUT',
      `The query ran longer than ${limit.timeoutMs} ms, the limit this request set with timeout_, and was stopped; allow it more time (timeout_ up to QUERY_TIMEOUT_MS) or narrow it.`,
      detail,
    )
  }
  return new AppError('TIMEOUT', `The query ran longer than ${limit.timeoutMs} ms (QUERY_TIMEOUT_MS) and was stopped; narrow it or raise the limit.`, detail)
}

export class QuerySignal {
  readonly #controller = new AbortController()
  readonly #sources: readonly AbortSignal[]
  readonly #deadline: NodeJS.Timeout
  readonly #follow = (event: Event): void => this.abort((event.target as AbortSignal).reason)

  /** `sources`: the request's signals; `limit`: the query's time limit, armed now. */
  constructor(sources: readonly AbortSignal[], limit: RequestTimeout) {
    this.#sources = sources
    this.#deadline = setTimeout(() => this.abort(timeoutError(limit)), limit.timeoutMs)
    for (const source of sources) {
      if (source.aborted) this.abort(source.reason)
      else source.addEventListener('abort', this.#follow, { once: true })
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** Stops every task of the query with `reason`; the first reason stays. */
  abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason)
  }

  /** Disarms the time limit and stops following the request's signals, once the query settled. */
  dispose(): void {
    clearTimeout(this.#deadline)
    for (const source of this.#sources) source.removeEventListener('abort', this.#follow)
  }
}
