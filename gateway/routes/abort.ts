/**
 * What bounds a request's query while it runs: the client going away (the query is stopped, as
 * `!stop` would), `!stop` itself, the time limit (QUERY_TIMEOUT_MS, or lower with `timeout_`),
 * and the number of queries its session and its user run at once (MAX_QUERIES_PER_SESSION,
 * MAX_QUERIES_PER_USER). The query service joins the signals and the time limit into the query's
 * one signal (query/query-signal.ts).
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { Deps } from '../deps.js'
import { requestParams, timeoutParam, type RequestTimeout } from '../http/params.js'
import type { RunControl } from '../query/run-control.js'
import { authState } from '../auth/require-session.js'
import { acquireQuerySlot, type ProgressCell } from '../query/running/index.js'
import { countQueryStop } from '../observe/index.js'
import { probeHalfClosed } from '../http/half-close.js'

/** An AbortSignal that fires when the client goes away before its response is finished. */
export function clientGoneSignal(ctx: Context): AbortSignal {
  const ac = new AbortController()
  ctx.res.once('close', () => {
    if (ctx.res.writableFinished) return
    countQueryStop(ctx, 'disconnect')
    ac.abort(new AppError('STOPPED', 'The client closed the connection; the query was stopped.'))
  })
  // A client that half-closed may still be waiting: it is asked, and only one gone closes res.
  probeHalfClosed(ctx)
  return ac.signal
}

/** The request's time limit (`timeout_`, held to QUERY_TIMEOUT_MS); a bad value is a 400. */
export function requestTimeout(ctx: Context, deps: Deps): RequestTimeout {
  return timeoutParam(requestParams(ctx), deps.config.queryTimeoutMs)
}

/**
 * Runs a request's query: within one of its session's and its user's slots (429 when either's are all taken),
 * under `stopKey` so that `!stop` reaches it and `!status` follows it, stopped when the client
 * goes away, and with the request's time limit.
 *
 * The slot is given back as soon as the work settles, which is before the running record goes
 * (so once `!status` says nothing runs, the slot is free too), and at the latest before the
 * request answers (a stopped request answers before its work has wound down).
 */
export async function runForRequest<T>(
  ctx: Context,
  deps: Deps,
  stopKey: string,
  run: (control: RunControl) => Promise<T>,
  timeout: RequestTimeout = requestTimeout(ctx, deps),
): Promise<T> {
  const { session } = authState(ctx)
  const lease = await acquireQuerySlot(deps.store, session, { perSession: deps.config.maxQueriesPerSession, perUser: deps.config.maxQueriesPerUser })
  try {
    // The user goes with every task, so that the pool serves users in turn (gateway/pool/fair-share.ts).
    return await stoppable(ctx, deps, stopKey, (signals, progress) => run({ signals, progress, timeout, user: session.uid }).finally(() => lease.release()))
  } finally {
    await lease.release()
  }
}

/**
 * Runs a query under `key` so that `!stop` can reach it and `!status` can follow it (`progress`
 * goes into the task); the client going away stops it too.
 */
function stoppable<T>(ctx: Context, deps: Deps, key: string, run: (signals: readonly AbortSignal[], progress: ProgressCell) => Promise<T>): Promise<T> {
  const gone = clientGoneSignal(ctx)
  return deps.stops.track(key, (stop, progress) => run([stop, gone], progress))
}
