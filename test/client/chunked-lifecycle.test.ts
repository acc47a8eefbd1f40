/**
 * The chunked upload transactions on one gateway process: abort, expiry after SESSION_TTL,
 * permissions (at begin and again at commit), atomic commit (readers see the old table until the
 * commit, then all the new rows; a refused commit changes nothing and leaves no version behind),
 * and how column types are settled across chunks.
 */
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '../../client/index.js'
import { adminClient, failure, startGateway, type Gateway } from './helpers.js'

const TTL = 3

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('client: chunked upload lifecycle', function () {
  this.timeout(60_000)
  let g: Gateway
  let admin: Client
  const uploads = () => readdir(join(g.dataDir, 'chunked-uploads')).catch(() => [] as string[])
  const versions = async () => (await readdir(join(g.dataDir, 'tables'))).sort()
  /**
   * No version folder appeared since `before`. Folders may go meanwhile: the sweeper removes the
   * versions an earlier step retired (a replaced table) within a second, on its own schedule.
   */
  const expectNoNewVersion = async (before: readonly string[]) => expect((await versions()).filter((v) => !before.includes(v))).to.deep.equal([])

  before(async () => {
    g = await startGateway({ SESSION_TTL: String(TTL) })
    admin = await adminClient(g)
  })
  after(async () => {
    await g?.close()
  })
  // The short TTL ends idle sessions between tests.
  beforeEach(async () => {
    await admin.login('admin', 'admin-secret-1')
  })

  it('aborts: the rows are deleted and the id is gone', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'aborted' })
    await admin.dbm('upload_chunk', { upload, csv: 'a\n1\n' })
    expect(await uploads()).to.include(upload)
    expect(await admin.dbm('upload_abort', { upload })).to.deep.equal({ upload, aborted: true })
    expect(await uploads()).not.to.include(upload)
    expect((await failure(admin.dbm('upload_commit', { upload }))).code).to.equal('not_found')
    expect((await failure(admin.table('uploads.admin.aborted').rows())).status).to.equal(404)
  })

  it('expires after SESSION_TTL without a chunk; its folder is swept by a later upload', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'expired' })
    await admin.dbm('upload_chunk', { upload, csv: 'a\n1\n' })
    await sleep((TTL + 1.5) * 1000)
    await admin.login('admin', 'admin-secret-1')
    const late = await failure(admin.dbm('upload_chunk', { upload, csv: 'a\n2\n' }))
    expect(late.code).to.equal('not_found')
    expect(late.message).to.contain('expired')
    await admin.dbm('upload_begin', { path: 'next' })
    expect(await uploads()).not.to.include(upload)
  })

  it("refuses a folder the user may not write, at begin, and another user's upload", async () => {
    await admin.dbm('add_user', { uid: 'bob', first: 'Bob', last: 'B', email: 'bob@example.com', password: 'bob-secret-1' })
    const bob = new Client({ baseUrl: g.api })
    await bob.login('bob', 'bob-secret-1')
    // A folder bob may not read is reported like a missing one; one he reads but may not write is forbidden.
    expect((await failure(bob.dbm('upload_begin', { path: 'uploads.admin.mine' }))).code).to.equal('unknown_directory')
    expect((await failure(bob.dbm('upload_begin', { path: 'pub.demo.sneaky' }))).code).to.equal('forbidden')
    const { upload } = await admin.dbm('upload_begin', { path: 'mine' })
    // Another user's upload is reported as missing, for every transaction.
    for (const call of [bob.dbm('upload_chunk', { upload, csv: 'a\n1\n' }), bob.dbm('upload_commit', { upload }), bob.dbm('upload_abort', { upload })]) {
      expect((await failure(call)).code).to.equal('not_found')
    }
    await admin.dbm('upload_abort', { upload })
  })

  it('checks permission again at commit: write access taken away meanwhile refuses it', async () => {
    await admin.dbm('make_dir', { path: 'team', uploaders: ['bob'], users: ['bob'], inherit: false })
    const bob = new Client({ baseUrl: g.api })
    await bob.login('bob', 'bob-secret-1')
    const { upload } = await bob.dbm('upload_begin', { path: 'team.data' })
    await bob.dbm('upload_chunk', { upload, csv: 'a\n1\n' })
    await admin.dbm('set_dir_info', { path: 'team', uploaders: [] })
    const before = await versions()
    expect((await failure(bob.dbm('upload_commit', { upload }))).code).to.equal('forbidden')
    await expectNoNewVersion(before)
    expect((await failure(admin.table('team.data').rows())).status).to.equal(404)
  })

  it('commits atomically: the old rows until the commit, then all the new ones', async () => {
    await admin.dbm('upload_table', { path: 'swap', csv: 'k,v\n1,old\n2,old\n' })
    const { upload } = await admin.dbm('upload_begin', { path: 'swap', mode: 'replace' })
    for (let k = 0; k < 4; k++) {
      await admin.dbm('upload_chunk', { upload, csv: `k,v\n${k * 10},new\n${k * 10 + 1},new\n` })
      // Mid-upload, readers still see exactly the table as it was.
      expect(await admin.sql("select count(*) n, sum(v = 'old') o from uploads.admin.swap")).to.deep.equal({ n: [2], o: [2] })
    }
    const table = await admin.dbm('upload_commit', { upload })
    expect(table.rows).to.equal(8)
    expect(await admin.sql("select count(*) n, sum(v = 'new') w from uploads.admin.swap")).to.deep.equal({ n: [8], w: [8] })
    // No temporary folder of the version write is left over.
    expect((await versions()).filter((v) => v.startsWith('.tmp-'))).to.deep.equal([])
  })

  it('refuses a commit when the table appeared meanwhile, leaving that table and no new version', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'raced' })
    await admin.dbm('upload_chunk', { upload, csv: 'a\n1\n2\n' })
    await admin.dbm('upload_table', { path: 'raced', csv: 'a\n99\n' })
    const before = await versions()
    const err = await failure(admin.dbm('upload_commit', { upload }))
    expect(err.code).to.equal('table_exists')
    await expectNoNewVersion(before)
    expect(await admin.sql('select a from uploads.admin.raced')).to.deep.equal({ a: [99] })
    await admin.dbm('upload_abort', { upload })
  })

  it('settles types across chunks: N/A first, int widened to float, text after numbers refused', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'typed' })
    // Column b has no value in the first chunk: its type waits for one.
    await admin.dbm('upload_chunk', { upload, csv: 'a,b,c\n1,,2024-01-02\n2,,\n' })
    await admin.dbm('upload_chunk', { upload, csv: 'a,b,c\n2.5,x,20240105\n' })
    // Column c refuses text after a and b of the same chunk were written to their files.
    const bad = await failure(admin.dbm('upload_chunk', { upload, csv: 'a,b,c\n3,y,notadate\n' }))
    expect(bad.code).to.equal('invalid_parameter')
    expect(bad.message).to.contain('"c"').and.contain('cols')
    // The refused chunk left nothing that is read: the next one continues from the rows before it.
    const ok = await admin.dbm('upload_chunk', { upload, csv: 'a,b,c\n4,z,\n' })
    expect(ok.rows).to.equal(4)
    const table = await admin.dbm('upload_commit', { upload })
    expect(table.cols!.map((c) => c.type)).to.deep.equal(['float', 'text', 'date'])
    expect(await admin.sql('select a, b, c from uploads.admin.typed', { format: 'json.rows' })).to.deep.equal({
      cols: ['a', 'b', 'c'],
      rows: [
        [1, '', 20240102],
        [2, '', null],
        [2.5, 'x', 20240105],
        [4, 'z', null],
      ],
    })
  })
})
