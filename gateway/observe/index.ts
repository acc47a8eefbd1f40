/** Metrics, logs, request ids and health: the public face of gateway/observe. */
import { GatewayMetrics } from './metrics.js'
import { Readiness } from './readiness.js'

/** The observability state of one gateway, built once with its other dependencies. */
export interface Observe {
  readonly metrics: GatewayMetrics
  readonly readiness: Readiness
}

export function createObserve(): Observe {
  return { metrics: new GatewayMetrics(), readiness: new Readiness() }
}

export { countStoreCalls } from './counted-store.js'
export { serviceEndpoints } from './endpoints.js'
export { READY_PING_MS } from './health.js'
export { createLogger, createPino, LOG_LEVELS, pinoLog, REDACTED, type LogLevel } from './logger.js'
export { GatewayMetrics, METRICS_CONTENT_TYPE, type StopReason } from './metrics.js'
export { Readiness } from './readiness.js'
export { countQueryStop, REQUEST_ID_HEADER, requestContext, requestIdOf } from './request-id.js'
export { apiRouteName, ROUTE_NAMES, routeName, type RouteName } from './route-name.js'
