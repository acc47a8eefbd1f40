/**
 * The outermost middleware: gives every request an id, returns it in X-Request-Id, and once the
 * answer is ready counts the request (metrics.ts) and writes one access log line.
 *
 * An id a balancer or client sent is kept when it is well-formed, so one id follows a request
 * through every hop; anything else (too long, odd characters that could forge log or header
 * content) is replaced by a fresh UUID. Error bodies carry the same id (errors.ts).
 *
 * The access line names the route, not the query string: parameters may hold a password.
 */
import type { Context, Next } from 'koa'
import { randomUUID } from 'node:crypto'
import type { Logger } from '../logger.js'
import type { StopReason } from './metrics.js'
import { routeName } from './route-name.js'
import type { Observe } from './state.js'

export const REQUEST_ID_HEADER = 'X-Request-Id'

/** Letters, digits and `._:-`, 1 to 128 of them: UUIDs, trace ids and balancer ids fit. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** HTTP methods kept as label values; anything else (WebDAV and the like) counts as OTHER. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** The incoming id when it is safe to reuse, else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming !== undefined && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID()
}

/**
 * Counts a query stopped for `reason` against the gateway of this request. Only 'disconnect' is
 * counted this way (routes/abort.ts); !stop and timeouts are counted where they fire.
 */
export function countQueryStop(ctx: Context, reason: Extract<StopReason, 'disconnect'>): void {
  const count = ctx.state.countQueryStop as ((r: typeof reason) => void) | undefined
  count?.(reason)
}

/**
 * The level of an access line. A refused request is logged at the default level (info), so the
 * requestId of every error body leads to a line; a successful one only at debug: at full load a
 * line per request costs throughput, and a balancer in front keeps its own access log.
 */
function accessLevel(status: number): 'debug' | 'info' {
  return status >= 400 ? 'info' : 'debug'
}

/** What counting and logging a request uses (named as in Deps). */
export interface RequestRecordServices {
  readonly observe: Pick<Observe, 'metrics'>
  readonly log: Logger
}

export function requestContext({ observe, log }: RequestRecordServices) {
  const { metrics } = observe
  return async function identifyAndRecord(ctx: Context, next: Next): Promise<void> {
    const started = performance.now()
    const originalPath = ctx.path
    const requestId = requestIdOf(ctx.get(REQUEST_ID_HEADER) || undefined)
    ctx.state.requestId = requestId
    // Once per request: several signals of one request may see the client go.
    let gone = false
    ctx.state.countQueryStop = () => {
      if (gone) return
      gone = true
      metrics.clientGone()
    }
    ctx.set(REQUEST_ID_HEADER, requestId)
    try {
      await next()
    } finally {
      const ms = performance.now() - started
      const route = routeName(ctx, originalPath)
      const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER'
      metrics.request(route, method, ctx.status, ms / 1000)
      const level = accessLevel(ctx.status)
      if (log.writes?.(level) ?? true) {
        const engine = ctx.response.get('X-Tabula-Engine')
        log({
          level,
          msg: 'request',
          requestId,
          method: ctx.method,
          route,
          path: originalPath,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          ...(engine ? { engine } : {}),
        })
      }
    }
  }
}
