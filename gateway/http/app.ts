/**
 * createApp(deps) builds the Koa application and never listens, so tests drive it directly and
 * server.ts owns the process. Middleware order: request id, access log and metrics → security
 * headers → CORS (ALLOWED_ORIGINS) → errors → paths outside the API (`/healthz`, `/readyz`,
 * `/metrics`, workbench assets `/ui/…`) → API path parsing → body → cross-site guard → workbench
 * pages → routes.
 */
import Koa, { type Context, type Next } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { Deps } from '../deps.js'
import { errorMiddleware } from './errors.js'
import { requestContext, SERVICE_PATHS, serviceEndpoints } from '../observe/index.js'
import { compressResponses } from './compress.js'
import { useBodyLogger } from './respond.js'
import { parseApiPath, parsedRouteOf } from './path.js'
import { createRouter } from '../routes/index.js'
import { requestBodies } from '../routes/request-body.js'
import { ASSET_PREFIX, uiAssets } from '../ui/assets.js'
import { securityHeaders } from '../ui/headers.js'
import { corsForAllowedOrigins } from '../security/cors.js'
import { csrfGuard } from '../security/csrf-guard.js'
import { workbenchPages } from '../ui/page-views.js'

/** Parses `/{version}/api/…:{format}` and points the router at the canonical path. */
function apiPath(deps: Deps) {
  return function parsePath(ctx: Context, next: Next): Promise<void> {
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.redirect(`/${deps.config.apiVersions[0]}/api`)
      return Promise.resolve()
    }
    const route = parseApiPath(ctx.path, deps.config.apiVersions)
    if (!route) {
      throw new AppError('NOT_FOUND', `No such endpoint "${ctx.path}"; API paths look like /${deps.config.apiVersions[0]}/api/sql:json.`)
    }
    ctx.state.route = route // read back through path.ts
    ctx.path = '/api' + route.segments.map((s) => '/' + encodeURIComponent(s)).join('')
    return next()
  }
}

/**
 * Paths outside `/{version}/api`: the service's own (`/healthz`, `/readyz`, `/metrics`) and the
 * workbench's assets (`/ui/…`). One layer tells them from API paths, which pass straight on
 * without an async layer (and its promise) of their own.
 */
function outsideApi(deps: Deps) {
  const service = serviceEndpoints(deps)
  const asset = uiAssets()
  return function answerOutsideApi(ctx: Context, next: Next): Promise<void> {
    if (SERVICE_PATHS.has(ctx.path)) return service(ctx)
    if (ctx.path.startsWith(ASSET_PREFIX)) return asset(ctx)
    return next()
  }
}

function notFound(ctx: Context): void {
  const route = parsedRouteOf(ctx)
  const v = route?.version ?? ''
  throw new AppError('NOT_FOUND', `No such endpoint "${ctx.originalUrl.split('?')[0]}"; see /${v}/api:json for the list of endpoints.`)
}

export function createApp(deps: Deps): Koa {
  // maxIpsCount 1: ctx.ip is the address our balancer appended to X-Forwarded-For, not whatever
  // the client put in front of it (the login throttle counts failures per ctx.ip).
  const app = new Koa({ proxy: deps.config.trustProxy, maxIpsCount: 1 })
  const router = createRouter(deps)
  // First: the request id, the access log line and the request metrics cover everything below.
  app.use(requestContext(deps))
  app.use(securityHeaders())
  // Before the error layer, so a refusal is readable by an allowed origin too.
  app.use(corsForAllowedOrigins(deps.config))
  // Outside the error middleware, so error bodies are compressed too.
  app.use(compressResponses(deps.config))
  app.use(errorMiddleware(deps.log))
  app.use(outsideApi(deps))
  app.use(apiPath(deps))
  app.use(requestBodies(deps.config))
  // After the body (run's savetable and instance variables may be in it), before anything acts.
  app.use(csrfGuard(deps.config))
  app.use(workbenchPages(deps))
  app.use(router.routes())
  app.use(notFound)
  // Koa would print errors it sees; ours are all handled by errorMiddleware.
  app.silent = true
  useBodyLogger(app, deps.log)
  return app
}
