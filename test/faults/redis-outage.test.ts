/**
 * Redis going away under a running gateway (a child process on a private redis-server with an
 * append-only file, fsynced on every write). While Redis is down, every endpoint that needs it —
 * and a query in flight at the moment it died — answers 503 `unavailable` at once (no hang, no
 * 500, HTML pages too). When Redis comes back on the same port the gateway recovers by itself,
 * without a restart: the session made before the outage still works, every catalog change
 * committed before it is there (folders, tables with their data, users, sharing, an instance),
 * new changes commit, and a !stop reaches a running query again (the pub/sub subscription is back).
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { children, start, type Running } from '../helpers/processes.js'
import { findRedisServer, startRedisServer, type RedisServer } from '../helpers/redis-server.js'
import { Client, pause, waitFor, type Reply } from './client.js'

const ADMIN_PASSWORD = 'outage-admin-1'

/** How long a request may take while Redis is down: failing fast, not waiting for a timeout. */
const FAIL_FAST_MS = 2_000
/** Longest step between reconnect attempts (2 s), plus room for the handshake and a loaded machine. */
const RECONNECT_BOUND_MS = 5_000

/** Runs for a second or two in a worker, so Redis can die while it is in flight. */
const SLOW_SQL = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 3000000) select count(*) n from c'
/** Runs until stopped. */
const FOREVER_SQL = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'

/** What was committed before the outage, to find again afterwards. */
interface Committed {
  readonly userPassword: string
  /** The user's session, opened before the outage. */
  readonly olga: Client
  readonly tag: number
}

async function ok(reply: Promise<Reply>, what: string): Promise<Record<string, unknown>> {
  const r = await reply
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).to.equal(200)
  if ('rc' in r.body) expect(r.body.rc, `${what}: ${String(r.body.msg)}`).to.equal(0)
  return r.body
}

/** Catalog changes of several kinds, each acknowledged before the outage begins. */
async function commitBeforeOutage(admin: Client): Promise<Committed> {
  await ok(admin.dbm('make_dir', { path: 'ops', title: 'Operations', inherit: false }), 'make_dir')
  await ok(admin.dbm('make_dir', { path: 'ops.daily', title: 'Daily' }), 'make_dir')
  await ok(
    admin.dbm('upload_table', {
      path: 'ops.daily.load',
      cols: [
        { name: 'site', type: 'text' },
        { name: 'kwh', type: 'float' },
      ],
      data: { site: ['north', 'south', 'east'], kwh: [1.5, 2.25, 4] },
    }),
    'upload_table',
  )
  const added = await ok(admin.dbm('add_user', { uid: 'olga', first: 'Olga', last: 'Ops', email: 'olga@example.com' }), 'add_user')
  const userPassword = (added.value as { password: string }).password
  await ok(admin.dbm('share', { path: 'ops', users: ['olga'] }), 'share')
  const olga = new Client(admin.base)
  await ok(olga.login('olga', userPassword), 'login of the new user')
  await ok(
    admin.post('run:json', { xml: '<base table="pub.demo.retail.stores"/><sel value="store<=10"/>', savetable: 'ops.daily.ten_stores' }),
    'run savetable',
  )
  const created = await ok(admin.post('new/sql:json', {}), 'api/new/sql')
  const tag = created.tag as number
  await ok(admin.post(`${tag}:json`, { sql: 'select count(*) n from ops.daily.load' }), 'instance query')
  return { userPassword, olga, tag }
}

