/**
 * Results (gateway/query/results/results.ts) is the one way every route keeps a result in the Store: a
 * result asked for again and again is written there at most once per half TTL, whether a
 * session's api/run asked for it, a fixed-query instance, or a widget of a dynamic instance (which
 * used to write its whole result again on every request). Counted with a Store wrapper that
 * records each save of a result (ResultStore.save watches the result's meta key first).
 */
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import supertest from 'supertest'
import { loadConfig } from '../../shared/config.js'
import { createMemoryStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps, closeDeps } from '../../gateway/compose.js'
import type { Deps } from '../../gateway/deps.js'
import { ensureAdmin, seedDemoData } from '../../gateway/catalog/seed.js'

const PW = 'admin-secret-1'
const RESULT_META = /^res:([0-9a-f]{64}):meta$/

/** The Store, recording the key of every result save (its first call: a watch of the meta key). */
function countingSaves(inner: Store): { store: Store; saves: string[] } {
  const saves: string[] = []
  const store = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown
      if (prop === 'watch') {
        return (keys: readonly string[]) => {
          for (const k of keys) {
            const m = RESULT_META.exec(k)
            if (m) saves.push(m[1])
          }
          return target.watch(keys)
        }
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
  return { store, saves }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('results are kept in the Store once, by every route', function () {
  this.timeout(60_000)
  let dataDir: string
  let deps: Deps
  let server: http.Server
  let agent: ReturnType<typeof supertest>
  let cookie: string
  let saves: string[]

  before(async function () {
    this.timeout(90_000)
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-keep-'))
    const config = loadConfig({ DATA_DIR: dataDir, DEMO_ROWS: '3000', WORKERS: '2', ADMIN_PASSWORD: PW })
    const inner = createMemoryStore({ dataDir })
    await inner.connect()
    const counting = countingSaves(inner)
    saves = counting.saves
    deps = await buildDeps(config, () => undefined, counting.store)
    await ensureAdmin(counting.store, config)
    await seedDemoData(counting.store, config)
    server = http.createServer(createApp(deps).callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    agent = supertest(server)
    const login = await agent.post('/v1/api/!login:json').type('form').send({ uid: 'admin', pw: PW })
    cookie = `session=${login.body.uid}|${login.body.sid}|${login.body.epw}`
  })

  after(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await closeDeps(deps)
    await rm(dataDir, { recursive: true, force: true })
  })

  /** Saves so far, once the background writes have settled (nothing new for a while). */
  async function settledSaves(): Promise<string[]> {
    let seen = -1
    while (seen !== saves.length) {
      seen = saves.length
      await sleep(150)
    }
    return [...saves]
  }

  const post = (path: string, form: Record<string, string> = {}) => agent.post(`/v1/api/${path}`).set('Cookie', cookie).type('form').send(form)

  it("a dynamic instance's index widget, asked for five times, writes its result to the Store once", async () => {
    const xml = '<dynamic n="7"><widget name="index"><base table="pub.demo.retail.stores"/><sel value="store&lt;{@n}"/></widget></dynamic>'
    const created = await post('new:json', { xml })
    expect(created.status, created.text).to.equal(200)
    const before = (await settledSaves()).length
    const answers = []
    for (let i = 0; i < 5; i++) answers.push((await post(`${created.body.tag}:json`)).body)
    for (const a of answers) expect(a).to.deep.equal(answers[0])
    const written = (await settledSaves()).slice(before)
    expect(written, 'result saves').to.have.length(1)
    // The kept copy is the one !data reads on any gateway.
    expect(await deps.results.store.meta(written[0])).to.not.equal(null)
  })

  it('a named widget of a dynamic instance, asked for again and again, is written once too', async () => {
    const xml =
      '<dynamic n="3"><widget name="index" class_="text" text_="hi"/><widget name="w"><base table="pub.demo.retail.stores"/><sel value="store&lt;{@n}"/></widget></dynamic>'
    const tag = (await post('new:json', { xml })).body.tag
    const before = (await settledSaves()).length
    for (let i = 0; i < 4; i++) expect((await post(`${tag}/.w:json`)).status).to.equal(200)
    expect((await settledSaves()).slice(before)).to.have.length(1)
  })

  it("a fixed-query instance and a session's api/run, read again and again, write their result once", async () => {
    const query = '<base table="pub.demo.retail.stores"/><sel value="store&lt;5"/>'
    const tag = (await post('new:json', { xml: query })).body.tag
    let before = (await settledSaves()).length
    for (let i = 0; i < 4; i++) expect((await post(`${tag}:json`)).status).to.equal(200)
    expect((await settledSaves()).slice(before), 'the fixed-query instance').to.have.length(1)

    before = (await settledSaves()).length
    const run = '<base table="pub.demo.retail.stores"/><sel value="store&lt;4"/>'
    for (let i = 0; i < 4; i++) expect((await post('run:json', { xml: run })).status).to.equal(200)
    expect((await settledSaves()).slice(before), "the session's api/run").to.have.length(1)
  })
})
