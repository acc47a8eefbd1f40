/**
 * createApp(deps) builds the Koa application and never listens, so tests drive it directly and
 * server.ts owns the process. Middleware order: security headers → errors → workbench assets
 * (`/ui/…`) → API path parsing → body → workbench pages → routes.
 */
import Koa, { type Context, type Next } from 'koa'
import { koaBody } from 'koa-body'
import { AppError } from '../shared/errors.js'
import type { Deps } from './deps.js'
import { errorMiddleware } from './errors.js'
import { parseApiPath } from './path.js'
import { createRouter } from './routes/index.js'
import { uiAssets } from './ui/assets.js'
import { securityHeaders } from './ui/headers.js'
import { workbenchPages } from './ui/page-views.js'

/** Parses `/{version}/api/…:{format}` and points the router at the canonical path. */
function apiPath(deps: Deps) {
  return async function parsePath(ctx: Context, next: Next): Promise<void> {
    if (ctx.path === '/healthz') {
      await deps.store.ping()
      ctx.type = 'application/json; charset=utf-8'
      ctx.body = JSON.stringify({ ok: true, store: deps.store.kind })
      return
    }
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      return ctx.redirect(`/${deps.config.apiVersions[0]}/api`)
    }
    const route = parseApiPath(ctx.path, deps.config.apiVersions)
    if (!route) {
      throw new AppError('NOT_FOUND', `No such endpoint "${ctx.path}"; API paths look like /${deps.config.apiVersions[0]}/api/sql:json.`)
    }
    ctx.state.route = route
    ctx.path = '/api' + route.segments.map((s) => '/' + encodeURIComponent(s)).join('')
    await next()
  }
}

function notFound(ctx: Context): void {
  const route = ctx.state.route as { version: string } | undefined
  const v = route?.version ?? ''
  throw new AppError('NOT_FOUND', `No such endpoint "${ctx.originalUrl.split('?')[0]}"; see /${v}/api:json for the list of endpoints.`)
}

export function createApp(deps: Deps): Koa {
  // maxIpsCount 1: ctx.ip is the address our balancer appended to X-Forwarded-For, not whatever
  // the client put in front of it (the login throttle counts failures per ctx.ip).
  const app = new Koa({ proxy: deps.config.trustProxy, maxIpsCount: 1 })
  const router = createRouter(deps)
  app.use(securityHeaders())
  app.use(errorMiddleware(deps.log))
  app.use(uiAssets())
  app.use(apiPath(deps))
  app.use(
    koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonStrict: false,
      jsonLimit: deps.config.maxBodyBytes,
      formLimit: deps.config.maxBodyBytes,
    }),
  )
  app.use(workbenchPages(deps))
  app.use(router.routes())
  app.use(notFound)
  // Koa would print errors it sees; ours are all handled by errorMiddleware.
  app.silent = true
  return app
}
