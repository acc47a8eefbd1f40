/**
 * Service configuration: every setting, its default and its validation in one place.
 * loadConfig(env) is called once, by gateway/server.ts, the only reader of process.env.
 */
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { redisTargetFromEnv, replicaAckFromEnv, type RedisTarget, type ReplicaAck } from './store/index.js'

export interface Config {
  readonly port: number
  readonly host: string
  readonly apiVersions: readonly string[]
  /** Which Redis (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS); null: the embedded in-memory store. */
  readonly redis: RedisTarget | null
  /** Prepended to every Redis key, so several installations can share one Redis. */
  readonly redisKeyPrefix: string
  /** REDIS_WAIT_REPLICAS / REDIS_WAIT_TIMEOUT_MS: replicas that must have a durable write before it is acknowledged. */
  readonly redisReplicaAck: ReplicaAck
  readonly dataDir: string
  readonly workers: number
  readonly tlsCert: string | null
  readonly tlsKey: string | null
  /**
   * Behind a load balancer: take the client address from X-Forwarded-For and the scheme from
   * X-Forwarded-Proto (so a TLS-terminating balancer still gets Secure cookies).
   */
  readonly trustProxy: boolean
  /** Unset: a password is generated on first start and printed once. */
  readonly adminPassword: string | null
  /** Idle lifetime of a session, in seconds; refreshed by every authenticated request. */
  readonly sessionTtl: number
  readonly queryTimeoutMs: number
  readonly maxResultRows: number
  readonly maxBodyBytes: number
  /** Seed the demo tables on first start. */
  readonly demoData: boolean
  /** Number of transactions in the demo table pub.demo.retail.item. */
  readonly demoRows: number
  /** Budget of the gateway's cache of loaded table columns, in bytes. */
  readonly tableCacheBytes: number
  /** Rows per row segment of a stored table (docs/large-tables.md). */
  readonly tableSegmentRows: number
  /** Instances one session may hold at once (api/new answers 429 beyond). */
  readonly maxInstancesPerSession: number
  /** Largest result kept in the Store for other gateways, in bytes (larger ones are recomputed). */
  readonly resultStoreBytes: number
  /** Embedded store only: bytes all kept results may take; the oldest are dropped first. */
  readonly memoryStoreCacheBytes: number
  /** Budget of the gateway's memo of results by recipe (RESULT_MEMO_MB), charged as they take memory. */
  readonly resultMemoBytes: number
  /** How far V8 lets a heap grow past its live data before a full collection, in percent; 0 = V8's own rule. */
  readonly gcHeapGrowthPercent: number
  /** Longest query text (xml or sql), in bytes (413 beyond). */
  readonly maxQueryBytes: number
  /** Largest result, in bytes of its column data (413 beyond, or truncated on request). */
  readonly maxResultBytes: number
  /** Queries one session may have running at once (429 beyond). */
  readonly maxQueriesPerSession: number
  /** Queries one user may have running at once over all their sessions and gateways (429 beyond). */
  readonly maxQueriesPerUser: number
  /** Tasks that may wait for a worker on one gateway (429 with Retry-After beyond). */
  readonly maxQueue: number
  /** Failed logins of one user id from one address within LOGIN_WINDOW_SECONDS before 429. */
  readonly loginMaxFailures: number
  /** Failed logins of one user id from all addresses before only its known addresses may try. */
  readonly loginMaxFailuresPerUser: number
  /** Failed logins per client address within LOGIN_WINDOW_SECONDS before 429. */
  readonly loginMaxFailuresPerAddress: number
  /** The window, and the lockout, of the login throttle, in seconds. */
  readonly loginWindowSeconds: number
  /** Heap limit of each engine worker thread; a worker over it is replaced (500). */
  readonly workerMemoryMb: number
  /** SQLite memory (sql.js WASM heap) of each engine worker; a query over it gets 413 and the worker is replaced. */
  readonly sqlMemoryMb: number
  /** The largest value (text in UTF-8 bytes) a save or upload may store in one cell; over it, 413. */
  readonly maxCellBytes: number
  /** The largest row (sum of its cells) a save or upload may store; over it, 413. */
  readonly maxRowBytes: number
  /** With several gateways (Redis): how long a dropped or replaced version's files stay for loads in progress elsewhere. */
  readonly retiredGraceSeconds: number
  /** Base tables of at least this many rows are split over the workers when the query allows it. */
  readonly parallelMinRows: number
  /** Parts a split query runs in; null = one per worker (WORKERS); 1 turns splitting off. */
  readonly parallelParts: number | null
  /** Least severe log level written to stdout (pino names; `silent` writes nothing). */
  readonly logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent'
  /** Unset: GET /metrics is open; set: it requires `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null
  /** Compress responses (gzip or Brotli) for clients that accept it. */
  readonly compression: boolean
  /** Bodies smaller than this go uncompressed (streamed bodies are always compressed). */
  readonly compressionMinBytes: number
  /**
   * Origins (`scheme://host[:port]`) whose pages may change data through a browser and read
   * answers by CORS; empty: only the service's own origin (gateway/security/).
   */
  readonly allowedOrigins: readonly string[]
  /** A request body not fully received this long after its headers is refused (408) and its connection closed. */
  readonly bodyTimeoutMs: number
  /** Form bodies with more fields than this are refused (413) rather than cut. */
  readonly maxFormFields: number
}

