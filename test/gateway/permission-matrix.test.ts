/**
 * The permission matrix: every transaction and endpoint that touches folders and tables, tried by
 * each kind of caller — the owner, a reader (listed in the folder's users), another user of the
 * same company, a user of another company, an administrator. For each it asserts allowed or
 * denied; a denial changes nothing in the catalog, and a caller who may not read the object gets
 * exactly the answer a missing object gives. Deactivated users are covered at the end.
 */
import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { catalogSnapshot, dbm, userCookie } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { createDir, commitTable } from '../../gateway/catalog/tables.js'
import { KEYS } from '../../gateway/catalog/records.js'
import { ensureHomeFolder } from '../../gateway/catalog/write-access.js'
import { writeTableVersion } from '../../engine/storage/index.js'

type Actor = 'owner' | 'reader' | 'other' | 'outsider' | 'admin'
const ACTORS: readonly Actor[] = ['owner', 'reader', 'other', 'outsider', 'admin']
const UID: Record<Actor, string> = { owner: 'mx_owner', reader: 'mx_reader', other: 'mx_other', outsider: 'mx_outsider', admin: 'admin' }
const READERS: readonly Actor[] = ['owner', 'reader', 'admin']
const EDITORS: readonly Actor[] = ['owner', 'admin']

/** What one attempt came to, in a form that compares across paths. */
interface Outcome {
  readonly ok: boolean
  readonly status: number
  readonly code?: string
  readonly msg?: string
  /** On success: the answer (the dbm value, or the response body) as JSON text. */
  readonly text?: string
}

/** The paths a case works on: the fixture's, or missing ones of the same shape. */
interface Paths {
  readonly dir: string
  readonly table: string
  /** The acting user's own home folder. */
  readonly home: string
}

interface Case {
  readonly name: string
  readonly allowed: readonly Actor[]
  readonly act: (call: Caller, p: Paths) => Promise<Outcome>
  /** A read: what its answer must show of the fixture (a success that showed nothing would not do). */
  readonly shows?: (p: Paths) => RegExp
  /** A change: whether it happened, as an administrator sees it afterwards. */
  readonly happened?: (admin: Caller, p: Paths) => Promise<boolean>
}

type Caller = {
  dbm(name: string, params: Record<string, unknown>): Promise<Outcome>
  post(path: string, body: Record<string, unknown>): Promise<Outcome>
  get(path: string): Promise<Outcome>
}

const xmlBase = (table: string) => `<base table="${table}"/>`

/** Whether a table (or, with dir, a folder) exists at the path, as an administrator sees it. */
const exists = async (admin: Caller, path: string, dir = false): Promise<boolean> => (await admin.dbm(dir ? 'get_dir_info' : 'get_table_info', { path })).ok
const titled = async (admin: Caller, name: string, path: string): Promise<boolean> => /"title":"Renamed"/.test((await admin.dbm(name, { path })).text ?? '')
const QTY = /"qty":\[10,20,30\]/
const escaped = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))

