/**
 * The service's own paths, outside `/{version}/api`: `/healthz`, `/readyz` and `/metrics`
 * (see health.ts and metrics.ts). They sit below the error middleware, so a refusal is an
 * ordinary error body with a request id.
 *
 * /metrics holds no table data, user names or paths (route names only), so it may be open on
 * the service port; with METRICS_TOKEN set it answers only `Authorization: Bearer <token>`.
 */
import type { Context, Next } from 'koa'
import { createHash, timingSafeEqual } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { Deps } from '../deps.js'
import { answerHealthz, answerReadyz } from './health.js'
import { METRICS_CONTENT_TYPE } from './metrics.js'

const READ_METHODS = ['GET', 'HEAD']

function onlyRead(ctx: Context): void {
  if (!READ_METHODS.includes(ctx.method)) {
    throw new AppError('METHOD_NOT_ALLOWED', `${ctx.path} takes GET or HEAD, not ${ctx.method}.`, { allow: READ_METHODS })
  }
}

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(presented), digest(expected))
}

function requireMetricsToken(ctx: Context, token: string | null): void {
  if (token === null) return
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))
  if (match && sameToken(match[1], token)) return
  ctx.set('WWW-Authenticate', 'Bearer realm="metrics"')
  throw new AppError(
    'BAD_CREDENTIALS',
    'GET /metrics needs the header "Authorization: Bearer <METRICS_TOKEN>" with the token this service was configured with.',
  )
}

const SERVICE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

export function serviceEndpoints(deps: Deps) {
  // Other paths pass straight on, without an async layer (and its promise) of their own.
  return function answerServicePaths(ctx: Context, next: Next): Promise<void> {
    return SERVICE_PATHS.has(ctx.path) ? answerServicePath(ctx) : next()
  }

  async function answerServicePath(ctx: Context): Promise<void> {
    switch (ctx.path) {
      case '/healthz':
        onlyRead(ctx)
        return answerHealthz(ctx, deps)
      case '/readyz':
        onlyRead(ctx)
        return answerReadyz(ctx, deps)
      case '/metrics':
        onlyRead(ctx)
        requireMetricsToken(ctx, deps.config.metricsToken)
        ctx.set('Cache-Control', 'no-store')
        ctx.type = METRICS_CONTENT_TYPE
        ctx.body = await deps.observe.metrics.render()
        return
    }
  }
}
