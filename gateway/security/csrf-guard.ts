/**
 * The one guard against cross-site request forgery (DESIGN principle 10), between body parsing
 * and the workbench pages: a request that writes (request-effect.ts) must be a POST, and one that
 * writes or changes instance state is refused when a browser marks it cross-site
 * (browser-origin.ts) and its origin is not in ALLOWED_ORIGINS. Reads pass untouched.
 */
import type { Context, Next } from 'koa'
import type { Config } from '../../shared/config.js'
import { AppError } from '../../shared/errors.js'
import { requestParams } from '../http/params.js'
import { crossSiteReason } from './browser-origin.js'
import { requestEffect } from './request-effect.js'
import { parsedRouteOf } from '../http/path.js'

const ACTING_METHODS = new Set(['GET', 'HEAD', 'POST'])

export function csrfGuard(config: Pick<Config, 'allowedOrigins'>) {
  const allowed: ReadonlySet<string> = new Set(config.allowedOrigins)
  // Synchronous: most requests are reads and pass on without a promise of this layer's own.
  return function guardCrossSite(ctx: Context, next: Next): Promise<void> {
    const route = parsedRouteOf(ctx)
    // Other methods (OPTIONS, PUT…) act on nothing: the router answers them 405.
    if (route === undefined || !ACTING_METHODS.has(ctx.method)) return next()
    const effect = requestEffect(route.segments, () => requestParams(ctx))
    if (effect === 'read') return next()
    refuseUnsafe(ctx, allowed, effect)
    return next()
  }
}

/**
 * The guard's rule for one request that changes or writes: a write takes POST, and neither is
 * accepted from a page of another site. Also called by a handler that learns only while it runs
 * that the request writes (an action `<do>` fired by variables a request set, dynamic-actions.ts).
 * @throws AppError METHOD_NOT_ALLOWED (a write sent as GET/HEAD) or CROSS_SITE
 */
export function refuseUnsafe(
  ctx: Context,
  allowed: ReadonlySet<string>,
  effect: 'change' | 'write',
  what = 'This request changes data (a table, the catalog, a user or a session)',
): void {
  if (effect === 'write' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
    throw new AppError('METHOD_NOT_ALLOWED', `${what}, so it takes POST, not ${ctx.method}; send the same parameters in a POST body.`, { allow: ['POST'] })
  }
  const reason = crossSiteReason(ctx, allowed)
  if (reason !== null) {
    throw new AppError(
      'CROSS_SITE',
      `This request would change data or state and ${reason}, so it was refused. Use the workbench on this service's own address, a client that is not a browser, or ask the operator to add the page's origin to ALLOWED_ORIGINS.`,
      { effect },
    )
  }
}