const CASES: readonly Case[] = [
  // Reading
  { name: 'dbm get_names_in_dir', allowed: READERS, act: (c, p) => c.dbm('get_names_in_dir', { path: p.dir }), shows: (p) => escaped(p.table) },
  { name: 'dbm list_dir', allowed: READERS, act: (c, p) => c.dbm('list_dir', { path: p.dir }), shows: (p) => escaped(p.table) },
  { name: 'dbm get_dir_info', allowed: READERS, act: (c, p) => c.dbm('get_dir_info', { path: p.dir }), shows: (p) => escaped(`"${p.dir}"`) },
  { name: 'dbm get_table_info', allowed: READERS, act: (c, p) => c.dbm('get_table_info', { path: p.table }), shows: (p) => escaped(`"${p.table}"`) },
  { name: 'dbm get_table_cols', allowed: READERS, act: (c, p) => c.dbm('get_table_cols', { path: p.table }), shows: () => /qty/ },
  { name: 'dbm get_permissions', allowed: READERS, act: (c, p) => c.dbm('get_permissions', { path: p.table }), shows: () => /"owner":"mx_owner"/ },
  {
    name: 'dbm copy_table (source)',
    allowed: READERS,
    act: (c, p) => c.dbm('copy_table', { from: p.table, to: `${p.home}.copied` }),
    happened: (a, p) => exists(a, `${p.home}.copied`),
  },
  {
    name: 'dbm save_table (source)',
    allowed: READERS,
    act: (c, p) => c.dbm('save_table', { path: `${p.home}.saved`, xml: xmlBase(p.table) }),
    happened: (a, p) => exists(a, `${p.home}.saved`),
  },
  { name: 'api/sql', allowed: READERS, act: (c, p) => c.post('sql:json', { sql: `select count(*) n from ${p.table}` }), shows: () => /"n":\[3\]/ },
  { name: 'api/run base', allowed: READERS, act: (c, p) => c.post('run:json', { xml: xmlBase(p.table) }), shows: () => QTY },
  {
    name: 'api/run link',
    allowed: READERS,
    act: (c, p) => c.post('run:json', { xml: `<base table="pub.demo.retail.products"/><link table2="${p.table}" col="sku" col2="sku" cols="qty"/>` }),
    shows: () => /"qty":\[/,
  },
  {
    name: 'api/run merge',
    allowed: READERS,
    act: (c, p) => c.post('run:json', { xml: `${xmlBase('pub.demo.retail.products')}<merge table2="${p.table}"/>` }),
    shows: () => /"qty":\[[^\]]*\b30\b/,
  },
  { name: 'api/{table}', allowed: READERS, act: (c, p) => c.get(`${p.table}:json`), shows: () => QTY },
  { name: 'api/{table}/!cols', allowed: READERS, act: (c, p) => c.get(`${p.table}/!cols:json`), shows: () => /qty/ },
  { name: 'api/{folder}', allowed: READERS, act: (c, p) => c.get(`${p.dir}:json`), shows: (p) => escaped(p.table) },
  { name: 'api/ls/{folder}', allowed: READERS, act: (c, p) => c.get(`ls/${p.dir}:json`), shows: (p) => escaped(p.table) },
  // Writing into the folder
  {
    name: 'dbm make_dir inside',
    allowed: EDITORS,
    act: (c, p) => c.dbm('make_dir', { path: `${p.dir}.made` }),
    happened: (a, p) => exists(a, `${p.dir}.made`, true),
  },
  {
    name: 'dbm upload_table into',
    allowed: EDITORS,
    act: (c, p) => c.dbm('upload_table', { path: `${p.dir}.up`, cols: [{ name: 'a', type: 'int' }], data: { a: [1] } }),
    happened: (a, p) => exists(a, `${p.dir}.up`),
  },
  {
    name: 'dbm save_table into',
    allowed: EDITORS,
    act: (c, p) => c.dbm('save_table', { path: `${p.dir}.saved`, xml: xmlBase('pub.demo.retail.stores') }),
    happened: (a, p) => exists(a, `${p.dir}.saved`),
  },
  {
    name: 'dbm copy_table into',
    allowed: EDITORS,
    act: (c, p) => c.dbm('copy_table', { from: 'pub.demo.retail.stores', to: `${p.dir}.copy` }),
    happened: (a, p) => exists(a, `${p.dir}.copy`),
  },
  {
    name: 'api/run savetable into',
    allowed: EDITORS,
    act: (c, p) => c.post('run:json', { xml: xmlBase('pub.demo.retail.stores'), savetable: `${p.dir}.viarun` }),
    happened: (a, p) => exists(a, `${p.dir}.viarun`),
  },
  // Editing the objects
  {
    name: 'dbm set_dir_info',
    allowed: EDITORS,
    act: (c, p) => c.dbm('set_dir_info', { path: p.dir, title: 'Renamed' }),
    happened: (a, p) => titled(a, 'get_dir_info', p.dir),
  },
  {
    name: 'dbm set_table_info',
    allowed: EDITORS,
    act: (c, p) => c.dbm('set_table_info', { path: p.table, title: 'Renamed' }),
    happened: (a, p) => titled(a, 'get_table_info', p.table),
  },
  {
    name: 'dbm share',
    allowed: EDITORS,
    act: (c, p) => c.dbm('share', { path: p.table, add: ['mx_other'] }),
    happened: async (a, p) => /mx_other/.test((await a.dbm('get_permissions', { path: p.table })).text ?? ''),
  },
  { name: 'dbm drop_table', allowed: EDITORS, act: (c, p) => c.dbm('drop_table', { path: p.table }), happened: async (a, p) => !(await exists(a, p.table)) },
  {
    name: 'dbm drop_dir',
    allowed: EDITORS,
    act: (c, p) => c.dbm('drop_dir', { path: p.dir, recursive: true }),
    happened: async (a, p) => !(await exists(a, p.dir, true)),
  },
  {
    name: 'dbm move (table out)',
    allowed: EDITORS,
    act: (c, p) => c.dbm('move', { from: p.table, to: `${p.home}.moved` }),
    happened: async (a, p) => (await exists(a, `${p.home}.moved`)) && !(await exists(a, p.table)),
  },
  {
    name: 'dbm move (rename folder)',
    allowed: EDITORS,
    act: (c, p) => c.dbm('move', { from: p.dir, to: `${p.dir}_renamed` }),
    happened: async (a, p) => (await exists(a, `${p.dir}_renamed`, true)) && !(await exists(a, p.dir, true)),
  },
  {
    name: 'dbm upload_table replace',
    allowed: EDITORS,
    act: (c, p) =>
      c.dbm('upload_table', {
        path: p.table,
        mode: 'replace',
        cols: [
          { name: 'sku', type: 'int' },
          { name: 'qty', type: 'int' },
        ],
        data: { sku: [9], qty: [9] },
      }),
    happened: async (a, p) => /"qty":\[9\]/.test((await a.post('sql:json', { sql: `select qty from ${p.table}` })).text ?? ''),
  },
]

async function makeFixture(svc: TestService, dir: string): Promise<void> {
  const store = svc.deps.store
  await createDir(store, { path: dir, owner: UID.owner, title: 'Matrix folder', users: [UID.reader], inherit: false })
  const meta = await writeTableVersion(svc.dataDir, {
    columns: [
      { name: 'sku', type: 'int' },
      { name: 'qty', type: 'int' },
    ],
    data: [Int32Array.from([1, 2, 3]), Int32Array.from([10, 20, 30])],
  })
  await commitTable(store, { path: `${dir}.t`, owner: UID.owner }, meta)
}

/** The message with the missing paths written as the fixture's, so the two can be compared. */
function asFixture(o: Outcome, missing: Paths, real: Paths): Outcome {
  const msg = o.msg?.split(missing.table).join(real.table).split(missing.dir).join(real.dir)
  return { ...o, msg }
}

forEachStore('permission matrix', (svc) => {
  const cookies = {} as Record<Actor, string>
  before(async function () {
    this.timeout(30_000)
    const store = svc().deps.store
    await store.set(KEYS.company('ext'), JSON.stringify({ company: 'ext', name: 'Elsewhere', admins: [], max_ids: 0 }))
    await store.sadd(KEYS.allCompanies, 'ext')
    cookies.admin = await svc().login()
    for (const a of ['owner', 'reader', 'other'] as const) cookies[a] = await userCookie(svc(), UID[a])
    cookies.outsider = await userCookie(svc(), UID.outsider, { company: 'ext' })
    // Home folders are made on first use; made here, so that making one is not a catalog change
    // inside a case that is refused for another reason.
    for (const a of ACTORS) await ensureHomeFolder(store, UID[a])
  })

  const caller = (actor: Actor): Caller => {
    const answer = (res: { status: number; body: Record<string, unknown>; text: string }): Outcome =>
      res.status === 200
        ? { ok: true, status: 200, text: res.text }
        : { ok: false, status: res.status, code: res.body.code as string, msg: res.body.error as string }
    return {
      async dbm(name, params) {
        const r = await dbm(svc(), cookies[actor], name, params)
        return r.rc === 0 ? { ok: true, status: 200, text: JSON.stringify(r.value) } : { ok: false, status: 200, code: r.code, msg: r.msg }
      },
      async post(path, body) {
        return answer(await svc().http.post(`/v1/api/${path}`).set('Cookie', cookies[actor]).send(body))
      },
      async get(path) {
        return answer(await svc().http.get(`/v1/api/${path}`).set('Cookie', cookies[actor]))
      },
    }
  }

  let serial = 0
  for (const c of CASES) {
    describe(c.name, () => {
      for (const actor of ACTORS) {
        const allowed = c.allowed.includes(actor)
        it(`${allowed ? 'allows' : 'refuses'} the ${actor}`, async () => {
          const n = ++serial
          const real: Paths = { dir: `mx${n}`, table: `mx${n}.t`, home: `uploads.${UID[actor]}` }
          await makeFixture(svc(), real.dir)
          const before = await catalogSnapshot(svc())
          const outcome = await c.act(caller(actor), real)
          if (allowed) {
            expect(outcome, JSON.stringify(outcome)).to.include({ ok: true })
            // Allowed is not enough: the read showed the fixture, the change took place.
            if (c.shows) expect(outcome.text, `${c.name} by the ${actor}`).to.match(c.shows(real))
            if (c.happened) expect(await c.happened(caller('admin'), real), `${c.name} by the ${actor} took place`).to.equal(true)
            return
          }
          expect(outcome.ok, `${actor} should be refused`).to.equal(false)
          expect(outcome.status).to.be.oneOf([200, 403, 404])
          expect(await catalogSnapshot(svc()), 'a refused change must change nothing').to.deep.equal(before)
          if (!READERS.includes(actor)) {
            // Cannot see it: the answer must be the one a missing object gets.
            const missing: Paths = { dir: `zz${n}`, table: `zz${n}.t`, home: real.home }
            const forMissing = await c.act(caller(actor), missing)
            expect(outcome).to.deep.equal(asFixture(forMissing, missing, real))
          }
        })
      }
    })
  }

  it('lists a folder only to those who may read it', async () => {
    await makeFixture(svc(), 'mxlisted')
    for (const actor of ACTORS) {
      const r = await dbm(svc(), cookies[actor], 'get_names_in_dir', { path: '' })
      expect(r.rc).to.equal(0)
      const [, names] = r.value as [string[], string[]]
      expect(names.includes('mxlisted'), actor).to.equal(READERS.includes(actor))
    }
  })

  describe('a deactivated user', () => {
    it('is logged out at once, cannot log in, and is refused everywhere', async () => {
      const cookie = await userCookie(svc(), 'mx_leaver')
      await makeFixture(svc(), 'mxleaver')
      await dbm(svc(), cookies.admin, 'share', { path: 'mxleaver', add: ['mx_leaver'] })
      expect((await svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select count(*) n from mxleaver.t' })).status).to.equal(200)
      const r = await dbm(svc(), cookies.admin, 'deactivate_user', { uid: 'mx_leaver' })
      expect(r.rc, r.msg).to.equal(0)
      for (const [path, body] of [
        ['sql:json', { sql: 'select 1' }],
        ['run:json', { xml: xmlBase('mxleaver.t') }],
        ['dbm:json', { cmd: ['get_user', {}] }],
      ] as const) {
        const res = await svc().http.post(`/v1/api/${path}`).set('Cookie', cookie).send(body)
        expect(res.status, path).to.equal(403)
        expect(res.body.code).to.equal('no_session')
      }
      expect((await svc().http.get('/v1/api/mxleaver.t:json').set('Cookie', cookie)).status).to.equal(403)
      const login = await svc().http.post('/v1/api/!login:json').type('form').send({ uid: 'mx_leaver', pw: 'mx_leaver-pass-1' })
      expect(login.status).to.equal(401)
      await dbm(svc(), cookies.admin, 'activate_user', { uid: 'mx_leaver' })
      expect((await svc().http.post('/v1/api/!login:json').type('form').send({ uid: 'mx_leaver', pw: 'mx_leaver-pass-1' })).status).to.equal(200)
    })
  })
})

/**
 * The same for users, groups, companies and roles. The callers: an administrator, the
 * administrator of company main (listed in its admins), the user the change is about ("self"),
 * another user of main, and a user of another company.
 */
type PeopleActor = 'admin' | 'coadmin' | 'self' | 'other' | 'outsider'
const PEOPLE_ACTORS: readonly PeopleActor[] = ['admin', 'coadmin', 'self', 'other', 'outsider']

type PeopleFixture = { uid: string; group: string; n: number }

interface PeopleCase {
  readonly name: string
  readonly allowed: readonly PeopleActor[]
  /** `uid` is the user the change is about; `group` a group they own and belong to; `n` a fresh number. */
  readonly params: (f: PeopleFixture) => [string, Record<string, unknown>]
  /**
   * Whether it did what it says: given the value it answered and what an administrator's `ask`
   * reads afterwards (the value of a transaction, or null when refused).
   */
  readonly happened: (
    f: PeopleFixture,
    value: unknown,
    ask: (name: string, params: Record<string, unknown>) => Promise<unknown>,
    loginWorks: (uid: string, pw: string) => Promise<boolean>,
  ) => Promise<boolean>
}

/** A value as text, to look for a name or a field in it. */
const text = (value: unknown): string => JSON.stringify(value) ?? ''

const MANAGERS: readonly PeopleActor[] = ['admin', 'coadmin']
const PEOPLE_CASES: readonly PeopleCase[] = [
  {
    name: 'get_user',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['get_user', { uid: f.uid }],
    happened: async (f, v) => text(v).includes(`"uid":"${f.uid}"`),
  },
  { name: 'list_users', allowed: MANAGERS, params: () => ['list_users', {}], happened: async (f, v) => text(v).includes(`"${f.uid}"`) },
  {
    name: 'add_user',
    allowed: MANAGERS,
    params: (f) => ['add_user', { uid: `pn${f.n}`, first: 'New', last: 'User', email: 'new@example.com', company: 'main' }],
    happened: async (f, _v, ask) => (await ask('get_user', { uid: `pn${f.n}` })) !== null,
  },
  {
    name: 'set_user',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['set_user', { uid: f.uid, first: 'Changed' }],
    happened: async (f, _v, ask) => text(await ask('get_user', { uid: f.uid })).includes('"first":"Changed"'),
  },
  {
    name: 'deactivate_user',
    allowed: MANAGERS,
    params: (f) => ['deactivate_user', { uid: f.uid }],
    happened: async (f, _v, ask) => text(await ask('get_user', { uid: f.uid })).includes('"active":false'),
  },
  {
    name: 'set_password (reset)',
    allowed: MANAGERS,
    params: (f) => ['set_password', { uid: f.uid, new_password: 'reset-pass-1' }],
    happened: async (f, _v, _ask, loginWorks) => loginWorks(f.uid, 'reset-pass-1'),
  },
  {
    name: 'grant_role user_admin',
    allowed: MANAGERS,
    params: (f) => ['grant_role', { uid: f.uid, role: 'user_admin' }],
    happened: async (f, _v, ask) => /"roles":\[[^\]]*"user_admin"/.test(text(await ask('get_user', { uid: f.uid }))),
  },
  {
    name: 'grant_role admin',
    allowed: ['admin'],
    params: (f) => ['grant_role', { uid: f.uid, role: 'admin' }],
    happened: async (f, _v, ask) => /"roles":\[[^\]]*"admin"/.test(text(await ask('get_user', { uid: f.uid }))),
  },
  {
    name: 'get_group',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['get_group', { group: f.group }],
    happened: async (f, v) => text(v).includes(`"${f.group}"`),
  },
  {
    name: 'set_group',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['set_group', { group: f.group, title: 'Changed' }],
    happened: async (f, _v, ask) => text(await ask('get_group', { group: f.group })).includes('"title":"Changed"'),
  },
  {
    name: 'drop_group',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['drop_group', { group: f.group }],
    happened: async (f, _v, ask) => (await ask('get_group', { group: f.group })) === null,
  },
  {
    name: 'add_group owned by the user',
    allowed: [...MANAGERS, 'self'],
    params: (f) => ['add_group', { group: `pgn${f.n}`, owner: f.uid }],
    happened: async (f, _v, ask) => text(await ask('get_group', { group: `pgn${f.n}` })).includes(`"owner":"${f.uid}"`),
  },
  {
    name: 'get_company main',
    allowed: ['admin', 'coadmin', 'self', 'other'],
    params: () => ['get_company', { company: 'main' }],
    happened: async (_f, v) => text(v).includes('"company":"main"'),
  },
  {
    name: 'set_company main',
    allowed: MANAGERS,
    params: () => ['set_company', { company: 'main', phone: '555-0100' }],
    happened: async (_f, _v, ask) => text(await ask('get_company', { company: 'main' })).includes('555-0100'),
  },
  {
    name: 'add_company',
    allowed: ['admin'],
    params: (f) => ['add_company', { company: `co${f.n}`, name: 'New Co' }],
    happened: async (f, _v, ask) => (await ask('get_company', { company: `co${f.n}` })) !== null,
  },
  {
    name: 'add_role',
    allowed: ['admin'],
    params: (f) => ['add_role', { role: `role${f.n}`, capabilities: ['create_top_folders'] }],
    happened: async (f, _v, ask) => text(await ask('get_role', { role: `role${f.n}` })).includes('create_top_folders'),
  },
]

forEachStore('permission matrix: users, groups, companies, roles', (svc) => {
  const cookies = {} as Record<Exclude<PeopleActor, 'self'>, string>
  before(async function () {
    this.timeout(30_000)
    const store = svc().deps.store
    await store.set(KEYS.company('ext'), JSON.stringify({ company: 'ext', name: 'Elsewhere', admins: [], max_ids: 0 }))
    await store.sadd(KEYS.allCompanies, 'ext')
    cookies.admin = await svc().login()
    cookies.coadmin = await userCookie(svc(), 'pm_coadmin')
    const made = await dbm(svc(), cookies.admin, 'set_company', { company: 'main', admins: ['pm_coadmin'] })
    expect(made.rc, made.msg).to.equal(0)
    cookies.other = await userCookie(svc(), 'pm_other')
    cookies.outsider = await userCookie(svc(), 'pm_outsider', { company: 'ext' })
  })

  const loginWorks = async (uid: string, pw: string): Promise<boolean> =>
    (await svc().http.post('/v1/api/!login:json').type('form').send({ uid, pw })).status === 200

  let serial = 0
  for (const c of PEOPLE_CASES) {
    describe(c.name, () => {
      for (const actor of PEOPLE_ACTORS) {
        const allowed = c.allowed.includes(actor)
        it(`${allowed ? 'allows' : 'refuses'} ${actor === 'self' ? 'the user themselves' : `the ${actor}`}`, async () => {
          const n = ++serial
          const uid = `pt${n}`
          const self = await userCookie(svc(), uid)
          const group = `pg${n}`
          const g = await dbm(svc(), self, 'add_group', { group, users: [uid] })
          expect(g.rc, g.msg).to.equal(0)
          const [name, params] = c.params({ uid, group, n })
          const before = await catalogSnapshot(svc())
          const r = await dbm(svc(), actor === 'self' ? self : cookies[actor], name, params)
          if (allowed) {
            expect(r.rc, r.msg).to.equal(0)
            const ask = async (what: string, p: Record<string, unknown>): Promise<unknown> => {
              const answer = await dbm(svc(), cookies.admin, what, p)
              return answer.rc === 0 ? answer.value : null
            }
            expect(await c.happened({ uid, group, n }, r.value, ask, loginWorks), `${name} by ${actor} took place`).to.equal(true)
            return
          }
          expect(r.rc, `${actor} should be refused ${name}`).to.equal(1)
          expect(await catalogSnapshot(svc()), 'a refused change must change nothing').to.deep.equal(before)
        })
      }
    })
  }

  it('tells a caller who may not see a user exactly what it tells for a missing one', async () => {
    await userCookie(svc(), 'pm_hidden')
    const hidden = await dbm(svc(), cookies.other, 'get_user', { uid: 'pm_hidden' })
    const missing = await dbm(svc(), cookies.other, 'get_user', { uid: 'pm_nobody' })
    expect(hidden.rc).to.equal(1)
    expect({ ...hidden, msg: hidden.msg?.replace('pm_hidden', 'X') }).to.deep.equal({ ...missing, msg: missing.msg?.replace('pm_nobody', 'X') })
  })
})
