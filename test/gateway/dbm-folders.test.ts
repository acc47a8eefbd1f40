import { expect } from 'chai'
import { writeTableVersion } from '../../engine/storage/index.js'
import { KEYS, parseRecord, type TableRecord, type UserRecord } from '../../gateway/catalog/records.js'
import { commitTable } from '../../gateway/catalog/tables.js'
import { ensureHomeFolder } from '../../gateway/catalog/write-access.js'
import { dropSubtreeOps, moveSubtreeOps, subtreeTxn, type Subtree } from '../../gateway/catalog/subtree.js'
import type { Store } from '../../shared/store/types.js'
import { LISTING_COLUMNS } from '../../gateway/catalog/listing.js'
import type { TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { catalogSnapshot, dbm, dbmFails, dbmOk, expectRetired, userCookie, type DbmAnswer } from '../helpers/dbm.js'

/** A small table written and committed straight to the catalog, as a save would. */
async function makeTable(svc: TestService, path: string, owner = 'admin'): Promise<TableRecord> {
  const meta = await writeTableVersion(svc.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([1, 2, 3])] })
  return commitTable(svc.deps.store, { path, owner }, meta)
}

/** A hidden object must be reported with the same code and message as a missing one. */
function expectLikeMissing(hidden: DbmAnswer, hiddenPath: string, missing: DbmAnswer, missingPath: string): void {
  expect(hidden.code).to.equal(missing.code)
  expect(hidden.msg!.split(hiddenPath).join('<path>')).to.equal(missing.msg!.split(missingPath).join('<path>'))
}

/** Every catalog key that belongs to `path` or lies below it. */
async function keysUnder(svc: TestService, path: string): Promise<string[]> {
  const keys = await svc.deps.store.keys('cat:')
  const kinds = ['cat:dir:', 'cat:table:', 'cat:entries:', 'cat:rev:']
  return keys.filter((k) => kinds.some((kind) => k === `${kind}${path}` || k.startsWith(`${kind}${path}.`)))
}