/** Every kind of endpoint that needs the Store, as (label, request) pairs. */
function storeBoundRequests(admin: Client, olga: Client, stranger: Client, tag: number): [string, () => Promise<Reply>][] {
  return [
    ['/readyz', () => admin.readyz()],
    ['!login', () => stranger.login('admin', ADMIN_PASSWORD)],
    ['!logout', () => olga.post('!logout:json')],
    ['api (endpoint list)', () => admin.get(':json')],
    ['sql', () => admin.post('sql:json', { sql: 'select count(*) n from pub.demo.retail.stores' })],
    ['sql/!rows', () => admin.get('sql/!rows:json')],
    ['sql/!data', () => admin.get('sql/!data:json?range=0&to=2')],
    ['sql/!status', () => admin.get('sql/!status:json')],
    ['sql/!stop', () => admin.post('sql/!stop:json')],
    ['run', () => admin.post('run:json', { xml: '<base table="pub.demo.retail.stores"/>' })],
    ['run savetable', () => admin.post('run:json', { xml: '<base table="pub.demo.retail.stores"/>', savetable: 'ops.daily.during' })],
    ['ls', () => admin.get('ls:json')],
    ['ls/{folder}', () => admin.get('ls/ops:json')],
    ['api/{table}', () => admin.get('ops.daily.load:json')],
    ['dbm read', () => admin.dbm('get_dir_info', { path: 'ops' })],
    ['dbm write', () => admin.dbm('make_dir', { path: 'ops.during' })],
    ['dbm upload_table', () => admin.dbm('upload_table', { path: 'ops.daily.during', data: { a: [1, 2] } })],
    ['new/sql', () => admin.post('new/sql:json', {})],
    ['api/{tag}', () => admin.post(`${tag}:json`, { sql: 'select 1 n' })],
    ['api/{tag}/!rows', () => admin.get(`${tag}/!rows:json`)],
  ]
}

describe('Redis going away and coming back (a gateway process on a private redis-server)', function () {
  this.timeout(120_000)
  let redis: RedisServer | null = null
  let gateway: Running | null = null
  let dataDir: string
  let aofDir: string

  before(async function () {
    if (!findRedisServer()) {
      if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed')
      return this.skip()
    }
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-outage-'))
    aofDir = await mkdtemp(join(tmpdir(), 'tabula-outage-aof-'))
    redis = await startRedisServer({ aofDir })
    gateway = await start({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_ROWS: '500',
      WORKERS: '2',
      ADMIN_PASSWORD,
      REDIS_URL: redis.url,
    })
  })

  after(async function () {
    for (const child of children) child.kill('SIGKILL')
    await redis?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
    if (aofDir) await rm(aofDir, { recursive: true, force: true })
  })

  it('answers 503 quickly while Redis is down, and recovers by itself with the catalog intact', async () => {
    const admin = new Client(gateway!.base)
    await ok(admin.login('admin', ADMIN_PASSWORD), 'login')
    const committed = await commitBeforeOutage(admin)
    await ok(admin.post('sql:json', { sql: 'select count(*) n from pub.demo.retail.stores' }), 'a kept sql result')

    // Redis dies while a query runs: that request fails cleanly too.
    const inFlight = admin.post('sql:json', { sql: SLOW_SQL })
    await waitFor('the slow query to run', async () => (await admin.get('sql/!status:json')).body.running === true, 10_000, 20)
    await redis!.crash()
    const interrupted = await inFlight
    expect(interrupted.status, `query in flight: ${interrupted.text}`).to.equal(503)
    expect(interrupted.body.code).to.equal('unavailable')

    const stranger = new Client(gateway!.base)
    for (const [label, request] of storeBoundRequests(admin, committed.olga, stranger, committed.tag)) {
      const r = await request()
      expect(r.status, `${label} while Redis is down: ${r.text.slice(0, 300)}`).to.equal(503)
      expect(r.body, label).to.include({ code: 'unavailable' })
      expect(r.body.requestId, label).to.be.a('string')
      expect(r.retryAfter, `${label}: Retry-After`).to.equal('2')
      expect(r.ms, `${label} answered in ${r.ms} ms`).to.be.below(FAIL_FAST_MS)
    }
    // Alive all the same: /healthz asks no Store, so an orchestrator restarts nothing.
    expect((await admin.healthz()).status, '/healthz while Redis is down').to.equal(200)
    // A browser gets the same status with a page.
    const page = await admin.get('sql')
    expect(page.status).to.equal(503)
    expect(page.text)
      .to.match(/<!doctype html>/i)
      .and.match(/not reachable/)

    // Down a while longer than one reconnect step, then back on the same port and file.
    await pause(2_500)
    redis = await startRedisServer({ port: redis!.port, aofDir })
    const recoveredIn = await waitFor('the gateway to reach Redis again', async () => (await admin.readyz()).status === 200, 15_000)
    // Reconnect attempts back off to one every 2 s (shared/store/redis.ts): the gateway is back
    // within one step, a handshake and a poll of /readyz, not merely before the wait gives up.
    expect(recoveredIn, `back after ${recoveredIn} ms`).to.be.below(RECONNECT_BOUND_MS)
    // The query that ended during the outage could not remove its running record then; that is
    // put right within seconds of Redis coming back, not after the record's 30 s TTL (a stale
    // record made a !stop below answer `stopped` while the endless query, not yet registered,
    // missed the message and ran on: this test's flake of 2026-11-27).
    await waitFor('the record of the query that ended during the outage to go', async () => (await admin.get('sql/!status:json')).body.running === false, 5_000)

    try {
      await verifyAfterOutage(admin, committed)
    } catch (err) {
      throw await withGatewayState(err, admin, gateway!)
    }
  })
})

