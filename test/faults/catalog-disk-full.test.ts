/**
 * Issue 36.3: a catalog change that the embedded store cannot save (store.json on a full volume)
 * answered 503 "try again later", although the change had taken effect: a client that retried
 * drop_table got unknown_table. Now such a change answers 507 `volume_full` saying that it is in
 * effect, not yet saved, and not to send it again; the store keeps trying and saves it once there
 * is room. A change that stops before it is made (make_dir taking its id) says nothing was saved,
 * and nothing was. On a real tmpfs as DATA_DIR (test/helpers/full-volume.ts).
 */
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createMemoryStore } from '../../shared/store/index.js'
import { appliedUnsaved } from '../../shared/store/unsaved.js'
import { dbm, dbmOk } from '../helpers/dbm.js'
import { mountSmallVolume, type SmallVolume } from '../helpers/full-volume.js'
import { startTestService, type TestService } from '../helpers/service.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a catalog change on a full volume (embedded store, tmpfs)', function () {
  this.timeout(120_000)
  let volume: SmallVolume | undefined
  let svc: TestService | undefined
  let admin: string

  before(async function () {
    const mounted = await mountSmallVolume(24)
    if (typeof mounted === 'string') {
      console.log(`      skipped: mounting a tmpfs needs root (${mounted}); run as root or with CI=true`)
      return this.skip()
    }
    volume = mounted
    svc = await startTestService('memory', { WORKERS: '1', DEMO_ROWS: '500' }, { dataDir: volume.dataDir })
    admin = await svc.login()
    await dbmOk(svc, admin, 'make_dir', { path: 'full' })
    for (const t of ['a', 'b']) await dbmOk(svc, admin, 'upload_table', { path: `full.${t}`, title: 'Old title', data: { n: [1, 2, 3] } })
  })
  after(async () => {
    await volume?.free()
    await svc?.close()
    await volume?.unmount()
  })

  const onDisk = () => readFile(join(volume!.dataDir, 'store.json'), 'utf8')
  /** Waits until store.json satisfies `ok` (the store's retries save it), at most `ms`. */
  async function savedWithin(ms: number, ok: (text: string) => boolean): Promise<boolean> {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(100)) if (ok(await onDisk())) return true
    return false
  }
  const post = (cmd: unknown[]) => svc!.http.post('/v1/api/dbm:json').set('Cookie', admin).send({ cmd })

  it('answers 507 saying the change is in effect but not saved, and saves it once there is room', async () => {
    await volume!.fill()
    const res = await post(['set_table_info', { path: 'full.b', title: 'New title' }])
    expect(res.status, res.text).to.equal(507)
    expect(res.body.code).to.equal('volume_full')
    expect(res.body.error)
      .to.contain('The change was made and is in effect')
      .and.contain('the data volume is full (ENOSPC)')
      .and.contain('Do not send it again')
    // As the answer says: in effect for every reader, not yet on disk.
    expect(((await dbmOk(svc!, admin, 'get_table_info', { path: 'full.b' })) as { title: string }).title).to.equal('New title')
    expect(await onDisk())
      .to.contain('Old title')
      .and.not.contain('New title')

    // No further change: the store's own retry saves it once the volume has room.
    await volume!.free()
    expect(await savedWithin(10_000, (text) => text.includes('New title')), 'saved after space came back').to.equal(true)
  })

  it('drop_table on a full volume: 507 "in effect", the table is gone, and the drop is saved later', async () => {
    await volume!.fill()
    const res = await post(['drop_table', { path: 'full.a' }])
    expect(res.status, res.text).to.equal(507)
    expect(res.body.error).to.contain('The change was made and is in effect').and.contain('Do not send it again')
    // What the answer said is true: the table is gone, so sending the drop again finds nothing.
    expect((await dbm(svc!, admin, 'get_table_info', { path: 'full.a' })).rc).to.equal(1)
    await volume!.free()
    expect(await savedWithin(10_000, (text) => !text.includes('cat:table:full.a')), 'the drop saved').to.equal(true)
    // What a restart would read: the drop, and the earlier title.
    const fresh = createMemoryStore({ dataDir: volume!.dataDir })
    await fresh.connect()
    try {
      expect(await fresh.get('cat:table:full.a')).to.equal(null)
      expect(await fresh.get('cat:table:full.b')).to.contain('New title')
    } finally {
      await fresh.close()
    }
  })

  it('make_dir on a full volume: 507 "nothing was saved", and nothing was', async () => {
    await volume!.fill()
    try {
      const res = await post(['make_dir', { path: 'full.x' }])
      expect(res.status, res.text).to.equal(507)
      expect(res.body.code).to.equal('volume_full')
      expect(res.body.error).to.match(/^Nothing was saved: the data volume is full \(ENOSPC\)/)
      expect((await dbm(svc!, admin, 'get_dir_info', { path: 'full.x' })).rc).to.equal(1)
    } finally {
      await volume!.free()
    }
    // With room again, the same request works.
    await dbmOk(svc!, admin, 'make_dir', { path: 'full.x' })
  })
})

describe('a table commit the embedded store applied but could not save', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string
  before(async () => {
    svc = await startTestService('memory', { WORKERS: '1', DEMO_ROWS: '500' })
    admin = await svc.login()
  })
  after(() => svc?.close())

  it('answers 507 "in effect" (not a success, not "nothing was saved"), and keeps the version the catalog points at', async () => {
    const store = svc.deps.store
    const original = store.batch
    // The commit is applied, then its save fails as on a full volume (snapshot-file.ts).
    ;(store as { batch: typeof store.batch }).batch = async (ops, token) => {
      const applied = await original(ops, token)
      if (ops.some((op) => op.op === 'set' && op.key === 'cat:table:uploads.admin.unsaved')) {
        throw appliedUnsaved(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 'store.json')
      }
      return applied
    }
    try {
      const res = await svc.http
        .post('/v1/api/dbm:json')
        .set('Cookie', admin)
        .send({ cmd: ['upload_table', { path: 'uploads.admin.unsaved', data: { n: [1, 2, 3] } }] })
      expect(res.status, res.text).to.equal(507)
      expect(res.body.error).to.contain('The change was made and is in effect')
    } finally {
      ;(store as { batch: typeof store.batch }).batch = original
    }
    // In effect, as the answer said: the table reads, so its version was not removed.
    const read = await svc.http.post('/v1/api/sql:json').set('Cookie', admin).send({ sql: 'select count(*) n from uploads.admin.unsaved' })
    expect(read.status, read.text).to.equal(200)
    expect(read.body).to.deep.equal({ n: [3] })
  })
})
