/**
 * The gateway's Prometheus metrics, on a registry of its own: prom-client's global registry
 * would be shared by every app in the process, and tests build many apps in one process.
 *
 * Two kinds of figures: those the gateway counts as they happen (requests, Store calls, client
 * disconnects), and those read at scrape time from the parts that already keep them (the pool's
 * queue and worker restarts, the table cache's hits, the stop registry's delivered stops). A
 * read-at-scrape counter is reset and set to the part's own running total on every collect.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { RouteName } from './route-name.js'
import { loopHeldReader } from './loop-held.js'

/** The text exposition format Prometheus scrapes. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Seconds; wide at the top because a query may legitimately run for minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

/** Why a running query ended early. */
export type StopReason = 'stop' | 'disconnect' | 'timeout'

/** What the metrics read at scrape time; set once the parts exist (see readFrom). */
export interface MetricSources {
  readonly runner: {
    readonly pending: number
    readonly waiting?: number
    readonly workerRestarts?: number
    readonly timeouts?: number
    readonly preemptions?: number
  }
  readonly tables: {
    readonly stats: { readonly bytes: number; readonly hits: number; readonly misses: number; readonly imagesBuilt?: number; readonly windowBytes?: number }
  }
  readonly stops: { readonly stopsDelivered: number }
}

export class GatewayMetrics {
  readonly registry = new Registry()
  private sources: MetricSources | null = null
  private disconnects = 0

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route name, method and status.',
    labelNames: ['endpoint', 'method', 'status'] as const,
    registers: [this.registry],
  })

  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its response being ready (a streamed body is not included), by route name.',
    labelNames: ['endpoint'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  })

  private readonly storeCalls = new Counter({
    name: 'store_round_trips_total',
    help: 'Calls to the Store (each one Redis round trip with REDIS_URL), by operation.',
    labelNames: ['op'] as const,
    registers: [this.registry],
  })

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- prom-client calls collect() with `this` bound to the gauge
    const metrics = this
    new Gauge({
      name: 'queries_running',
      help: 'Tasks running in a worker of this gateway now.',
      registers: [this.registry],
      collect() {
        const runner = metrics.sources?.runner
        this.set(runner ? runner.pending - (runner.waiting ?? 0) : 0)
      },
    })
    new Gauge({
      name: 'queries_queued',
      help: 'Tasks waiting for a free worker of this gateway now (at most MAX_QUEUE).',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.runner.waiting ?? 0)
      },
    })
    new Counter({
      name: 'worker_restarts_total',
      help: 'Engine worker threads ended and replaced while serving: a stopped or timed-out query, or a crash.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(metrics.sources?.runner.workerRestarts ?? 0)
      },
    })
    new Counter({
      name: 'worker_preemptions_total',
      help: 'Tasks whose worker was taken back for another user waiting (fair sharing); each ran again later.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(metrics.sources?.runner.preemptions ?? 0)
      },
    })
    new Counter({
      name: 'query_stops_total',
      help: 'Queries of this gateway ended early, by reason: !stop, the client going away, or the time limit.',
      labelNames: ['reason'] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc({ reason: 'stop' }, metrics.sources?.stops.stopsDelivered ?? 0)
        this.inc({ reason: 'disconnect' }, metrics.disconnects)
        this.inc({ reason: 'timeout' }, metrics.sources?.runner.timeouts ?? 0)
      },
    })
    new Counter({
      name: 'table_cache_hits_total',
      help: 'Table files (column, SQLite image, metadata) found in the gateway table cache.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(metrics.sources?.tables.stats.hits ?? 0)
      },
    })
    new Counter({
      name: 'table_cache_misses_total',
      help: 'Table files read from disk into the gateway table cache.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(metrics.sources?.tables.stats.misses ?? 0)
      },
    })
    new Counter({
      name: 'sqlite_images_built_total',
      help: 'SQLite images of table versions built by this gateway for the sql.js fallback (once per version).',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(metrics.sources?.tables.stats.imagesBuilt ?? 0)
      },
    })
    new Gauge({
      name: 'table_cache_bytes',
      help: 'Bytes held by the gateway table cache (budget: TABLE_CACHE_MB).',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.tables.stats.bytes ?? 0)
      },
    })
    new Gauge({
      name: 'table_window_bytes',
      help: 'Bytes of the reused buffers that queries over tables larger than TABLE_CACHE_MB read their windows into (docs/large-tables.md).',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.tables.stats.windowBytes ?? 0)
      },
    })
    const held = loopHeldReader()
    new Gauge({
      name: 'event_loop_held_max_seconds',
      help: "Longest stretch the gateway's thread ran without a turn of its event loop since the last scrape (its own CPU time: time other processes had the cores is not counted, unlike nodejs_eventloop_lag_max_seconds).",
      registers: [this.registry],
      collect() {
        this.set(held() / 1000)
      },
    })
    collectDefaultMetrics({ register: this.registry })
  }

  /** Points the scrape-time figures at the gateway's parts. */
  readFrom(sources: MetricSources): void {
    this.sources = sources
  }

  request(endpoint: RouteName, method: string, status: number, seconds: number): void {
    this.requests.inc({ endpoint, method, status: String(status) })
    this.durations.observe({ endpoint }, seconds)
  }

  storeCall(op: string): void {
    this.storeCalls.inc({ op })
  }

  /** A query stopped because its client went away (the other reasons are counted where they happen). */
  clientGone(): void {
    this.disconnects++
  }

  /** The exposition text. */
  render(): Promise<string> {
    return this.registry.metrics()
  }
}