/**
 * A failure after recovery, with what the gateway was doing: whether a query of the session still
 * runs, its pool and Store figures, and the end of its log. (Once in CI the first query after
 * recovery hung past the client's limit; this says where the next one hangs.)
 */
async function withGatewayState(err: unknown, admin: Client, gateway: Running): Promise<Error> {
  const status = await admin.get('sql/!status:json').then(
    (r) => `${r.status} ${r.text}`,
    (e: unknown) => String(e),
  )
  const metrics = await fetch(`${new URL(gateway.base).origin}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
    async (r) =>
      (await r.text())
        .split('\n')
        .filter((line) => /^(queries_|worker_|store_round_trips_total)/.test(line))
        .join('\n'),
    (e: unknown) => String(e),
  )
  const log = gateway.output().split('\n').slice(-40).join('\n')
  const message = err instanceof Error ? err.message : String(err)
  return new Error(`${message}\n--- sql/!status: ${status}\n--- metrics:\n${metrics}\n--- gateway log (last 40 lines):\n${log}`, { cause: err })
}

/** Everything committed before the outage is there, and the gateway works fully again. */
async function verifyAfterOutage(admin: Client, committed: Committed): Promise<void> {
  // The session of before the outage (kept in Redis's append-only file) still works.
  const rows = await ok(admin.post('sql:json', { sql: 'select site, kwh from ops.daily.load order by site' }), 'sql after recovery')
  expect(rows).to.deep.equal({ site: ['east', 'north', 'south'], kwh: [4, 1.5, 2.25] })
  const saved = await ok(admin.post('sql:json', { sql: 'select count(*) n, max(store) top from ops.daily.ten_stores' }), 'saved table')
  expect(saved).to.deep.equal({ n: [10], top: [10] })
  const info = await ok(admin.dbm('get_dir_info', { path: 'ops.daily', include: ['title'] }), 'get_dir_info')
  expect(info.value).to.deep.equal({ title: 'Daily' })
  const [, names] = (await ok(admin.dbm('get_names_in_dir', { path: 'ops.daily' }), 'get_names_in_dir')).value as [string[], string[]]
  expect(names.sort()).to.deep.equal(['ops.daily.load', 'ops.daily.ten_stores'])

  // Nothing attempted during the outage happened.
  const during = await admin.dbm('get_dir_info', { path: 'ops.during' })
  expect(during.body).to.include({ rc: 1, code: 'unknown_directory' })

  // The user made before the outage logs in and reads what was shared with them.
  const olga = new Client(admin.base)
  await ok(olga.login('olga', committed.userPassword), 'login of a user added before the outage')
  await ok(olga.post('sql:json', { sql: 'select count(*) n from ops.daily.load' }), 'shared table')

  // The instance made before the outage keeps its last result.
  const kept = await ok(admin.get(`${committed.tag}/!data:json`), 'instance result')
  expect(kept).to.deep.equal({ n: [3] })

  // New changes commit.
  await ok(admin.dbm('make_dir', { path: 'ops.after' }), 'make_dir after recovery')
  await ok(admin.dbm('upload_table', { path: 'ops.after.t', data: { a: [1, 2, 3] } }), 'upload after recovery')

  // Stop signals travel through Redis pub/sub: the gateway's subscription came back with Redis.
  const forever = admin.post('sql:json', { sql: FOREVER_SQL })
  await waitFor('the endless query to run', async () => (await admin.get('sql/!status:json')).body.running === true, 10_000, 20)
  const stop = await ok(admin.post('sql/!stop:json'), '!stop')
  expect(stop).to.deep.equal({ stopped: true })
  const stopped = await forever
  expect(stopped.status, stopped.text).to.equal(409)
  expect(stopped.body.code).to.equal('stopped')
}
