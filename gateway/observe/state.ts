/** The observability state of one gateway: its metrics and whether it takes new work. */
import { GatewayMetrics } from './metrics.js'
import { Readiness } from './readiness.js'

/** Built once with the gateway's other dependencies (Deps.observe). */
export interface Observe {
  readonly metrics: GatewayMetrics
  readonly readiness: Readiness
}

export function createObserve(): Observe {
  return { metrics: new GatewayMetrics(), readiness: new Readiness() }
}
