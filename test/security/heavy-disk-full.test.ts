/**
 * Issue 16, resource denial by one request (the disk): uploads into a full data volume used to
 * answer 500 (ENOSPC), and dropping tables freed nothing for 61 minutes, even across a restart.
 * Now a full volume answers 507 `volume_full` with what to do, leaves no temporary folder and no
 * catalog change, and a dropped version's folder goes as soon as nothing reads it, so the space
 * comes back at once and the next upload succeeds. A restart leaves nothing behind.
 * On a real 40 MB tmpfs as DATA_DIR (needs root: CI runs as root; elsewhere the test is skipped
 * with a message, and on CI=true a failed mount fails it), a real gateway process, real HTTP.
 */
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, rm, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login, post, sleep, startGateway, type Answer, type Gateway } from './heavy-gateway.js'

const VOLUME_MB = 40
/** One upload: 2,000 distinct 1,500-character texts, about 3 MB of dictionary plus its SQLite image. */
const ROWS = 2_000
const WIDTH = 1_500

function tryMount(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${VOLUME_MB}m`, 'tmpfs', dir], { stdio: 'pipe' })
    return null
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err).trim()
  }
}

async function usedMb(dir: string): Promise<number> {
  const s = await statfs(dir)
  return ((s.blocks - s.bfree) * s.bsize) / (1024 * 1024)
}

const dbm = (gw: Gateway, cookie: string, name: string, params: Record<string, unknown>): Promise<Answer> =>
  post(gw, cookie, 'dbm:json', { cmd: [name, params] })

function uploadParams(path: string, seed: number): Record<string, unknown> {
  const s = Array.from({ length: ROWS }, (_, i) => `${seed}-${i}-`.padEnd(WIDTH, String.fromCharCode(97 + ((seed + i) % 26))))
  return {
    path,
    cols: [
      { name: 'k', type: 'int' },
      { name: 's', type: 'text' },
    ],
    data: { k: s.map((_, i) => i), s },
  }
}

describe('heavy: a full data volume (tmpfs)', function () {
  this.timeout(180_000)
  let mountPoint = ''
  let mounted = false
  let gw: Gateway | undefined
  const dataDir = (): string => join(mountPoint, 'data')

  before(async function () {
    mountPoint = await mkdtemp(join(tmpdir(), 'tabula-heavy-disk-'))
    const isRoot = process.getuid?.() === 0
    const failure = isRoot || process.env.CI === 'true' ? tryMount(mountPoint) : 'not root'
    if (failure !== null) {
      if (process.env.CI === 'true') throw new Error(`CI=true but a ${VOLUME_MB} MB tmpfs could not be mounted at ${mountPoint}: ${failure}`)
      console.log(`      skipped: mounting a tmpfs needs root (${failure}); run as root or with CI=true`)
      this.skip()
    }
    mounted = true
  })
  after(async () => {
    await gw?.close()
    if (mounted) execFileSync('umount', [mountPoint])
    if (mountPoint) await rm(mountPoint, { recursive: true, force: true })
  })

  it('answers 507 when full, frees a dropped table at once, and keeps nothing across a restart', async () => {
    gw = await startGateway({ DATA_DIR: dataDir(), WORKERS: '1', DEMO_DATA: '0' })
    let cookie = await login(gw)
    const empty = await usedMb(mountPoint)

    // Fill the volume.
    const saved: string[] = []
    let full: Answer | undefined
    for (let i = 0; i < 40 && full === undefined; i++) {
      const path = `uploads.admin.t${i}`
      const res = await dbm(gw, cookie, 'upload_table', uploadParams(path, i))
      if (res.status === 200 && res.body.rc === 0) saved.push(path)
      else full = res
    }
    expect(full, 'the volume filled up').to.not.equal(undefined)
    expect(full!.status, JSON.stringify(full!.body)).to.equal(507)
    expect(full!.body.code).to.equal('volume_full')
    expect(full!.body.error)
      .to.match(/data volume is full \(ENOSPC\)/)
      .and.match(/drop tables/)
    expect(full!.body.requestId).to.be.a('string')
    expect(saved.length, 'some uploads fit').to.be.greaterThan(2)
    // The failed upload left no temporary folder and no catalog entry.
    expect((await readdir(join(dataDir(), 'tables'))).filter((n) => n.startsWith('.tmp'))).to.deep.equal([])
    const failedPath = `uploads.admin.t${saved.length}`
    expect((await dbm(gw, cookie, 'get_table_info', { path: failedPath })).body.rc).to.equal(1)
    const fullMb = await usedMb(mountPoint)

    // Read one table (its files are loaded once), then drop half of them: the space comes back at once.
    const read = await post(gw, cookie, 'sql:json', { sql: `select count(*) as n from ${saved[0]}` })
    expect(read.body.n).to.deep.equal([ROWS])
    const dropped = saved.splice(0, Math.ceil(saved.length / 2))
    for (const path of dropped) expect((await dbm(gw, cookie, 'drop_table', { path })).body.rc).to.equal(0)
    const t0 = Date.now()
    let freed = await usedMb(mountPoint)
    while (fullMb - freed < dropped.length * 2 && Date.now() - t0 < 5_000) {
      await sleep(50)
      freed = await usedMb(mountPoint)
    }
    console.log(
      `      volume ${VOLUME_MB} MB: ${empty.toFixed(1)} MB used empty, ${fullMb.toFixed(1)} MB when full after ${dropped.length + saved.length} uploads, ${freed.toFixed(1)} MB ${Date.now() - t0} ms after dropping ${dropped.length}`,
    )
    expect(fullMb - freed, 'MB given back by the drops').to.be.at.least(dropped.length * 2)
    const again = await dbm(gw, cookie, 'upload_table', uploadParams('uploads.admin.again', 99))
    expect(again.status, JSON.stringify(again.body)).to.equal(200)
    expect(again.body.rc, JSON.stringify(again.body)).to.equal(0)

    // Restart: every remaining folder is a table the catalog points at, and each still reads.
    await gw.close()
    gw = await startGateway({ DATA_DIR: dataDir(), WORKERS: '1', DEMO_DATA: '0' })
    cookie = await login(gw)
    await sleep(1500)
    const folders = (await readdir(join(dataDir(), 'tables'))).filter((n) => !n.startsWith('.'))
    for (const path of [...saved, 'uploads.admin.again']) {
      const info = await dbm(gw, cookie, 'get_table_info', { path })
      expect(info.body.rc, `${path}: ${JSON.stringify(info.body)}`).to.equal(0)
      const n = await post(gw, cookie, 'sql:json', { sql: `select count(*) as n from ${path}` })
      expect(n.body.n).to.deep.equal([ROWS])
    }
    for (const path of dropped) expect((await dbm(gw, cookie, 'get_table_info', { path })).body.rc).to.equal(1)
    expect(folders.length, `folders ${folders.join(', ')}`).to.equal(saved.length + 1)
  })
})
