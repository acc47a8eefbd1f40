/**
 * Catalog durability: folders, users, groups, companies, roles and tables made through api/dbm
 * are all there after the service restarts — killed with SIGKILL right after its last answer
 * (embedded store: a change is acknowledged only once it is on disk), and with Redis, after
 * Redis itself is killed and restarted on its append-only file.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { children, start, type Running } from '../helpers/processes.js'
import { findRedisServer, startRedisServer, type RedisServer } from '../helpers/redis-server.js'

const ADMIN_PASSWORD = 'durable-admin-1'

async function login(base: string, uid: string, pw: string): Promise<string> {
  const res = await fetch(`${base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid, pw }) })
  expect(res.status, `login ${uid}`).to.equal(200)
  const body = (await res.json()) as { uid: string; sid: string; epw: string }
  return `session=${body.uid}|${body.sid}|${body.epw}`
}

async function dbm(base: string, cookie: string, name: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${base}/dbm:json`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ cmd: [name, params] }),
  })
  expect(res.status).to.equal(200)
  const body = (await res.json()) as { rc: number; msg?: string; value?: unknown }
  expect(body.rc, `${name}: ${body.msg}`).to.equal(0)
  return body.value
}

async function sql(base: string, cookie: string, query: string): Promise<Record<string, unknown[]>> {
  const res = await fetch(`${base}/sql:json`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ sql: query }) })
  expect(res.status, await res.clone().text()).to.equal(200)
  return (await res.json()) as Record<string, unknown[]>
}

function kill(r: Running): Promise<void> {
  return new Promise((resolve) => {
    r.child.removeAllListeners('exit')
    r.child.once('exit', () => resolve())
    r.child.kill('SIGKILL')
  })
}

/** Makes one of everything the catalog holds. */
async function populate(base: string): Promise<void> {
  const admin = await login(base, 'admin', ADMIN_PASSWORD)
  await dbm(base, admin, 'add_company', { company: 'acme', name: 'Acme Corp', max_ids: 10 })
  await dbm(base, admin, 'add_user', { uid: 'ann', first: 'Ann', last: 'Lee', email: 'ann@acme.example', company: 'acme', password: 'ann-pass-1' })
  await dbm(base, admin, 'add_role', { role: 'auditor', title: 'Auditor', capabilities: ['create_top_folders'] })
  await dbm(base, admin, 'grant_role', { uid: 'ann', role: 'auditor' })
  await dbm(base, admin, 'add_group', { group: 'readers', users: ['ann'], title: 'Readers' })
  await dbm(base, admin, 'make_dir', { path: 'team', title: 'Team data', inherit: false })
  await dbm(base, admin, 'make_dir', { path: 'team.sales', title: 'Sales' })
  await dbm(base, admin, 'upload_table', {
    path: 'team.sales.q1',
    cols: [
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'float' },
    ],
    data: { region: ['north', 'south'], amount: [10.5, 20.25] },
  })
  await dbm(base, admin, 'share', { path: 'team', users: ['readers'] })
  await dbm(base, admin, 'set_dir_info', { path: 'team.sales', sdesc: 'Quarterly sales' })
}

/** Checks that everything populate() made is there and works. */
async function verify(base: string): Promise<void> {
  const admin = await login(base, 'admin', ADMIN_PASSWORD)
  const ann = await login(base, 'ann', 'ann-pass-1')
  const rows = await sql(base, ann, 'select region, amount from team.sales.q1 order by region')
  expect(rows).to.deep.equal({ region: ['north', 'south'], amount: [10.5, 20.25] })
  expect(await dbm(base, admin, 'get_dir_info', { path: 'team.sales', include: ['title', 'sdesc'] })).to.deep.equal({
    title: 'Sales',
    sdesc: 'Quarterly sales',
  })
  const user = (await dbm(base, admin, 'get_user', { uid: 'ann' })) as { company: string; roles: string[] }
  expect(user.company).to.equal('acme')
  expect(user.roles).to.include('auditor')
  expect(((await dbm(base, admin, 'get_group', { group: 'readers' })) as { users: string[] }).users).to.deep.equal(['ann'])
  expect(((await dbm(base, admin, 'get_company', { company: 'acme' })) as { name: string }).name).to.equal('Acme Corp')
  expect(((await dbm(base, admin, 'get_role', { role: 'auditor' })) as { capabilities: string[] }).capabilities).to.deep.equal(['create_top_folders'])
  const [, names] = (await dbm(base, ann, 'get_names_in_dir', { path: 'team.sales' })) as [string[], string[]]
  expect(names).to.deep.equal(['team.sales.q1'])
}

describe('catalog durability across restarts', function () {
  this.timeout(120_000)
  let dataDir: string
  let aofDir: string
  let redis: RedisServer | null = null
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-durable-'))
    aofDir = await mkdtemp(join(tmpdir(), 'tabula-durable-aof-'))
  })
  afterEach(async () => {
    for (const child of children) child.kill('SIGKILL')
    await redis?.stop()
    redis = null
    await rm(dataDir, { recursive: true, force: true })
    await rm(aofDir, { recursive: true, force: true })
  })
  const env = (extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_ROWS: '500',
    WORKERS: '1',
    ADMIN_PASSWORD,
    ...extra,
  })

  it('embedded store: everything survives a SIGKILL of the service', async () => {
    const first = await start(env())
    await populate(first.base)
    await kill(first)
    const second = await start(env())
    await verify(second.base)
    await kill(second)
  })

  it('Redis with AOF: everything survives a SIGKILL of Redis and a restart of the service', async function () {
    if (!findRedisServer()) {
      if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed')
      return this.skip()
    }
    redis = await startRedisServer({ aofDir })
    const first = await start(env({ REDIS_URL: redis.url }))
    await populate(first.base)
    await kill(first)
    await redis.crash()
    redis = await startRedisServer({ port: redis.port, aofDir })
    const second = await start(env({ REDIS_URL: redis.url }))
    await verify(second.base)
    await kill(second)
  })
})
