/**
 * `!stop`: asks whichever gateway runs the query named by `key` to stop it (through the Store, so
 * it works across gateways) and answers whether something was running. The stopped request
 * itself answers 409 `stopped`.
 */
import type { Context } from 'koa'
import type { Deps } from '../deps.js'
import { renderValue } from '../format/index.js'
import { requestParams, stringParam } from '../http/params.js'
import { send } from '../http/respond.js'
import { routeOf } from '../http/path.js'

export async function answerStop(ctx: Context, deps: Deps, key: string): Promise<void> {
  const force = ['1', 'true', 'yes'].includes((stringParam(requestParams(ctx), 'force_') ?? '').toLowerCase())
  const outcome = await deps.stops.requestStop(key, { force })
  send(ctx, renderValue(outcome, routeOf(ctx).format))
}
