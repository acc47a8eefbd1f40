/**
 * `!stop`: asks whichever gateway runs the query named by `key` to stop it (through the Store, so
 * it works across gateways) and answers whether something was running. The stopped request
 * itself answers 409 `stopped`.
 */
import type { Context } from 'koa'
import type { Deps } from '../deps.js'
import type { ProgressCell } from '../stop/index.js'
import { renderValue } from '../format/index.js'
import type { ParsedPath } from '../path.js'
import { requestParams, stringParam } from '../params.js'
import { send } from '../respond.js'
import { clientGoneSignal } from './abort.js'

export async function answerStop(ctx: Context, deps: Deps, key: string): Promise<void> {
  const force = ['1', 'true', 'yes'].includes((stringParam(requestParams(ctx), 'force_') ?? '').toLowerCase())
  const outcome = await deps.stops.requestStop(key, { force })
  send(ctx, renderValue(outcome, (ctx.state.route as ParsedPath).format))
}

/**
 * Runs a query under `key` so that `!stop` can reach it and `!status` can follow it (`progress`
 * goes into the task); the client going away stops it too.
 */
export function stoppable<T>(ctx: Context, deps: Deps, key: string, run: (signal: AbortSignal, progress: ProgressCell) => Promise<T>): Promise<T> {
  const gone = clientGoneSignal(ctx)
  return deps.stops.track(key, (stop, progress) => run(AbortSignal.any([stop, gone]), progress))
}
