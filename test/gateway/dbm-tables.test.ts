import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { tablesDir, writeTableVersion } from '../../engine/storage/index.js'
import { KEYS, parseRecord, type TableRecord } from '../../gateway/catalog/records.js'
import { sweepRetiredVersions } from '../../gateway/catalog/retired.js'
import { commitTable } from '../../gateway/catalog/tables.js'
import { ensureHomeFolder } from '../../gateway/catalog/write-access.js'
import { loggedIn, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { catalogSnapshot, dbmFails, dbmOk, expectRetired, userCookie, type DbmAnswer } from '../helpers/dbm.js'

/** A two-column table (x = 1, 2, 3 plus a text column) committed straight to the catalog. */
async function makeTable(svc: TestService, path: string, owner = 'alice', x = [1, 2, 3]): Promise<TableRecord> {
  const meta = await writeTableVersion(svc.dataDir, {
    columns: [
      { name: 'x', type: 'int', label: 'X value' },
      { name: 'name', type: 'text' },
    ],
    data: [Int32Array.from(x), x.map((v) => `n${v}`)],
  })
  return commitTable(svc.deps.store, { path, owner }, meta)
}

function expectLikeMissing(hidden: DbmAnswer, hiddenPath: string, missing: DbmAnswer, missingPath: string): void {
  expect(hidden.code).to.equal(missing.code)
  expect(hidden.msg!.split(hiddenPath).join('<path>')).to.equal(missing.msg!.split(missingPath).join('<path>'))
}

async function record(svc: TestService, path: string): Promise<TableRecord | null> {
  return parseRecord<TableRecord>(await svc.deps.store.get(KEYS.table(path)))
}

forEachStore('dbm table transactions', (svc) => {
  const admin = loggedIn(svc)
  let alice: string
  let bob: string
  const sql = (cookie: string, query: string) => svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: query })
  const versionFolders = () => readdir(tablesDir(svc().dataDir))
  /**
   * No version folder appeared since `before`. Folders may go meanwhile: the sweeper removes the
   * versions an earlier test retired (a replaced or dropped table) on its own schedule.
   */
  const expectNoNewVersion = async (before: readonly string[]) => expect((await versionFolders()).filter((v) => !before.includes(v))).to.deep.equal([])

  before(async () => {
    alice = await userCookie(svc(), 'alice', { roles: ['folder_creator'] })
    bob = await userCookie(svc(), 'bob')
    // tb: bob reads and writes there; tbp: alice's alone; shr: everyone reads, nobody else writes.
    await dbmOk(svc(), alice, 'make_dir', { path: 'tb', users: ['bob'], uploaders: ['bob'], inherit: false })
    await dbmOk(svc(), alice, 'make_dir', { path: 'tbp' })
    await dbmOk(svc(), alice, 'make_dir', { path: 'shr', users: ['*'], inherit: false })
    await makeTable(svc(), 'tb.info')
    await makeTable(svc(), 'tbp.hidden')
  })

  describe('get_table_info', () => {
    it('describes a table without its columns unless asked', async () => {
      const info = await dbmOk<Record<string, unknown>>(svc(), bob, 'get_table_info', { path: 'tb.info' })
      expect(info).to.include({ path: 'tb.info', type: 'table', owner: 'alice', rows: 3, ncols: 2, inherit: 1 })
      expect(info).to.not.have.property('cols')
    })

    it('adds the columns for include cols (and the XML tabinfo), and keeps only named fields otherwise', async () => {
      const all = await dbmOk<Record<string, unknown>>(svc(), bob, 'get_table_info', { path: 'tb.info', include: ['cols'] })
      expect(all).to.include({ path: 'tb.info', rows: 3 })
      expect(all.cols).to.deep.equal([
        { name: 'x', type: 'int', label: 'X value', desc: '', format: '' },
        { name: 'name', type: 'text', label: 'name', desc: '', format: '' },
      ])
      expect(await dbmOk(svc(), bob, 'tabinfo', { name: 'tb.info' })).to.deep.equal(all)
      expect(await dbmOk(svc(), bob, 'get_table_info', { path: 'tb.info', include: 'title rows' })).to.deep.equal({ title: 'info', rows: 3 })
      expect(Object.keys(await dbmOk<object>(svc(), bob, 'get_table_info', { path: 'tb.info', include: 'rows cols' }))).to.deep.equal(['rows', 'cols'])
    })

    it('answers no such table for a missing table and, identically, for one the caller may not read', async () => {
      const missing = await dbmFails(svc(), bob, 'get_table_info', { path: 'tbp.nothere' }, /no such table "tbp.nothere"/i)
      expect(missing.code).to.equal('unknown_table')
      const hidden = await dbmFails(svc(), bob, 'get_table_info', { path: 'tbp.hidden' }, /no such table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.nothere')
    })
  })

  describe('get_table_cols', () => {
    it('answers the column metadata column-major, as !cols does', async () => {
      const cols = await dbmOk<Record<string, unknown[]>>(svc(), bob, 'get_table_cols', { path: 'tb.info' })
      expect(cols).to.deep.equal({
        name: ['x', 'name'],
        label: ['X value', 'name'],
        desc: ['', ''],
        type: ['i', 'a'],
        fixed: [0, 0],
        width: [10, 16],
        format: ['type:num;width:10', 'type:char;width:16'],
      })
    })

    it('answers no such table for a table the caller may not read', async () => {
      const hidden = await dbmFails(svc(), bob, 'get_table_cols', { path: 'tbp.hidden' }, /no such table/i)
      const missing = await dbmFails(svc(), bob, 'get_table_cols', { path: 'tbp.gone' }, /no such table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.gone')
    })
  })

  describe('set_table_info', () => {
    it('changes title, descriptions and readers, keeping the data version (an empty cols changes no column)', async () => {
      const before = await makeTable(svc(), 'tb.meta')
      const value = await dbmOk<Record<string, unknown>>(svc(), alice, 'set_table_info', {
        path: 'tb.meta',
        title: 'Meta',
        sdesc: 's',
        ldesc: 'l',
        users: 'bob',
        inherit: 0,
        cols: {},
      })
      expect(value).to.include({ title: 'Meta', sdesc: 's', ldesc: 'l', inherit: 0 })
      expect(await dbmOk(svc(), bob, 'get_table_info', { path: 'tb.meta', include: 'title sdesc ldesc users inherit' })).to.deep.equal({
        title: 'Meta',
        sdesc: 's',
        ldesc: 'l',
        users: ['bob'],
        inherit: 0,
      })
      expect((await record(svc(), 'tb.meta'))!.version).to.equal(before.version)
    })

    it('writes column labels into a new version that queries see, and retires the old one', async () => {
      const before = await makeTable(svc(), 'tb.cols')
      const folders = (await versionFolders()).length
      await dbmOk(svc(), alice, 'set_table_info', { path: 'tb.cols', cols: { X: { label: 'Renamed', desc: 'the x' }, name: { format: 'type:char;width:4' } } })
      const after = (await record(svc(), 'tb.cols'))!
      expect(after.version).to.not.equal(before.version)
      // The old version is retired, and its folder removed as soon as nothing reads it (within a
      // second on the embedded store): either it is still listed as retired, or it is gone.
      const now = await versionFolders()
      expect(now)
        .to.include(after.version)
        .and.have.length.within(folders, folders + 1)
      await expectRetired(svc(), before.version)
      const cols = await dbmOk<Record<string, unknown[]>>(svc(), alice, 'get_table_cols', { path: 'tb.cols' })
      expect(cols.label).to.deep.equal(['Renamed', 'name'])
      expect(cols.desc).to.deep.equal(['the x', ''])
      expect(cols.format).to.deep.equal(['type:num;width:10', 'type:char;width:4'])
      const run = await svc().http.post('/v1/api/run:json').set('Cookie', alice).send({ xml: '<base table="tb.cols"/>' })
      expect(run.status, run.text).to.equal(200)
      const shown = await svc().http.post('/v1/api/run/!cols:json').set('Cookie', alice)
      expect(shown.body.label).to.deep.equal(['Renamed', 'name'])
      await sweepRetiredVersions(svc().deps.store, svc().dataDir, 0)
      expect(await versionFolders()).to.not.include(before.version)
      expect((await sql(alice, 'select sum(x) s from tb.cols')).body).to.deep.equal({ s: [6] })
    })

    it('refuses an unknown column or field, changing nothing and leaving no version behind', async () => {
      await makeTable(svc(), 'tb.badcols')
      const folders = await versionFolders()
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(
        svc(),
        alice,
        'set_table_info',
        { path: 'tb.badcols', title: 'T', cols: { y: { label: 'Y' } } },
        /no column "y"; its columns are x, name/,
      )
      expect(r.code).to.equal('invalid_parameter')
      await dbmFails(svc(), alice, 'set_table_info', { path: 'tb.badcols', cols: { x: { width: 3 } } }, /"cols.x.width" cannot be set/)
      await dbmFails(svc(), alice, 'set_table_info', { path: 'tb.badcols', cols: { x: 'label' } }, /"cols.x" must be an object/)
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
      await expectNoNewVersion(folders)
    })

    it('refuses a reader who does not own the table, changing nothing', async () => {
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(
        svc(),
        bob,
        'set_table_info',
        { path: 'tb.info', title: 'Mine', cols: { x: { label: 'B' } } },
        /only the owner of the table "tb.info" \(alice\)/i,
      )
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('checks a new owner and reader names, and hands the table over', async () => {
      await makeTable(svc(), 'tb.gift')
      await dbmFails(svc(), alice, 'set_table_info', { path: 'tb.gift', owner: 'ghost' }, /invalid user identification "ghost"/i)
      await dbmFails(svc(), alice, 'set_table_info', { path: 'tb.gift', users: ['bob', 'nobody'] }, /in "users": nobody/)
      expect((await dbmOk<Record<string, unknown>>(svc(), alice, 'set_table_info', { path: 'tb.gift', owner: 'bob' })).owner).to.equal('bob')
      expect((await dbmOk<Record<string, unknown>>(svc(), bob, 'set_table_info', { path: 'tb.gift', title: 'Thanks' })).title).to.equal('Thanks')
      await dbmFails(svc(), alice, 'set_table_info', { path: 'tb.gift', title: 'Back' }, /only the owner/i)
    })

    it('answers no such table for a table the caller may not read', async () => {
      const hidden = await dbmFails(svc(), bob, 'set_table_info', { path: 'tbp.hidden', title: 'x' }, /no such table/i)
      const missing = await dbmFails(svc(), bob, 'set_table_info', { path: 'tbp.none', title: 'x' }, /no such table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.none')
    })
  })

  describe('drop_table', () => {
    it('drops the table: unlisted, unqueryable, its version retired', async () => {
      const t = await makeTable(svc(), 'tb.gone_t')
      expect(await dbmOk(svc(), alice, 'drop_table', { path: 'tb.gone_t' })).to.equal(true)
      const res = await sql(alice, 'select * from tb.gone_t')
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('unknown_table')
      const [, names] = await dbmOk<[string[], string[]]>(svc(), alice, 'get_names_in_dir', { path: 'tb' })
      expect(names).to.not.include('tb.gone_t')
      expect(await record(svc(), 'tb.gone_t')).to.equal(null)
      await expectRetired(svc(), t.version)
    })

    it('refuses a reader who does not own the table, changing nothing', async () => {
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'drop_table', { path: 'tb.info' }, /only the owner of the table "tb.info"/i)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('answers no such table for a missing table and for one the caller may not read', async () => {
      const missing = await dbmFails(svc(), bob, 'drop_table', { path: 'tbp.nope' }, /no such table/i)
      const hidden = await dbmFails(svc(), bob, 'drop_table', { path: 'tbp.hidden' }, /no such table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.nope')
    })
  })

  describe('move', () => {
    it('renames a table within its folder, keeping its data version', async () => {
      const t = await makeTable(svc(), 'tb.old')
      const moved = await dbmOk<Record<string, unknown>>(svc(), alice, 'move', { from: 'tb.old', to: 'tb.new' })
      expect(moved).to.include({ path: 'tb.new', type: 'table', id: t.id })
      expect((await record(svc(), 'tb.new'))!.version).to.equal(t.version)
      expect((await sql(alice, 'select sum(x) s from tb.new')).body).to.deep.equal({ s: [6] })
      expect((await sql(alice, 'select * from tb.old')).status).to.equal(404)
      const [, names] = await dbmOk<[string[], string[]]>(svc(), alice, 'get_names_in_dir', { path: 'tb' })
      expect(names).to.include('tb.new').and.not.include('tb.old')
    })

    it('moves a table into another folder the caller may write in', async () => {
      await makeTable(svc(), 'tb.bobs', 'bob')
      await dbmOk(svc(), alice, 'make_dir', { path: 'tb.box', uploaders: ['bob'] })
      await dbmOk(svc(), bob, 'move', { from: 'tb.bobs', to: 'tb.box.bobs' })
      expect((await sql(bob, 'select count(*) n from tb.box.bobs')).body).to.deep.equal({ n: [3] })
    })

    it('moves a folder with everything in it, atomically re-keyed', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'tb.tree', title: 'Tree' })
      await dbmOk(svc(), alice, 'make_dir', { path: 'tb.tree.sub' })
      const t1 = await makeTable(svc(), 'tb.tree.t1')
      await makeTable(svc(), 'tb.tree.sub.t2', 'alice', [5])
      const moved = await dbmOk<Record<string, unknown>>(svc(), alice, 'move', { from: 'tb.tree', to: 'tbp.grown' })
      expect(moved).to.include({ path: 'tbp.grown', type: 'dir', title: 'Tree' })
      const keys = (await svc().deps.store.keys('cat:')).filter((k) => /^cat:(dir|table|entries|rev):tb\.tree(\.|$)/.test(k))
      expect(keys).to.deep.equal([])
      const listed = await dbmOk<Record<string, unknown[]>>(svc(), alice, 'list_dir', { path: 'tbp.grown', depth: 0 })
      expect(listed.path).to.deep.equal(['tbp.grown.sub', 'tbp.grown.sub.t2', 'tbp.grown.t1'])
      expect((await record(svc(), 'tbp.grown.t1'))!.version).to.equal(t1.version)
      expect((await sql(alice, 'select x from tbp.grown.sub.t2')).body).to.deep.equal({ x: [5] })
      expect((await sql(alice, 'select * from tb.tree.t1')).status).to.equal(404)
      // The moved folders still take new entries (their revision keys moved with them).
      await dbmOk(svc(), alice, 'make_dir', { path: 'tbp.grown.sub.more' })
      expect(await dbmOk(svc(), alice, 'drop_dir', { path: 'tbp.grown', recursive: true })).to.equal(true)
    })

    it('renames a top-level folder only for holders of create_top_folders', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'tb.bobdir', uploaders: ['bob'] })
      await dbmOk(svc(), alice, 'set_dir_info', { path: 'tb.bobdir', owner: 'bob' })
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'move', { from: 'tb.bobdir', to: 'bobtop' }, /no permission to create top-level folders/)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
      await dbmOk(svc(), alice, 'make_dir', { path: 'topa' })
      await dbmOk(svc(), alice, 'move', { from: 'topa', to: 'topb' })
      expect((await dbmOk<Record<string, unknown>>(svc(), alice, 'get_dir_info', { path: 'topb' })).owner).to.equal('alice')
    })

    it('refuses a missing source, and a hidden one alike', async () => {
      const missing = await dbmFails(svc(), bob, 'move', { from: 'tbp.nope', to: 'tb.x' }, /no such directory or table "tbp.nope"/i)
      const hidden = await dbmFails(svc(), bob, 'move', { from: 'tbp.hidden', to: 'tb.x' }, /no such directory or table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.nope')
    })

    it('refuses a target that exists, a missing target folder, and a folder into itself', async () => {
      await makeTable(svc(), 'tb.m1')
      await makeTable(svc(), 'tb.m2')
      await dbmOk(svc(), alice, 'make_dir', { path: 'tb.mdir' })
      const before = await catalogSnapshot(svc())
      expect((await dbmFails(svc(), alice, 'move', { from: 'tb.m1', to: 'tb.m2' }, /table "tb.m2" already exists/)).code).to.equal('table_exists')
      expect((await dbmFails(svc(), alice, 'move', { from: 'tb.m1', to: 'tb.mdir' }, /directory "tb.mdir" already exists/)).code).to.equal('already_exists')
      expect((await dbmFails(svc(), alice, 'move', { from: 'tb.m1', to: 'tb.nodir.m1' }, /no such directory "tb.nodir"/i)).code).to.equal('unknown_directory')
      await dbmFails(svc(), alice, 'move', { from: 'tb.mdir', to: 'tb.mdir.inner' }, /cannot go into itself or below itself/)
      await dbmFails(svc(), alice, 'move', { from: 'tb.mdir', to: 'tb.mdir' }, /"to" is the path "tb.mdir" already has/)
      await dbmFails(svc(), alice, 'move', { from: 'tb.m1', to: 'toplevel' }, /a table must be inside a folder/)
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })

    it('refuses a caller who does not own the object, or may not write in the target folder', async () => {
      await ensureHomeFolder(svc().deps.store, 'bob')
      const before = await catalogSnapshot(svc())
      expect((await dbmFails(svc(), bob, 'move', { from: 'tb.m1', to: 'tb.m3' }, /only the owner of the table "tb.m1"/i)).code).to.equal('forbidden')
      expect((await dbmFails(svc(), alice, 'move', { from: 'tb.m1', to: 'pub.m1' }, /no permission to create in "pub"/)).code).to.equal('forbidden')
      expect((await dbmFails(svc(), admin.cookie, 'move', { from: 'uploads', to: 'uploads2' }, /reserved folder "uploads" cannot be moved/)).code).to.equal(
        'forbidden',
      )
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })
  })

  describe('copy_table', () => {
    it('copies into a version of its own, owned by the caller, that outlives the original', async () => {
      const original = await makeTable(svc(), 'tb.orig')
      await dbmOk(svc(), alice, 'set_table_info', { path: 'tb.orig', title: 'Original', users: ['alice'], inherit: false })
      const copy = await dbmOk<Record<string, unknown>>(svc(), bob, 'copy_table', { from: 'tb.info', to: 'tb.bobcopy' })
      expect(copy).to.include({ path: 'tb.bobcopy', owner: 'bob', inherit: 1, rows: 3 })
      expect(copy.users).to.deep.equal([])
      const own = await dbmOk<Record<string, unknown>>(svc(), alice, 'copy_table', { from: 'tb.orig', to: 'tbp.copy' })
      expect(own).to.include({ title: 'Original', owner: 'alice', inherit: 1 })
      expect((await record(svc(), 'tbp.copy'))!.version).to.not.equal(original.version)
      await dbmOk(svc(), alice, 'drop_table', { path: 'tb.orig' })
      // Delete the original's files now rather than after the grace period: the copy must not need them.
      await sweepRetiredVersions(svc().deps.store, svc().dataDir, 0)
      expect(await versionFolders()).to.not.include(original.version)
      expect((await sql(alice, 'select sum(x) s from tbp.copy')).body).to.deep.equal({ s: [6] })
    })

    it("refuses an existing target without replace, and replaces the caller's own table with it", async () => {
      await makeTable(svc(), 'tb.src', 'alice', [10, 20])
      await makeTable(svc(), 'tb.dst', 'alice', [1])
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), alice, 'copy_table', { from: 'tb.src', to: 'tb.dst' }, /table "tb.dst" already exists; send replace=1/)
      expect(r.code).to.equal('table_exists')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
      const old = (await record(svc(), 'tb.dst'))!
      await dbmOk(svc(), alice, 'copy_table', { from: 'tb.src', to: 'tb.dst', replace: 1 })
      expect((await sql(alice, 'select sum(x) s from tb.dst')).body).to.deep.equal({ s: [30] })
      await expectRetired(svc(), old.version)
    })

    it('refuses to replace a table the caller does not own, leaving no version behind', async () => {
      const folders = await versionFolders()
      const before = await catalogSnapshot(svc())
      const r = await dbmFails(svc(), bob, 'copy_table', { from: 'tb.src', to: 'tb.dst', replace: true }, /only the owner of the table "tb.dst"/i)
      expect(r.code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
      await expectNoNewVersion(folders)
    })

    it('does not name the owner of a table the caller may not see when refusing to replace it', async () => {
      await makeTable(svc(), 'tb.private')
      await dbmOk(svc(), alice, 'set_table_info', { path: 'tb.private', users: [], inherit: false })
      const r = await dbmFails(svc(), bob, 'copy_table', { from: 'tb.info', to: 'tb.private', replace: 1 }, /may not replace the table "tb.private"/)
      expect(r.code).to.equal('forbidden')
      expect(r.msg).to.not.contain('alice')
    })

    it('reports an unreadable source exactly like a missing one', async () => {
      const missing = await dbmFails(svc(), bob, 'copy_table', { from: 'tbp.nope', to: 'tb.c1' }, /no such table "tbp.nope"/i)
      const hidden = await dbmFails(svc(), bob, 'copy_table', { from: 'tbp.hidden', to: 'tb.c1' }, /no such table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.nope')
    })

    it('refuses a target folder that is missing or not writable', async () => {
      const before = await catalogSnapshot(svc())
      await dbmFails(svc(), bob, 'copy_table', { from: 'tb.info', to: 'tb.none.c' }, /no such directory "tb.none"/i)
      expect((await dbmFails(svc(), bob, 'copy_table', { from: 'tb.info', to: 'shr.c' }, /no permission to create in "shr"/)).code).to.equal('forbidden')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })
  })

  describe('share', () => {
    it('adds, removes and replaces readers of a table, with effect on the next request', async () => {
      await makeTable(svc(), 'tbp.shared')
      expect(await dbmOk(svc(), alice, 'share', { path: 'tbp.shared', add: 'bob', inherit: false })).to.deep.equal({ users: ['bob'], inherit: 0 })
      expect((await sql(bob, 'select sum(x) s from tbp.shared')).body).to.deep.equal({ s: [6] })
      expect(await dbmOk(svc(), alice, 'share', { path: 'tbp.shared', remove: ['bob'], add: ['admin'] })).to.deep.equal({ users: ['admin'], inherit: 0 })
      expect((await sql(bob, 'select * from tbp.shared')).status).to.equal(404)
      expect(await dbmOk(svc(), alice, 'share', { path: 'tbp.shared', users: '*' })).to.deep.equal({ users: ['*'], inherit: 0 })
      expect((await sql(bob, 'select count(*) n from tbp.shared')).body).to.deep.equal({ n: [3] })
    })

    it('shares a folder, whose inheriting entries become readable too', async () => {
      await dbmOk(svc(), alice, 'make_dir', { path: 'tbp.open' })
      await makeTable(svc(), 'tbp.open.t')
      await dbmFails(svc(), bob, 'get_names_in_dir', { path: 'tbp.open' }, /no such directory/i)
      await dbmOk(svc(), alice, 'share', { path: 'tbp.open', users: ['bob'], inherit: 0 })
      expect(await dbmOk(svc(), bob, 'get_names_in_dir', { path: 'tbp.open' })).to.deep.equal([['tab'], ['tbp.open.t']])
    })

    it('checks names and ownership, changing nothing when refused', async () => {
      const before = await catalogSnapshot(svc())
      await dbmFails(svc(), alice, 'share', { path: 'tb.info', add: ['ghost'] }, /in "add": ghost/)
      await dbmFails(svc(), alice, 'share', { path: 'tb.info', users: ['bob', 'ghost2'] }, /in "users": ghost2/)
      expect((await dbmFails(svc(), bob, 'share', { path: 'tb.info', add: ['*'] }, /only the owner of the table "tb.info"/i)).code).to.equal('forbidden')
      const hidden = await dbmFails(svc(), bob, 'share', { path: 'tbp.hidden', add: ['bob'] }, /no such directory or table/i)
      const missing = await dbmFails(svc(), bob, 'share', { path: 'tbp.void', add: ['bob'] }, /no such directory or table/i)
      expectLikeMissing(hidden, 'tbp.hidden', missing, 'tbp.void')
      expect(await catalogSnapshot(svc())).to.deep.equal(before)
    })
  })

  describe('get_permissions', () => {
    it("answers owner, readers, uploaders, inheritance and the caller's own rights", async () => {
      expect(await dbmOk(svc(), bob, 'get_permissions', { path: 'tb' })).to.deep.equal({
        owner: 'alice',
        users: ['bob'],
        uploaders: ['bob'],
        inherit: 0,
        effective: { read: true, write: true, share: false },
      })
      expect(await dbmOk(svc(), bob, 'get_permissions', { path: 'tb.info' })).to.deep.equal({
        owner: 'alice',
        users: [],
        uploaders: [],
        inherit: 1,
        effective: { read: true, write: false, share: false },
      })
      expect((await dbmOk<{ effective: unknown }>(svc(), alice, 'get_permissions', { path: 'tb.info' })).effective).to.deep.equal({
        read: true,
        write: true,
        share: true,
      })
      expect((await dbmOk<{ effective: unknown }>(svc(), bob, 'get_permissions', { path: 'shr' })).effective).to.deep.equal({
        read: true,
        write: false,
        share: false,
      })
    })

    it('answers no such directory or table for what the caller may not see', async () => {
      const hidden = await dbmFails(svc(), bob, 'get_permissions', { path: 'tbp' }, /no such directory or table "tbp"/i)
      const missing = await dbmFails(svc(), bob, 'get_permissions', { path: 'tbq' }, /no such directory or table "tbq"/i)
      expectLikeMissing(hidden, 'tbp', missing, 'tbq')
    })
  })
})
