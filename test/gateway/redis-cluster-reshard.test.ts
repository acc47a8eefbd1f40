/**
 * Moving hash slots between masters of a real Redis Cluster while the gateway serves traffic:
 * logins, queries, instance writes and catalog writes (api/dbm make_dir) run in loops while the
 * slots of the catalog, of the busy session and of its user move, key by key (so each slot stays
 * half moved for a while and ASK, TRYAGAIN and MOVED all occur). No request may fail other than
 * with a clean 503 and Retry-After, no acknowledged catalog write may be lost, and everything
 * stays readable afterwards. The test has its own cluster, so moving slots disturbs no other test.
 */
import { expect } from 'chai'
import { hashSlot } from '../../shared/store/redis-cluster-keys.js'
import { startRedisCluster, type RedisClusterProcesses } from '../helpers/redis-cluster.js'
import { findRedisServer } from '../helpers/redis-server.js'
import { createUser } from '../../gateway/catalog/users.js'
import { startTestService, type TestService } from '../helpers/service.js'

const WALKER_PASSWORD = 'walker-pass-1'

/** How long traffic runs before, between and after the moves. */
const SETTLE_MS = 400

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('Redis Cluster: moving slots while the gateway serves traffic', function () {
  this.timeout(120_000)
  let cluster: RedisClusterProcesses | undefined
  let svc: TestService | undefined

  before(async function () {
    if (!findRedisServer()) {
      if (process.env.CI === 'true') throw new Error('redis-server is required on CI')
      return this.skip()
    }
    cluster = await startRedisCluster()
    svc = await startTestService('redis-cluster', {}, { clusterNodes: cluster.spec })
  })

  after(async () => {
    await svc?.close()
    await cluster?.stop()
  })

  it('fails no request except with 503 + Retry-After, loses no acknowledged write, and reads everything afterwards', async () => {
    const s = svc!
    const c = cluster!
    const cookie = await s.login()
    const sid = cookie.split('|')[1]
    // Logins in a loop as another user: each one joins that user's session (kill=possess) and so
    // pushes out its oldest token, which must not be the one the other loops use.
    await createUser(s.deps.store, { uid: 'walker', password: WALKER_PASSWORD })
    const post = (path: string, body: object, withCookie = true) => {
      const req = s.http.post(path)
      return (withCookie ? req.set('Cookie', cookie) : req).send(body)
    }

    let running = true
    const counts = { ok: 0, unavailable: 0 }
    const failures: string[] = []
    const acknowledged: string[] = []
    const unavailable: string[] = []
    const judge = (what: string, res: { status: number; headers: Record<string, string>; text: string; body: { rc?: number } }): boolean => {
      if (res.status === 200 && (res.body.rc === undefined || Number(res.body.rc) === 0)) {
        counts.ok++
        return true
      }
      if (res.status === 503 && /^\d+$/.test(res.headers['retry-after'] ?? '')) {
        counts.unavailable++
        unavailable.push(`${what}: ${res.text.slice(0, 200)}`)
      } else failures.push(`${what}: ${res.status} ${res.text.slice(0, 300)}`)
      return false
    }
    const loop = async (step: (i: number) => Promise<void>): Promise<void> => {
      for (let i = 0; running; i++) await step(i)
    }

    const traffic = Promise.all([
      loop(async () => void judge('login', await post('/v1/api/!login:json', { uid: 'walker', pw: WALKER_PASSWORD, kill: 'possess' }, false))),
      loop(async () => void judge('sql', await post('/v1/api/sql:json', { sql: 'select 1 as one' }))),
      loop(async (i) => {
        const path = `moved_${i}`
        if (judge('make_dir', await post('/v1/api/dbm:json', { cmd: ['make_dir', { path }] }))) acknowledged.push(path)
      }),
      loop(async () => {
        const created = await post('/v1/api/new/sql:json', {})
        if (!judge('new instance', created)) return
        judge('instance query', await post(`/v1/api/${(created.body as { tag: number }).tag}:json`, { sql: 'select 2 as two' }))
      }),
    ])

    // The catalog's slot, the busy session's, its user's and the logging-in user's: where every request above writes.
    const slots = [...new Set([hashSlot('{cat}'), hashSlot(`{s:${sid}}`), hashSlot('{u:admin}'), hashSlot('{u:walker}')])]
    const before = await Promise.all(slots.map((slot) => c.ownerOf(slot)))
    const moved: number[] = []
    await sleep(SETTLE_MS)
    for (const [i, slot] of slots.entries()) {
      const to = c.nodes.map((n) => n.port).find((port) => port !== before[i])!
      moved.push((await c.moveSlot(slot, to, { pauseMs: 15 })).keysMoved)
      await sleep(SETTLE_MS)
    }
    running = false
    await traffic

    const after = await Promise.all(slots.map((slot) => c.ownerOf(slot)))
    console.log(
      `      slots ${slots.join(', ')} moved (${moved.join(', ')} keys); requests: ${counts.ok} answered, ${counts.unavailable} clean 503, ${failures.length} failed; ${acknowledged.length} folders made`,
    )
    if (unavailable.length > 0) console.log(`      503s: ${unavailable.join('; ')}`)
    expect(failures, failures.join('\n')).to.deep.equal([])
    for (const [i] of slots.entries()) expect(after[i]).not.to.equal(before[i])
    expect(moved[0], 'catalog keys moved').to.be.above(10)
    expect(acknowledged.length).to.be.above(5)
    expect(counts.ok).to.be.above(20)

    // Every acknowledged catalog write is there, through the API and in the Store.
    const dirs = new Set(await s.deps.store.keys('cat:dir:moved_'))
    for (const path of acknowledged) expect(dirs.has(`cat:dir:${path}`), path).to.equal(true)
    const fresh = await s.login()
    const listed = await s.http
      .post('/v1/api/dbm:json')
      .set('Cookie', fresh)
      .send({ cmd: ['get_names_in_dir', { path: '' }] })
    expect(listed.status).to.equal(200)
    const names = JSON.stringify(listed.body)
    for (const path of acknowledged) expect(names, path).to.contain(`"${path}"`)
  })
})
