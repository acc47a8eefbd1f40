/**
 * SQLite images added to published versions (engine/storage/sqlite-image-add.ts): built once,
 * found again by file name, identical whoever builds them, never read half-written, and versions
 * written with an image by earlier releases used as they are.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { watch } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import initSqlJs from 'sql.js'
import type { ColumnSpec, TableMeta } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import {
  addSqliteImage,
  buildSqliteImage,
  hasSqliteImage,
  loadSqliteImage,
  META_FILE,
  readTableMeta,
  removeStaleTempFolders,
  sqliteImagePath,
  tablesDir,
  TEMP_PREFIX,
  versionDir,
  writeTableVersion,
} from '../../engine/storage/index.js'

const STORAGE = fileURLToPath(new URL('../../engine/storage/index.js', import.meta.url))

const COLUMNS: ColumnSpec[] = [
  { name: 'n', type: 'int' },
  { name: 'x', type: 'float' },
  { name: 't', type: 'text' },
]

function table(rows: number) {
  return {
    columns: COLUMNS,
    data: [
      Int32Array.from({ length: rows }, (_, i) => (i % 11 === 0 ? NA_INT : i)),
      Float64Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? NaN : i / 4)),
      Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? '' : `s${i % 100}`)),
    ],
  }
}

/** count(*), count(n), sum(n), count(t) of an image's one table. */
async function summary(image: ArrayBufferLike): Promise<unknown[]> {
  const SQL = await initSqlJs()
  const db = new SQL.Database(new Uint8Array(image))
  try {
    return db.exec('SELECT count(*), count(n), sum(n), count(x), count(t) FROM data')[0].values[0]
  } finally {
    db.close()
  }
}

const temporaries = async (dataDir: string): Promise<string[]> => (await readdir(tablesDir(dataDir))).filter((n) => n.startsWith(TEMP_PREFIX))

describe('addSqliteImage()', function () {
  this.timeout(60_000)
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-image-'))
  })
  afterEach(() => rm(dataDir, { recursive: true, force: true }))

  it('builds the image of a version written without one, once, and finds it the second time', async () => {
    const meta = await writeTableVersion(dataDir, table(1000))
    expect(await hasSqliteImage(dataDir, meta.version)).to.equal(false)
    expect(await addSqliteImage(dataDir, meta.version)).to.equal(true)
    const first = await stat(sqliteImagePath(dataDir, meta.version))
    expect(await addSqliteImage(dataDir, meta.version)).to.equal(false)
    const second = await stat(sqliteImagePath(dataDir, meta.version))
    expect([second.ino, second.mtimeMs]).to.deep.equal([first.ino, first.mtimeMs])
    expect(await summary(await loadSqliteImage(dataDir, meta))).to.deep.equal([1000, 909, 454455, 923, 857])
    expect(await temporaries(dataDir)).to.deep.equal([])
  })

  it('gives the same bytes as an image built from the values in memory', async () => {
    const input = table(5000)
    const meta = await writeTableVersion(dataDir, input)
    await addSqliteImage(dataDir, meta.version)
    const fromFiles = await readFile(sqliteImagePath(dataDir, meta.version))
    expect(Buffer.compare(fromFiles, Buffer.from(await buildSqliteImage(input.columns, input.data)))).to.equal(0)
  })

  it('leaves one whole image, with the same bytes, when two builders race', async () => {
    const meta = await writeTableVersion(dataDir, table(20_000))
    const built = await Promise.all([addSqliteImage(dataDir, meta.version), addSqliteImage(dataDir, meta.version)])
    expect(built).to.include(true)
    const bytes = await readFile(sqliteImagePath(dataDir, meta.version))
    const again = await writeTableVersion(dataDir, table(20_000))
    await addSqliteImage(dataDir, again.version)
    expect(Buffer.compare(bytes, await readFile(sqliteImagePath(dataDir, again.version)))).to.equal(0)
    expect(await temporaries(dataDir)).to.deep.equal([])
  })

  it('uses the image of a version written by an earlier release, whose meta.json names it', async () => {
    // What the writers did before images were built on demand: data.sqlite in the version folder
    // and `sqlite` in meta.json.
    const input = table(300)
    const meta = await writeTableVersion(dataDir, input)
    const old: TableMeta = { ...meta, sqlite: 'data.sqlite' }
    await writeFile(join(versionDir(dataDir, meta.version), META_FILE), JSON.stringify(old))
    await writeFile(sqliteImagePath(dataDir, meta.version), await buildSqliteImage(input.columns, input.data))
    const before = await stat(sqliteImagePath(dataDir, meta.version))
    expect(await readTableMeta(dataDir, meta.version)).to.deep.equal(old)
    expect(await addSqliteImage(dataDir, meta.version)).to.equal(false)
    expect((await stat(sqliteImagePath(dataDir, meta.version))).ino).to.equal(before.ino)
    expect((await summary(await loadSqliteImage(dataDir, old)))[0]).to.equal(300)
  })

  it('refuses a meta.json that names any other image file', async () => {
    const meta = await writeTableVersion(dataDir, table(3))
    await writeFile(join(versionDir(dataDir, meta.version), META_FILE), JSON.stringify({ ...meta, sqlite: '../other.sqlite' }))
    await readTableMeta(dataDir, meta.version).then(
      () => expect.fail('a foreign image name was accepted'),
      (e: Error) => expect(e.message).to.contain('bad SQLite file name'),
    )
  })

  it('never reads what a crashed build left: its temporary file is ignored and swept', async () => {
    const meta = await writeTableVersion(dataDir, table(100))
    const leftover = join(tablesDir(dataDir), `${TEMP_PREFIX}0123456789ab.sqlite`)
    await writeFile(leftover, 'SQLite format 3\0 and then the process died')
    expect(await hasSqliteImage(dataDir, meta.version)).to.equal(false)
    expect(await addSqliteImage(dataDir, meta.version)).to.equal(true)
    expect((await summary(await loadSqliteImage(dataDir, meta)))[0]).to.equal(100)
    expect(await removeStaleTempFolders(dataDir, 0)).to.deep.equal([`${TEMP_PREFIX}0123456789ab.sqlite`])
  })

  it('leaves no image, or a whole one, when the building process is killed while it writes', async () => {
    const meta = await writeTableVersion(dataDir, table(400_000))
    const script = `const s = await import(${JSON.stringify(STORAGE)}); await s.addSqliteImage(${JSON.stringify(dataDir)}, ${JSON.stringify(meta.version)})`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' })
    // Killed the moment its temporary file appears: mid-write, before the rename.
    let sawTemporary = false
    const watcher = watch(tablesDir(dataDir), (_, name) => {
      if (name?.startsWith(TEMP_PREFIX) && !sawTemporary) {
        sawTemporary = true
        child.kill('SIGKILL')
      }
    })
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)))
    watcher.close()
    expect(sawTemporary, 'the build never wrote its temporary file').to.equal(true)
    expect(exit).to.equal('SIGKILL')
    if (await hasSqliteImage(dataDir, meta.version)) {
      // The rename landed before the kill: then the image is whole.
      expect((await summary(await loadSqliteImage(dataDir, meta)))[0]).to.equal(400_000)
    } else {
      expect(await temporaries(dataDir)).to.have.lengthOf(1)
      expect(await addSqliteImage(dataDir, meta.version)).to.equal(true)
      expect((await summary(await loadSqliteImage(dataDir, meta)))[0]).to.equal(400_000)
    }
  })
})