export const DEFAULTS = {
  PORT: '8080',
  HOST: '127.0.0.1',
  // prime-latest: what the public node client asks for, so it works unchanged (issue 17).
  API_VERSIONS: 'v1,prime-latest',
  DATA_DIR: './data',
  SESSION_TTL: '3600',
  QUERY_TIMEOUT_MS: '300000',
  MAX_RESULT_ROWS: '1000000',
  MAX_BODY_BYTES: '10485760',
  DEMO_DATA: '1',
  DEMO_ROWS: '100000',
  TABLE_CACHE_MB: '2048',
  TABLE_SEGMENT_ROWS: '1048576',
  MAX_INSTANCES_PER_SESSION: '100',
  RESULT_STORE_MB: '64',
  MEMORY_STORE_CACHE_MB: '256',
  RESULT_MEMO_MB: '256',
  GC_HEAP_GROWTH_PERCENT: '50',
  REDIS_KEY_PREFIX: '',
  TRUST_PROXY: '0',
  MAX_QUERY_BYTES: '1048576',
  MAX_RESULT_BYTES: '1073741824',
  MAX_QUERIES_PER_SESSION: '4',
  MAX_QUERIES_PER_USER: '8',
  MAX_QUEUE: '64',
  LOGIN_MAX_FAILURES: '5',
  LOGIN_MAX_FAILURES_PER_ADDRESS: '20',
  LOGIN_MAX_FAILURES_PER_USER: '100',
  LOGIN_WINDOW_SECONDS: '300',
  WORKER_MEMORY_MB: '4096',
  SQL_MEMORY_MB: '512',
  MAX_CELL_BYTES: '1048576',
  MAX_ROW_BYTES: '16777216',
  RETIRED_GRACE_SECONDS: '10',
  PARALLEL_MIN_ROWS: '1000000',
  LOG_LEVEL: 'info',
  COMPRESSION: '1',
  COMPRESSION_MIN_BYTES: '1024',
  BODY_TIMEOUT_MS: '30000',
  MAX_FORM_FIELDS: '1000',
} as const

