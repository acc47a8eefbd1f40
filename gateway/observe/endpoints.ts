/**
 * The service's own paths, outside `/{version}/api`: `/healthz`, `/readyz` and `/metrics`
 * (see health.ts and metrics.ts). They sit below the error middleware, so a refusal is an
 * ordinary error body with a request id.
 *
 * /metrics holds no table data, user names or paths (route names only), so it may be open on
 * the service port; with METRICS_TOKEN set it answers only `Authorization: Bearer <token>`.
 */
import type { Context } from 'koa'
import { createHash, timingSafeEqual } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { Config } from '../../shared/config.js'
import { answerHealthz, answerReadyz, type ReadyServices } from './health.js'
import { METRICS_CONTENT_TYPE } from './metrics.js'
import type { Observe } from './state.js'

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

/** The paths answered here; app.ts sends a request to `serviceEndpoints`' answer only for these. */
export const SERVICE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

/** What the service paths read (named as in Deps, so the app passes its deps as they are). */
export interface ServiceEndpointServices extends ReadyServices {
  readonly config: Pick<Config, 'metricsToken'>
  readonly observe: Observe
}

/** Answers a request for one of SERVICE_PATHS. */
export function serviceEndpoints(services: ServiceEndpointServices) {
  return async function answerServicePath(ctx: Context): Promise<void> {
    switch (ctx.path) {
      case '/healthz':
        onlyRead(ctx)
        return answerHealthz(ctx, services.store)
      case '/readyz':
        onlyRead(ctx)
        return answerReadyz(ctx, services)
      case '/metrics':
        onlyRead(ctx)
        requireMetricsToken(ctx, services.config.metricsToken)
        ctx.set('Cache-Control', 'no-store')
        ctx.type = METRICS_CONTENT_TYPE
        ctx.body = await services.observe.metrics.render()
        return
    }
  }
}
