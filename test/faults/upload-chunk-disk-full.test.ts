/**
 * Issue 36.3: an upload_chunk refused with 507 "nothing was saved" left 2.5 MB of the chunk on the
 * full volume, still there after a restart. Now a chunk that fails part way cuts the upload's
 * files back to its applied chunks at once, so the answer is true on disk as well, and the upload
 * goes on from there; and at start the folders of uploads that cannot go on are removed. On a
 * real tmpfs as DATA_DIR (test/helpers/full-volume.ts; skipped without root).
 */
import { expect } from 'chai'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHUNKED_DIR, createUploadDir } from '../../engine/storage/chunked.js'
import { removeEndedUploads } from '../../gateway/dbm/uploads/index.js'
import { createMemoryStore } from '../../shared/store/index.js'
import { dbmOk } from '../helpers/dbm.js'
import { mountSmallVolume, type SmallVolume } from '../helpers/full-volume.js'
import { startTestService, type TestService } from '../helpers/service.js'

/** The size of every file in a folder, by name. */
async function sizes(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const name of (await readdir(dir)).sort()) out[name] = (await stat(join(dir, name))).size
  return out
}

describe('upload_chunk on a full volume (tmpfs)', function () {
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
  })
  after(async () => {
    await volume?.free()
    await svc?.close()
    await volume?.unmount()
  })

  it('a chunk refused with 507 leaves none of its bytes, and the upload goes on once there is room', async () => {
    const { upload } = await dbmOk<{ upload: string }>(svc!, admin, 'upload_begin', { path: 'uploads.admin.big' })
    await dbmOk(svc!, admin, 'upload_chunk', { upload, seq: 1, data: { a: [1, 2], b: [3, 4] } })
    const dir = join(volume!.dataDir, CHUNKED_DIR, upload)
    const applied = await sizes(dir)
    expect(applied).to.deep.equal({ 'c0.bin': 8, 'c1.bin': 8 })

    // 1 MB free; the chunk needs 2.4 MB (two columns of 300,000 ints).
    await volume!.fill(1 << 20)
    const usedBefore = await volume!.used()
    const rows = Array.from({ length: 300_000 }, (_, i) => i)
    const big = { upload, seq: 2, data: { a: rows, b: rows } }
    const res = await svc!.http
      .post('/v1/api/dbm:json')
      .set('Cookie', admin)
      .send({ cmd: ['upload_chunk', big] })
    expect(res.status, res.text).to.equal(507)
    expect(res.body.code).to.equal('volume_full')
    expect(res.body.error).to.match(/^Nothing was saved/)
    // True on disk: the files are as the applied chunk left them, the space is free again.
    expect(await sizes(dir)).to.deep.equal(applied)
    expect(await volume!.used(), 'bytes used on the volume').to.be.at.most(usedBefore + 64 * 1024)

    await volume!.free()
    await dbmOk(svc!, admin, 'upload_chunk', big)
    await dbmOk(svc!, admin, 'upload_commit', { upload })
    const n = await svc!.http.post('/v1/api/sql:json').set('Cookie', admin).send({ sql: 'select count(*) n, sum(a) s from uploads.admin.big' })
    expect(n.body).to.deep.equal({ n: [300_002], s: [3 + (299_999 * 300_000) / 2] })
  })
})

describe('upload_chunk widening a column on a full volume (tmpfs)', function () {
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
  })
  after(async () => {
    await volume?.free()
    await svc?.close()
    await volume?.unmount()
  })

  it('a refused chunk that had turned an int column into floats leaves the ints as they were', async () => {
    const { upload } = await dbmOk<{ upload: string }>(svc!, admin, 'upload_begin', { path: 'uploads.admin.widened' })
    await dbmOk(svc!, admin, 'upload_chunk', { upload, seq: 1, data: { a: [1, 2] } })
    await volume!.fill(1 << 20)
    // Column a becomes float (its file rewritten as such), then its 2.4 MB do not fit.
    const chunk = { upload, seq: 2, data: { a: Array.from({ length: 300_000 }, (_, i) => i + 0.5) } }
    const res = await svc!.http
      .post('/v1/api/dbm:json')
      .set('Cookie', admin)
      .send({ cmd: ['upload_chunk', chunk] })
    expect(res.status, res.text).to.equal(507)
    await volume!.free()
    await dbmOk(svc!, admin, 'upload_chunk', chunk)
    await dbmOk(svc!, admin, 'upload_commit', { upload })
    const q = await svc!.http.post('/v1/api/sql:json').set('Cookie', admin).send({ sql: 'select a from uploads.admin.widened limit 3' })
    expect(q.body).to.deep.equal({ a: [1, 2, 0.5] })
  })
})

describe('chunked uploads at start', () => {
  let dataDir: string
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-uploads-start-'))
  })
  after(() => rm(dataDir, { recursive: true, force: true }))

  it('with the embedded store, every upload folder goes (no upload survives a restart), whatever its age', async () => {
    const id = `u${'ab'.repeat(12)}`
    const dir = await createUploadDir(dataDir, id)
    await writeFile(join(dir, 'c0.bin'), Buffer.alloc(2_500_000))
    const store = createMemoryStore()
    await store.connect()
    try {
      expect(await removeEndedUploads(store, dataDir, 3600)).to.deep.equal([id])
    } finally {
      await store.close()
    }
    expect(await readdir(join(dataDir, CHUNKED_DIR))).to.deep.equal([])
  })
})