/** Every variable the service reads, for the README check and error messages. */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'API_VERSIONS',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_NAME',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_WAIT_REPLICAS',
  'REDIS_WAIT_TIMEOUT_MS',
  'DATA_DIR',
  'WORKERS',
  'TLS_CERT',
  'TLS_KEY',
  'ADMIN_PASSWORD',
  'SESSION_TTL',
  'QUERY_TIMEOUT_MS',
  'MAX_RESULT_ROWS',
  'MAX_BODY_BYTES',
  'DEMO_DATA',
  'DEMO_ROWS',
  'TABLE_CACHE_MB',
  'TABLE_SEGMENT_ROWS',
  'MAX_INSTANCES_PER_SESSION',
  'RESULT_STORE_MB',
  'REDIS_KEY_PREFIX',
  'TRUST_PROXY',
  'MAX_QUERY_BYTES',
  'MAX_RESULT_BYTES',
  'MAX_QUERIES_PER_SESSION',
  'MAX_QUERIES_PER_USER',
  'MAX_QUEUE',
  'LOGIN_MAX_FAILURES',
  'LOGIN_MAX_FAILURES_PER_ADDRESS',
  'LOGIN_MAX_FAILURES_PER_USER',
  'LOGIN_WINDOW_SECONDS',
  'WORKER_MEMORY_MB',
  'PARALLEL_MIN_ROWS',
  'PARALLEL_PARTS',
  'LOG_LEVEL',
  'METRICS_TOKEN',
  'COMPRESSION',
  'COMPRESSION_MIN_BYTES',
  'ALLOWED_ORIGINS',
  'SQL_MEMORY_MB',
  'MAX_CELL_BYTES',
  'MAX_ROW_BYTES',
  'RETIRED_GRACE_SECONDS',
  'BODY_TIMEOUT_MS',
  'MAX_FORM_FIELDS',
  'MEMORY_STORE_CACHE_MB',
  'RESULT_MEMO_MB',
  'GC_HEAP_GROWTH_PERCENT',
] as const

type Env = Readonly<Record<string, string | undefined>>

function intVar(env: Env, name: keyof typeof DEFAULTS | 'WORKERS' | 'PARALLEL_PARTS', fallback: string, min: number, max: number): number {
  const raw = (env[name] ?? '').trim() || fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`config: ${name} must be a whole number from ${min} to ${max} (got "${raw}")`)
  }
  return n
}

function boolVar(env: Env, name: keyof typeof DEFAULTS): boolean {
  const raw = ((env[name] ?? '').trim() || DEFAULTS[name]).toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true
  if (['0', 'false', 'no', 'off'].includes(raw)) return false
  throw new Error(`config: ${name} must be 1 or 0 (got "${raw}")`)
}

const optional = (env: Env, name: string): string | null => (env[name] ?? '').trim() || null

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const

function logLevelVar(env: Env): Config['logLevel'] {
  const raw = ((env.LOG_LEVEL ?? '').trim() || DEFAULTS.LOG_LEVEL).toLowerCase()
  const level = LOG_LEVELS.find((l) => l === raw)
  if (!level) throw new Error(`config: LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`)
  return level
}

/** A bearer token: visible ASCII without spaces, long enough not to be guessed. */
function metricsTokenVar(env: Env): string | null {
  const token = optional(env, 'METRICS_TOKEN')
  if (token !== null && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    throw new Error('config: METRICS_TOKEN must be 16 to 256 visible ASCII characters without spaces')
  }
  return token
}

/**
 * ALLOWED_ORIGINS: comma-separated exact origins. No wildcard: an answer readable with the user's
 * cookie must name the one origin it is for, and `*` would let every site act as the user.
 */
function allowedOriginsVar(env: Env): readonly string[] {
  const out: string[] = []
  for (const entry of (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)) {
    let url: URL | null
    try {
      url = new URL(entry)
    } catch {
      url = null
    }
    const bare =
      url !== null &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !entry.endsWith('/')
    if (url === null || !bare) {
      throw new Error(
        `config: ALLOWED_ORIGINS entries must be exact origins such as https://notebook.example.com:8443 (scheme, host and optional port; no path, wildcard or trailing slash) (got "${entry}")`,
      )
    }
    out.push(url.origin)
  }
  return Object.freeze(out)
}

