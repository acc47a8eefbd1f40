/**
 * The parsed API path of a request, read back where it is needed. `apiPath` (app.ts) parses it
 * once and keeps it on the request's state, which Koa types loosely; these two are the one place
 * that says what is kept there.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { ParsedPath } from './path.js'

/** The parsed path, if the request reached the API's path parser (middleware that runs for every request). */
export function parsedRouteOf(ctx: Context): ParsedPath | undefined {
  return ctx.state.route as ParsedPath | undefined
}

/** The parsed path of a request to an API route: its handlers run only after the parser accepted it. */
export function routeOf(ctx: Context): ParsedPath {
  const route = parsedRouteOf(ctx)
  if (route === undefined) throw new AppError('INTERNAL', `The handler of ${ctx.path} ran without its parsed API path.`)
  return route
}
