/**
 * Runs the whole service in-process for API tests: a real store (memory, or the redis-server
 * started by run-tests), a real worker pool, demo data in a temporary DATA_DIR, and a real HTTP
 * server on a loopback port that supertest talks to.
 */
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import supertest from 'supertest'
import { loadConfig } from '../../shared/config.js'
import { createMemoryStore, createRedisStore, parseHostPorts } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps, closeDeps } from '../../gateway/compose.js'
import { serveHalfClosed } from '../../gateway/http/half-close.js'
import { answerClientErrors } from '../../gateway/http/client-errors.js'
import type { Deps } from '../../gateway/deps.js'
import { ensureAdmin, seedDemoData } from '../../gateway/catalog/seed.js'
import { CLUSTER_ADMIN_PASSWORD, startCluster, type Cluster } from './cluster.js'

/**
 * `memory` and `redis`: the service in this process on that store. `redis-cluster`: the same on
 * the Redis Cluster of three masters run-tests provides (TEST_REDIS_CLUSTER_NODES). `cluster`:
 * three gateway processes on one Redis behind a balancer that sends each request of a session to
 * a different gateway than its previous one (test/helpers/cluster.ts).
 */
export type StoreKind = 'memory' | 'redis' | 'redis-cluster' | 'cluster'

export const ADMIN_PASSWORD = 'admin-secret-1'
export const DEMO_ROWS = 3000

/** What tests may reach behind the API: the Store the service uses and its configuration. */
export type TestDeps = Pick<Deps, 'store' | 'config'>

export interface TestService {
  readonly deps: TestDeps
  readonly http: ReturnType<typeof supertest>
  readonly dataDir: string
  readonly logs: Record<string, unknown>[]
  /** Logs in and returns the Cookie header value for later requests. */
  login(uid?: string, pw?: string): Promise<string>
  close(): Promise<void>
}

/** Whether the Redis Cluster suites can run; under CI a missing cluster is a failure, not a skip. */
export function redisClusterAvailable(): boolean {
  if (process.env.TEST_REDIS_CLUSTER_NODES) return true
  if (process.env.CI === 'true') throw new Error('CI=true but TEST_REDIS_CLUSTER_NODES is not set: the Redis Cluster suites are required in CI.')
  return false
}

/** A Store on the test run's Redis Cluster under its own key prefix. */
export function createClusterTestStore(keyPrefix: string, spec = process.env.TEST_REDIS_CLUSTER_NODES ?? ''): Store {
  const nodes = parseHostPorts('TEST_REDIS_CLUSTER_NODES', spec)
  return createRedisStore({ kind: 'cluster', nodes, password: null }, { keyPrefix })
}

/** Whether Redis-backed suites can run; under CI a missing Redis is a failure, not a skip. */
export function redisAvailable(): boolean {
  if (process.env.TEST_REDIS_URL) return true
  if (process.env.CI === 'true') throw new Error('CI=true but TEST_REDIS_URL is not set: Redis is required in CI.')
  return false
}

/**
 * `clusterNodes`: for `redis-cluster`, another cluster than the run's (a test that moves slots has its own).
 * `dataDir`: an empty folder to use as DATA_DIR instead of a fresh temporary one (a small file
 * system a test fills up); close() removes it too.
 */
export async function startTestService(
  kind: StoreKind,
  env: Record<string, string> = {},
  opts: { clusterNodes?: string; dataDir?: string } = {},
): Promise<TestService> {
  if (kind === 'cluster') return startClusterService(env)
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'tabula-api-')))
  const config = loadConfig({ DATA_DIR: dataDir, DEMO_ROWS: String(DEMO_ROWS), WORKERS: '2', ADMIN_PASSWORD, ...env })
  const prefix = `test:${randomBytes(6).toString('hex')}:`
  const store: Store =
    kind === 'redis'
      ? createRedisStore(process.env.TEST_REDIS_URL!, { keyPrefix: prefix })
      : kind === 'redis-cluster'
        ? createClusterTestStore(prefix, opts.clusterNodes)
        : createMemoryStore({ dataDir })
  await store.connect()
  const logs: Record<string, unknown>[] = []
  const deps = await buildDeps(config, (line) => logs.push(line), store)
  await ensureAdmin(store, config)
  await seedDemoData(store, config)
  const server = http.createServer(createApp(deps).callback())
  serveHalfClosed(server) // as gateway/server.ts does
  answerClientErrors(server, deps.log)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const agent = supertest(server)
  return {
    deps,
    http: agent,
    dataDir,
    logs,
    login: (uid = 'admin', pw = ADMIN_PASSWORD) => loginThrough(agent, uid, pw),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      if (kind !== 'memory') {
        const keys = await store.keys('')
        if (keys.length > 0) await store.del(...keys)
      }
      await closeDeps(deps)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * One session for the tests of the enclosing describe: logs in (as admin unless `uid`/`pw` are
 * given) in a `before` hook registered where this is called, then sends requests with its cookie.
 * A test that needs another session passes its cookie as `as`, or assigns `cookie` to keep it.
 */
export interface LoggedIn {
  /** The Cookie header value, once the before hook has run. */
  cookie: string
  /** A POST as this session; `body` is sent (as JSON unless the request sets a type) when given. */
  post(path: string, body?: string | object, as?: string): supertest.Test
  get(path: string, as?: string): supertest.Test
}

export function loggedIn(svc: () => TestService, uid?: string, pw?: string): LoggedIn {
  const session: LoggedIn = {
    cookie: '',
    post(path, body, as = session.cookie) {
      const req = svc().http.post(path).set('Cookie', as)
      return body === undefined ? req : req.send(body)
    },
    get: (path, as = session.cookie) => svc().http.get(path).set('Cookie', as),
  }
  before(async () => {
    session.cookie = await svc().login(uid, pw)
  })
  return session
}

/**
 * A service on the embedded store for the tests of the enclosing describe, started in a `before`
 * hook and closed in an `after` hook registered where this is called, with an admin session.
 */
export function memoryServiceLoggedIn(): { svc: () => TestService; session: LoggedIn } {
  let svc: TestService | undefined
  before(async () => {
    svc = await startTestService('memory')
  })
  after(() => svc?.close())
  const current = (): TestService => svc!
  return { svc: current, session: loggedIn(current) }
}

async function loginThrough(agent: ReturnType<typeof supertest>, uid: string, pw: string): Promise<string> {
  const res = await agent.post('/v1/api/!login:json').type('form').send({ uid, pw })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`)
  return `session=${res.body.uid}|${res.body.sid}|${res.body.epw}`
}

/** The same API suite through a balancer in front of three gateway processes. */
async function startClusterService(env: Record<string, string>): Promise<TestService & { cluster: Cluster }> {
  if (CLUSTER_ADMIN_PASSWORD !== ADMIN_PASSWORD) throw new Error('the cluster and in-process services must share the admin password')
  const cluster = await startCluster({ demoRows: DEMO_ROWS, env })
  const agent = supertest(cluster.origin)
  return {
    cluster,
    deps: { store: cluster.store, config: cluster.config },
    http: agent,
    dataDir: cluster.dataDir,
    logs: [],
    login: (uid = 'admin', pw = ADMIN_PASSWORD) => loginThrough(agent, uid, pw),
    close: () => cluster.close(),
  }
}
