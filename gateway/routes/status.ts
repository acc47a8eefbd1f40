/**
 * `!status`: whether the query of an endpoint or instance is running (on any gateway), for how
 * long, and how far it got. Read from the running records in the Store, so polling it never
 * touches the query itself; see gateway/query/running/status.ts for the shape.
 */
import type { Context } from 'koa'
import type { Deps } from '../deps.js'
import { renderValue } from '../format/index.js'
import { send } from '../http/respond.js'
import { routeOf } from '../http/path.js'

export async function answerStatus(ctx: Context, deps: Deps, key: string): Promise<void> {
  const status = await deps.stops.status(key)
  // A poll must never be answered from a cache: the whole point is the answer of now.
  ctx.set('Cache-Control', 'no-store')
  send(ctx, renderValue(status, routeOf(ctx).format, { title: 'status' }))
}