forEachStore('dbm folder transactions', (svc) => {
  let admin: string
  let alice: string
  let bob: string
  before(async () => {
    admin = await svc().login()
    alice = await userCookie(svc(), 'alice', { roles: ['folder_creator'] })
    bob = await userCookie(svc(), 'bob')
    // alice's folders: bob may read and write in al, but not see al.secret or alp.
    await dbmOk(svc(), alice, 'make_dir', { path: 'al', title: 'Alice', users: ['bob'], uploaders: ['bob'], inherit: false })
    await dbmOk(svc(), alice, 'make_dir', { path: 'al.secret', inherit: false })
    await dbmOk(svc(), alice, 'make_dir', { path: 'alp', title: 'Alice private' })
    await dbmOk(svc(), alice, 'make_dir', { path: 'shared', title: 'Shared', users: ['*'], inherit: false })
  })

  describe('get_names_in_dir', () => {
    it('lists folders as "dir" and tables as "tab" with full paths', async () => {
      const [kinds, names] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: 'pub.demo.retail' })
      expect(kinds.every((k) => k === 'tab')).to.equal(true)
      expect(names).to.include.members(['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'])
      const [dirKinds, dirNames] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: 'pub' })
      expect(dirKinds).to.deep.equal(['dir'])
      expect(dirNames).to.deep.equal(['pub.demo'])
    })

    it('lists the top-level folders the caller may see for the root', async () => {
      const [, asAdmin] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: '' })
      expect(asAdmin).to.include.members(['pub', 'al', 'alp', 'shared'])
      const [, asBob] = await dbmOk<[string[], string[]]>(svc(), bob, 'get_names_in_dir', { path: '' })
      expect(asBob).to.include.members(['pub', 'al', 'shared']).and.not.include('alp')
    })

    it('needs path, as the reference has it: leaving it out is an error, not the root', async () => {
      await dbmFails(svc(), bob, 'get_names_in_dir', {}, /needs the parameter "path"/)
    })

    it('answers "no such directory" for a missing folder and, identically, for one the caller may not see', async () => {
      const missing = await dbmFails(svc(), bob, 'get_names_in_dir', { path: 'nothere' }, /no such directory "nothere"/i)
      expect(missing.code).to.equal('unknown_directory')
      const hidden = await dbmFails(svc(), bob, 'get_names_in_dir', { path: 'alp' }, /no such directory/i)
      expectLikeMissing(hidden, 'alp', missing, 'nothere')
    })
  })

  describe('list_dir', () => {
    it('answers one level by default, with the listing columns', async () => {
      const value = await dbmOk<Record<string, unknown[]>>(svc(), admin, 'list_dir', { path: 'pub' })
      expect(Object.keys(value)).to.deep.equal(LISTING_COLUMNS)
      expect(value.path).to.deep.equal(['pub.demo'])
      expect(value.type).to.deep.equal(['dir'])
    })

    it('answers every level with depth 0, folders before their contents', async () => {
      const value = await dbmOk<Record<string, unknown[]>>(svc(), admin, 'list_dir', { path: 'pub', depth: 0 })
      expect(value.path.slice(0, 2)).to.deep.equal(['pub.demo', 'pub.demo.retail'])
      expect(value.path).to.include('pub.demo.retail.item')
      const item = value.path.indexOf('pub.demo.retail.item')
      expect(value.type[item]).to.equal('table')
      expect(value.rows[item]).to.be.a('number').and.greaterThan(0)
    })

    it('keeps only entries whose path or title contains find, ignoring case', async () => {
      const byPath = await dbmOk<Record<string, unknown[]>>(svc(), admin, 'list_dir', { path: 'pub', depth: 0, find: 'STOR' })
      expect(byPath.path).to.deep.equal(['pub.demo.retail.stores'])
      const byTitle = await dbmOk<Record<string, unknown[]>>(svc(), admin, 'list_dir', { path: '', find: 'PRIVATE' })
      expect(byTitle.path).to.deep.equal(['alp'])
    })

    it('refuses a negative depth and a folder the caller may not see', async () => {
      await dbmFails(svc(), admin, 'list_dir', { path: 'pub', depth: -1 }, /depth/)
      const hidden = await dbmFails(svc(), bob, 'list_dir', { path: 'al.secret' }, /no such directory/i)
      const missing = await dbmFails(svc(), bob, 'list_dir', { path: 'al.nothere' }, /no such directory/i)
      expectLikeMissing(hidden, 'al.secret', missing, 'al.nothere')
    })
  })

  describe('get_dir_info', () => {
    it('describes a folder, with only the included fields when include is given', async () => {
      const info = await dbmOk<Record<string, unknown>>(svc(), alice, 'get_dir_info', { path: 'al' })
      expect(info).to.include({ path: 'al', type: 'dir', title: 'Alice', owner: 'alice', inherit: 0 })
      expect(info.uploaders).to.deep.equal(['bob'])
      expect(info.id).to.be.a('number')
      expect(await dbmOk(svc(), alice, 'get_dir_info', { path: 'al', include: 'owner title' })).to.deep.equal({ owner: 'alice', title: 'Alice' })
    })

    it('refuses an unknown include field and a folder the caller may not see', async () => {
      await dbmFails(svc(), alice, 'get_dir_info', { path: 'al', include: ['colour'] }, /unknown field "colour"/)
      const hidden = await dbmFails(svc(), bob, 'get_dir_info', { path: 'alp' }, /no such directory/i)
      const missing = await dbmFails(svc(), bob, 'get_dir_info', { path: 'zz' }, /no such directory/i)
      expectLikeMissing(hidden, 'alp', missing, 'zz')
    })
  })

  describe('make_dir', () => {
    it('creates a folder owned by the caller, listed in its parent', async () => {
      const made = await dbmOk<Record<string, unknown>>(svc(), bob, 'make_dir', { path: 'al.bobs', title: 'Bob here', sdesc: 'short', users: ['alice'] })
      // Given readers are exactly who reads: inheritance off (make-dir-readers.test.ts).
      expect(made).to.include({ path: 'al.bobs', owner: 'bob', title: 'Bob here', sdesc: 'short', inherit: 0 })
      expect((await dbmOk<Record<string, unknown>>(svc(), bob, 'get_dir_info', { path: 'al.bobs' })).owner).to.equal('bob')
      const [, names] = await dbmOk<[string[], string[]]>(svc(), alice, 'get_names_in_dir', { path: 'al' })
      expect(names).to.include('al.bobs')
    })

    it('lets a holder of create_top_folders create top-level folders, and nobody else', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'alice_top' })
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'make_dir', { path: 'bob_top' }, /no permission to create top-level folders/)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('refuses a parent the caller may see but not write in', async () => {
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'make_dir', { path: 'shared.bob' }, /no permission to create in "shared"/)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('reports a missing parent, and a hidden one alike, as no such directory', async () => {
      const missing = await dbmFails(svc(), bob, 'make_dir', { path: 'nope.child' }, /no such directory "nope"/i)
      const hidden = await dbmFails(svc(), bob, 'make_dir', { path: 'al.secret.child' }, /no such directory "al.secret"/i)
      expectLikeMissing(hidden, 'al.secret', missing, 'nope')
    })

    it('refuses an invalid name, an existing folder and an existing table of that name', async () => {
      await dbmFails(svc(), alice, 'make_dir', { path: 'al.9lives' }, /invalid directory name "al.9lives"/i)
      const dup = await dbmFails(svc(), alice, 'make_dir', { path: 'al.secret' }, /directory "al.secret" already exists/i)
      expect(dup.code).to.equal('already_exists')
      await makeTable(svc(), 'al.tab', 'alice')
      const tab = await dbmFails(svc(), alice, 'make_dir', { path: 'al.tab' }, /table named "al.tab" already exists/i)
      expect(tab.code).to.equal('already_exists')
    })

    it('refuses unknown users and uploaders without creating anything', async () => {
      const before = await catalogSnapshot(svc())
      await dbmFails(svc(), alice, 'make_dir', { path: 'al.x', users: ['alice', 'ghost'] }, /user or group name in "users": ghost/)
      await dbmFails(svc(), alice, 'make_dir', { path: 'al.x', uploaders: 'nobody' }, /in "uploaders": nobody/)
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })
  })

  describe('set_dir_info', () => {
    before(async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.edit', title: 'Before' })
    })

    it('changes the given fields and keeps the others', async () => {
      const { id } = await dbmOk<{ id: number }>(svc(), alice, 'get_dir_info', { path: 'al.edit' })
      const value = await dbmOk<Record<string, unknown>>(svc(), alice, 'set_dir_info', {
        path: 'al.edit',
        id,
        title: 'After',
        ldesc: 'long',
        uploaders: 'bob',
        inherit: false,
      })
      expect(value).to.include({ title: 'After', ldesc: 'long', inherit: 0, owner: 'alice' })
      const info = await dbmOk<Record<string, unknown>>(svc(), admin, 'get_dir_info', { path: 'al.edit' })
      expect(info).to.include({ title: 'After', ldesc: 'long', sdesc: '', inherit: 0 })
      expect(info.uploaders).to.deep.equal(['bob'])
    })

    it('refuses a caller who can see the folder but does not own it, changing nothing', async () => {
      await dbmOk(svc(), alice, 'set_dir_info', { path: 'al.edit', users: ['bob'] })
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'set_dir_info', { path: 'al.edit', title: 'Mine' }, /only the owner of the directory "al.edit" \(alice\)/i)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('answers no such directory for a folder the caller may not see', async () => {
      const hidden = await dbmFails(svc(), bob, 'set_dir_info', { path: 'al.secret', title: 'x' }, /no such directory/i)
      const missing = await dbmFails(svc(), bob, 'set_dir_info', { path: 'al.gone', title: 'x' }, /no such directory/i)
      expectLikeMissing(hidden, 'al.secret', missing, 'al.gone')
    })

    it("refuses an id that is not the folder's own", async () => {
      const { id } = await dbmOk<{ id: number }>(svc(), alice, 'get_dir_info', { path: 'al.edit' })
      await dbmFails(
        svc(),
        alice,
        'set_dir_info',
        { path: 'al.edit', id: id + 1000, title: 'x' },
        new RegExp(`not the id of the directory "al.edit" \\(${id}\\)`),
      )
    })

    it('refuses an owner who does not exist or is not active', async () => {
      const r = await dbmFails(svc(), alice, 'set_dir_info', { path: 'al.edit', owner: 'ghost' }, /invalid user identification "ghost"/i)
      expect(r.code).to.equal('unknown_user')
      await userCookie(svc(), 'dora')
      const store = svc().deps.store
      const dora = parseRecord<UserRecord>(await store.get(KEYS.user('dora')))!
      await store.set(KEYS.user('dora'), JSON.stringify({ ...dora, active: false }))
      await dbmFails(svc(), alice, 'set_dir_info', { path: 'al.edit', owner: 'dora' }, /invalid user identification "dora"/i)
      await dbmFails(svc(), alice, 'set_dir_info', { path: 'al.edit', users: ['ghost'] }, /in "users": ghost/)
    })

    it('hands the folder to a new owner, who may then edit it while the old owner may not', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.gift', users: ['*'], inherit: false })
      await dbmOk(svc(), alice, 'set_dir_info', { path: 'al.gift', owner: 'bob' })
      expect((await dbmOk<Record<string, unknown>>(svc(), bob, 'set_dir_info', { path: 'al.gift', title: 'Thanks' })).owner).to.equal('bob')
      await dbmFails(svc(), alice, 'set_dir_info', { path: 'al.gift', title: 'Back' }, /only the owner/i)
    })
  })

  describe('drop_dir', () => {
    it('drops an empty folder', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.empty' })
      expect(await dbmOk(svc(), alice, 'drop_dir', { path: 'al.empty' })).to.equal(true)
      await dbmFails(svc(), alice, 'get_dir_info', { path: 'al.empty' }, /no such directory/i)
      expect(await keysUnder(svc(), 'al.empty')).to.deep.equal([])
      const [, names] = await dbmOk<[string[], string[]]>(svc(), alice, 'get_names_in_dir', { path: 'al' })
      expect(names).to.not.include('al.empty')
    })

    it('refuses a folder with entries unless recursive, changing nothing', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.full' })
      await makeTable(svc(), 'al.full.t', 'alice')
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), alice, 'drop_dir', { path: 'al.full' }, /directory "al.full" is not empty.*recursive/i)
      expect(r.code).to.equal('directory_not_empty')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('drops a whole tree with recursive: records, listings, revisions, and retires every version', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.tree' })
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.tree.sub' })
      const t1 = await makeTable(svc(), 'al.tree.t1', 'alice')
      const t2 = await makeTable(svc(), 'al.tree.sub.t2', 'bob')
      const res = await svc().http.post('/v1/api/sql:json').set('Cookie', alice).send({ sql: 'select sum(x) s from al.tree.sub.t2' })
      expect(res.body).to.deep.equal({ s: [6] })
      expect(await dbmOk(svc(), alice, 'drop_dir', { path: 'al.tree', recursive: true })).to.equal(true)
      expect(await keysUnder(svc(), 'al.tree')).to.deep.equal([])
      await expectRetired(svc(), t1.version)
      await expectRetired(svc(), t2.version)
      const gone = await svc().http.post('/v1/api/sql:json').set('Cookie', alice).send({ sql: 'select sum(x) s from al.tree.sub.t2' })
      expect(gone.status).to.equal(404)
      expect(gone.body.code).to.equal('unknown_table')
      const [, names] = await dbmOk<[string[], string[]]>(svc(), alice, 'get_names_in_dir', { path: 'al' })
      expect(names).to.not.include('al.tree')
    })

    it('accepts the XML name dropdir, which drops recursively', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.xml' })
      await makeTable(svc(), 'al.xml.t', 'alice')
      expect(await dbmOk(svc(), alice, 'dropdir', { name: 'al.xml' })).to.equal(true)
      expect(await keysUnder(svc(), 'al.xml')).to.deep.equal([])
    })

    it('refuses a caller who is not the owner, changing nothing', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'al.keep', users: ['bob'], inherit: false })
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'drop_dir', { path: 'al.keep' }, /only the owner of the directory "al.keep"/i)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('answers no such directory for a missing folder and for one the caller may not see', async () => {
      const missing = await dbmFails(svc(), bob, 'drop_dir', { path: 'al.never' }, /no such directory/i)
      const hidden = await dbmFails(svc(), bob, 'drop_dir', { path: 'al.secret' }, /no such directory/i)
      expectLikeMissing(hidden, 'al.secret', missing, 'al.never')
    })

    it('never drops the reserved uploads folder, but lets a user drop their own home folder', async () => {
      await ensureHomeFolder(svc().deps.store, 'bob')
      await makeTable(svc(), 'uploads.bob.mine', 'bob')
      const r = await dbmFails(svc(), admin, 'drop_dir', { path: 'uploads', recursive: true }, /reserved folder "uploads" cannot be dropped/)
      expect(r.code).to.equal('forbidden')
      expect(await dbmOk(svc(), bob, 'drop_dir', { path: 'uploads.bob', recursive: true })).to.equal(true)
      expect(await keysUnder(svc(), 'uploads.bob')).to.deep.equal([])
      expect((await dbmOk<Record<string, unknown>>(svc(), admin, 'get_dir_info', { path: 'uploads' })).path).to.equal('uploads')
    })

    it('leaves no orphan when folders and tables are created inside the tree while it is dropped', async function () {
      this.timeout(60_000)
      const store = svc().deps.store
      const N = 24
      const later = <T>(i: number, f: () => Promise<T>): Promise<T> => new Promise((resolve) => setTimeout(resolve, i)).then(f)
      for (let round = 0; round < 3; round++) {
        const root = `race${round}`
        await dbmOk(svc(), admin, 'make_dir', { path: root })
        await dbmOk(svc(), admin, 'make_dir', { path: `${root}.a` })
        await dbmOk(svc(), admin, 'make_dir', { path: `${root}.b` })
        const metas = await Promise.all(
          Array.from({ length: N }, () => writeTableVersion(svc().dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([1])] })),
        )
        // Creations spread over time with the drop started among them, so they may land before,
        // during or after it (the subtreeTxn tests below force the "during" cases).
        const makes = Array.from({ length: N }, (_, i) => later(i, () => dbm(svc(), admin, 'make_dir', { path: `${root}.a.d${i}` })))
        const commits = metas.map((meta, i) =>
          later(i, () => commitTable(store, { path: `${root}.b.t${i}`, owner: 'admin' }, meta)).then(
            (t) => ({ ok: true as const, version: t.version }),
            (e: { code?: string }) => ({ ok: false as const, code: e.code }),
          ),
        )
        const drop = later(N / 2, () => dbm(svc(), admin, 'drop_dir', { path: root, recursive: true }))
        const [dropped, made, committed] = await Promise.all([drop, Promise.all(makes), Promise.all(commits)])
        expect(dropped.rc, dropped.msg).to.equal(0)
        expect(await keysUnder(svc(), root)).to.deep.equal([])
        for (const m of made) if (m.rc === 1) expect(m.code).to.equal('unknown_directory')
        for (const c of committed) {
          if (c.ok) await expectRetired(svc(), c.version)
          else expect(c.code).to.equal('UNKNOWN_DIRECTORY')
        }
        const [, top] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: '' })
        expect(top).to.not.include(root)
      }
    })
  })
  describe('subtreeTxn()', () => {
    /** The store, with `hook` run once just before the first call of `method` that matches. */
    function interfering(method: 'watch' | 'batch', hook: () => Promise<unknown>): Store {
      const store = svc().deps.store
      let pending = true
      return new Proxy(store, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown
          if (typeof value !== 'function') return value
          if (prop !== method) return value.bind(target)
          return async (...args: unknown[]) => {
            if (pending && (method === 'watch' || args[1] !== undefined)) {
              pending = false
              await hook()
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args)
          }
        },
      })
    }

    const dropTree = (store: Store, root: string): Promise<Subtree> =>
      subtreeTxn(store, root, [], (tree, w) => ({ ops: dropSubtreeOps(tree, w), result: tree }))

    it('reads the tree again when a folder appears inside it between the first read and the watch', async () => {
      await dbmOk(svc(), admin, 'make_dir', { path: 'w1' })
      await dbmOk(svc(), admin, 'make_dir', { path: 'w1.a' })
      const store = interfering('watch', () => dbmOk(svc(), admin, 'make_dir', { path: 'w1.a.late' }))
      const dropped = await dropTree(store, 'w1')
      expect(dropped.dirs).to.deep.equal(['w1', 'w1.a', 'w1.a.late'])
      expect(await keysUnder(svc(), 'w1')).to.deep.equal([])
    })

    it('starts again when a table is committed inside the tree after the watch began', async () => {
      await dbmOk(svc(), admin, 'make_dir', { path: 'w2' })
      await dbmOk(svc(), admin, 'make_dir', { path: 'w2.a' })
      let late: TableRecord | null = null
      const store = interfering('batch', async () => (late = await makeTable(svc(), 'w2.a.late')))
      const dropped = await dropTree(store, 'w2')
      expect(dropped.tables).to.deep.equal(['w2.a.late'])
      expect(await keysUnder(svc(), 'w2')).to.deep.equal([])
      await expectRetired(svc(), late!.version)
    })

    it('moves a table committed inside the tree during a move along with the tree', async () => {
      await dbmOk(svc(), admin, 'make_dir', { path: 'w3' })
      await dbmOk(svc(), admin, 'make_dir', { path: 'w3.a' })
      const store = interfering('batch', () => makeTable(svc(), 'w3.a.late'))
      await subtreeTxn(store, 'w3', [], (tree, w) => ({ ops: moveSubtreeOps(tree, w, 'w4', new Date().toISOString()), result: null }))
      expect(await keysUnder(svc(), 'w3')).to.deep.equal([])
      const [, names] = await dbmOk<[string[], string[]]>(svc(), admin, 'get_names_in_dir', { path: 'w4.a' })
      expect(names).to.deep.equal(['w4.a.late'])
      expect((await dbmOk<Record<string, unknown>>(svc(), admin, 'get_table_info', { path: 'w4.a.late' })).path).to.equal('w4.a.late')
    })
  })
})
