/**
 * `/healthz` and `/readyz` (issue 9). /healthz only says the process answers, whatever the Store
 * does; /readyz says whether to send the gateway work: 503 naming the part that is not ready when
 * the Store (here a private redis-server, killed) does not answer, when the worker pool is closed,
 * and as soon as a shutdown starts draining the gateway.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import supertest from 'supertest'
import { loadConfig } from '../../shared/config.js'
import { createMemoryStore, createRedisStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps, closeDeps } from '../../gateway/compose.js'
import type { Deps } from '../../gateway/deps.js'
import { findRedisServer, startRedisServer, type RedisServer } from '../helpers/redis-server.js'
import type { TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

/** A gateway in this process on `store`, with its deps in reach (the pool, the readiness). */
interface Gateway {
  readonly deps: Deps
  readonly http: ReturnType<typeof supertest>
  close(): Promise<void>
}

async function startGateway(store: Store): Promise<Gateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-health-'))
  const deps = await buildDeps(loadConfig({ DATA_DIR: dataDir, WORKERS: '1' }), () => undefined, store)
  return {
    deps,
    http: supertest(createApp(deps).callback()),
    async close() {
      await closeDeps(deps).catch(() => undefined)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A 503 of /readyz: the usual error shape, plus which checks failed. */
function expectNotReady(res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }, failed: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(503)
  expect(res.body).to.include({ code: 'unavailable', ready: false, requestId: res.headers['x-request-id'] })
  expect(res.body.error).to.match(/^Not ready: /)
  expect(Object.keys(res.body.failed as object)).to.deep.equal([failed])
}

forEachStore(
  '/healthz and /readyz',
  (svc: () => TestService) => {
    it('/healthz answers 200 with the store kind', async () => {
      const res = await svc().http.get('/healthz')
      expect(res.status).to.equal(200)
      expect(res.body).to.deep.equal({ ok: true, store: svc().deps.store.kind })
      expect(res.headers['cache-control']).to.equal('no-store')
    })

    it('/readyz answers 200 when the Store and the pool are ready', async () => {
      const res = await svc().http.get('/readyz')
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.deep.equal({ ready: true, store: svc().deps.store.kind })
    })

    it('both take GET and HEAD only', async () => {
      for (const path of ['/healthz', '/readyz']) {
        expect((await svc().http.head(path)).status).to.equal(200)
        const post = await svc().http.post(path)
        expect(post.status).to.equal(405)
        expect(post.body).to.include({ code: 'method_not_allowed' })
      }
    })
  },
  {},
  { skip: ['cluster'] },
)

describe('/readyz when a part is not ready', () => {
  it('answers 503 naming the pool once the worker pool is closed', async () => {
    const store = createMemoryStore()
    await store.connect()
    const gw = await startGateway(store)
    try {
      expect((await gw.http.get('/readyz')).status).to.equal(200)
      await gw.deps.runner.close()
      const res = await gw.http.get('/readyz')
      expectNotReady(res, 'pool')
      expect(res.body.error).to.match(/worker pool/)
      expect((await gw.http.get('/healthz')).status, 'alive all the same').to.equal(200)
    } finally {
      await gw.close()
    }
  })

  it('answers 503 naming the drain as soon as a shutdown starts', async () => {
    const store = createMemoryStore()
    await store.connect()
    const gw = await startGateway(store)
    try {
      gw.deps.observe.readiness.startDraining()
      const res = await gw.http.get('/readyz')
      expectNotReady(res, 'draining')
      expect(res.body.error).to.match(/shutting down/)
      expect((await gw.http.get('/healthz')).status).to.equal(200)
    } finally {
      await gw.close()
    }
  })

  describe('with Redis down', function () {
    this.timeout(60_000)
    let redis: RedisServer | null = null
    let gw: Gateway | null = null

    before(async function () {
      if (!findRedisServer()) {
        if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed')
        return this.skip()
      }
      redis = await startRedisServer()
      const store = createRedisStore(redis.url)
      await store.connect()
      gw = await startGateway(store)
    })

    after(async () => {
      await gw?.close()
      await redis?.stop()
    })

    it('answers 503 naming the Store, while /healthz stays 200 without asking the Store', async () => {
      expect((await gw!.http.get('/readyz')).status).to.equal(200)
      await redis!.crash()
      const res = await gw!.http.get('/readyz')
      expectNotReady(res, 'store')
      expect(String((res.body.failed as Record<string, string>).store)).to.match(/Redis|store/i)
      const health = await gw!.http.get('/healthz')
      expect(health.status).to.equal(200)
      expect(health.body).to.deep.equal({ ok: true, store: 'redis' })
    })
  })
})