/** Reads and validates the configuration; throws an Error naming the variable on bad input. */
export function loadConfig(env: Env): Config {
  const apiVersions = (env.API_VERSIONS ?? DEFAULTS.API_VERSIONS)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
  for (const v of apiVersions) {
    if (!/^[A-Za-z0-9._-]+$/.test(v) || v === 'api') {
      throw new Error(`config: API_VERSIONS entries must be path segments of letters, digits, '.', '_' or '-' (got "${v}")`)
    }
  }
  if (apiVersions.length === 0) throw new Error('config: API_VERSIONS must name at least one version')
  const tlsCert = optional(env, 'TLS_CERT')
  const tlsKey = optional(env, 'TLS_KEY')
  if ((tlsCert === null) !== (tlsKey === null)) throw new Error('config: TLS_CERT and TLS_KEY must be set together')
  const redisKeyPrefix = (env.REDIS_KEY_PREFIX ?? '').trim()
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(redisKeyPrefix)) {
    throw new Error(`config: REDIS_KEY_PREFIX takes up to 64 letters, digits, ':', '.', '_' or '-' (got "${redisKeyPrefix}")`)
  }
  const cores = availableParallelism()
  const redis = redisTargetFromEnv(env)
  return Object.freeze({
    port: intVar(env, 'PORT', DEFAULTS.PORT, 0, 65535),
    host: optional(env, 'HOST') ?? DEFAULTS.HOST,
    apiVersions: Object.freeze(apiVersions),
    redis,
    redisKeyPrefix,
    redisReplicaAck: replicaAckFromEnv(env, redis),
    dataDir: resolve(optional(env, 'DATA_DIR') ?? DEFAULTS.DATA_DIR),
    workers: intVar(env, 'WORKERS', String(cores), 1, 256),
    tlsCert,
    tlsKey,
    trustProxy: boolVar(env, 'TRUST_PROXY'),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    sessionTtl: intVar(env, 'SESSION_TTL', DEFAULTS.SESSION_TTL, 1, 30 * 24 * 3600),
    queryTimeoutMs: intVar(env, 'QUERY_TIMEOUT_MS', DEFAULTS.QUERY_TIMEOUT_MS, 100, 24 * 3600 * 1000),
    maxResultRows: intVar(env, 'MAX_RESULT_ROWS', DEFAULTS.MAX_RESULT_ROWS, 1, 500_000_000),
    maxBodyBytes: intVar(env, 'MAX_BODY_BYTES', DEFAULTS.MAX_BODY_BYTES, 1024, 2 ** 31 - 1),
    demoData: boolVar(env, 'DEMO_DATA'),
    demoRows: intVar(env, 'DEMO_ROWS', DEFAULTS.DEMO_ROWS, 100, 100_000_000),
    tableCacheBytes: intVar(env, 'TABLE_CACHE_MB', DEFAULTS.TABLE_CACHE_MB, 16, 1024 * 1024) * 1024 * 1024,
    tableSegmentRows: intVar(env, 'TABLE_SEGMENT_ROWS', DEFAULTS.TABLE_SEGMENT_ROWS, 1024, 1 << 30),
    maxInstancesPerSession: intVar(env, 'MAX_INSTANCES_PER_SESSION', DEFAULTS.MAX_INSTANCES_PER_SESSION, 1, 100_000),
    resultStoreBytes: intVar(env, 'RESULT_STORE_MB', DEFAULTS.RESULT_STORE_MB, 1, 1024 * 1024) * 1024 * 1024,
    memoryStoreCacheBytes: intVar(env, 'MEMORY_STORE_CACHE_MB', DEFAULTS.MEMORY_STORE_CACHE_MB, 1, 1024 * 1024) * 1024 * 1024,
    gcHeapGrowthPercent: intVar(env, 'GC_HEAP_GROWTH_PERCENT', DEFAULTS.GC_HEAP_GROWTH_PERCENT, 0, 1000),
    resultMemoBytes: intVar(env, 'RESULT_MEMO_MB', DEFAULTS.RESULT_MEMO_MB, 1, 1024 * 1024) * 1024 * 1024,
    maxQueryBytes: intVar(env, 'MAX_QUERY_BYTES', DEFAULTS.MAX_QUERY_BYTES, 64, 2 ** 31 - 1),
    maxResultBytes: intVar(env, 'MAX_RESULT_BYTES', DEFAULTS.MAX_RESULT_BYTES, 1024, Number.MAX_SAFE_INTEGER),
    maxQueriesPerSession: intVar(env, 'MAX_QUERIES_PER_SESSION', DEFAULTS.MAX_QUERIES_PER_SESSION, 1, 10_000),
    maxQueriesPerUser: intVar(env, 'MAX_QUERIES_PER_USER', DEFAULTS.MAX_QUERIES_PER_USER, 1, 100_000),
    maxQueue: intVar(env, 'MAX_QUEUE', DEFAULTS.MAX_QUEUE, 0, 1_000_000),
    loginMaxFailures: intVar(env, 'LOGIN_MAX_FAILURES', DEFAULTS.LOGIN_MAX_FAILURES, 1, 1_000_000),
    loginMaxFailuresPerAddress: intVar(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', DEFAULTS.LOGIN_MAX_FAILURES_PER_ADDRESS, 1, 1_000_000),
    loginMaxFailuresPerUser: intVar(env, 'LOGIN_MAX_FAILURES_PER_USER', DEFAULTS.LOGIN_MAX_FAILURES_PER_USER, 1, 1_000_000),
    loginWindowSeconds: intVar(env, 'LOGIN_WINDOW_SECONDS', DEFAULTS.LOGIN_WINDOW_SECONDS, 1, 7 * 24 * 3600),
    workerMemoryMb: intVar(env, 'WORKER_MEMORY_MB', DEFAULTS.WORKER_MEMORY_MB, 64, 1024 * 1024),
    sqlMemoryMb: intVar(env, 'SQL_MEMORY_MB', DEFAULTS.SQL_MEMORY_MB, 32, 4096),
    maxCellBytes: intVar(env, 'MAX_CELL_BYTES', DEFAULTS.MAX_CELL_BYTES, 16, 2 ** 30),
    maxRowBytes: intVar(env, 'MAX_ROW_BYTES', DEFAULTS.MAX_ROW_BYTES, 16, 2 ** 31 - 1),
    retiredGraceSeconds: intVar(env, 'RETIRED_GRACE_SECONDS', DEFAULTS.RETIRED_GRACE_SECONDS, 0, 24 * 3600),
    parallelMinRows: intVar(env, 'PARALLEL_MIN_ROWS', DEFAULTS.PARALLEL_MIN_ROWS, 1, 2 ** 31 - 1),
    parallelParts: optional(env, 'PARALLEL_PARTS') === null ? null : intVar(env, 'PARALLEL_PARTS', '1', 1, 256),
    logLevel: logLevelVar(env),
    metricsToken: metricsTokenVar(env),
    compression: boolVar(env, 'COMPRESSION'),
    compressionMinBytes: intVar(env, 'COMPRESSION_MIN_BYTES', DEFAULTS.COMPRESSION_MIN_BYTES, 0, 2 ** 31 - 1),
    allowedOrigins: allowedOriginsVar(env),
    bodyTimeoutMs: intVar(env, 'BODY_TIMEOUT_MS', DEFAULTS.BODY_TIMEOUT_MS, 100, 3600 * 1000),
    maxFormFields: intVar(env, 'MAX_FORM_FIELDS', DEFAULTS.MAX_FORM_FIELDS, 1, 1_000_000),
  })
}
