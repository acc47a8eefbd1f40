import { expect } from 'chai'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ColumnSpec } from '../../shared/table.js'
import {
  addSqliteImage,
  cloneTableVersion,
  hasSqliteImage,
  sqliteImagePath,
  columnFile,
  columnView,
  loadColumn,
  loadSqliteImage,
  META_FILE,
  readTableMeta,
  removeTableVersion,
  tablesDir,
  versionDir,
  writeTableVersion,
} from '../../engine/storage/index.js'
import { linkOrCopy } from '../../engine/storage/clone.js'

const COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'int', label: 'Id' },
  { name: 'name', type: 'text', desc: 'who' },
]
const IDS = Int32Array.from([3, 1, 2])
const NAMES = ['c', 'a', 'b']

describe('cloneTableVersion()', () => {
  let dataDir: string
  let source: string

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-clone-'))
    source = (await writeTableVersion(dataDir, { columns: COLUMNS, data: [IDS, NAMES] })).version
  })
  afterEach(() => rm(dataDir, { recursive: true, force: true }))

  it('makes a new version with the same rows and columns when no columns are given', async () => {
    const meta = await cloneTableVersion(dataDir, source)
    expect(meta.version).to.not.equal(source)
    expect(meta.rows).to.equal(3)
    expect(meta.columns).to.deep.equal(COLUMNS)
    expect(await readTableMeta(dataDir, meta.version)).to.deep.equal(meta)
  })

  it('writes the new column metadata into the clone only', async () => {
    const relabelled: ColumnSpec[] = [{ ...COLUMNS[0], label: 'Identifier', format: 'type:nocommas' }, COLUMNS[1]]
    const meta = await cloneTableVersion(dataDir, source, relabelled)
    expect((await readTableMeta(dataDir, meta.version)).columns[0]).to.deep.equal({ name: 'id', type: 'int', label: 'Identifier', format: 'type:nocommas' })
    expect((await readTableMeta(dataDir, source)).columns[0].label).to.equal('Id')
  })

  it('shares the data files with its source through hard links', async () => {
    const meta = await cloneTableVersion(dataDir, source)
    const a = await stat(join(versionDir(dataDir, source), columnFile(0)))
    const b = await stat(join(versionDir(dataDir, meta.version), columnFile(0)))
    expect(b.ino).to.equal(a.ino)
    const metaA = await stat(join(versionDir(dataDir, source), META_FILE))
    const metaB = await stat(join(versionDir(dataDir, meta.version), META_FILE))
    expect(metaB.ino).to.not.equal(metaA.ino)
  })

  it("links the source's SQLite image when it has one, and builds its own otherwise", async () => {
    const bare = await cloneTableVersion(dataDir, source)
    expect(await hasSqliteImage(dataDir, bare.version)).to.equal(false)
    await addSqliteImage(dataDir, source)
    const linked = await cloneTableVersion(dataDir, source)
    const a = await stat(sqliteImagePath(dataDir, source))
    expect((await stat(sqliteImagePath(dataDir, linked.version))).ino).to.equal(a.ino)
    expect(await addSqliteImage(dataDir, linked.version)).to.equal(false)
    expect(await addSqliteImage(dataDir, bare.version)).to.equal(true)
  })

  it('stays readable, columns and SQLite image, after its source is removed', async () => {
    await addSqliteImage(dataDir, source)
    const meta = await cloneTableVersion(dataDir, source)
    await removeTableVersion(dataDir, source)
    const ids = await loadColumn(dataDir, meta, 0)
    expect(Array.from(columnView(ids) as Int32Array)).to.deep.equal([3, 1, 2])
    const names = await loadColumn(dataDir, meta, 1)
    expect(names.dict).to.deep.equal(['', 'a', 'b', 'c'])
    expect((await loadSqliteImage(dataDir, meta)).byteLength).to.be.greaterThan(0)
  })

  it('refuses columns whose names or types differ from the source, leaving nothing behind', async () => {
    const before = await readdir(tablesDir(dataDir))
    const renamed: ColumnSpec[] = [{ name: 'ident', type: 'int' }, COLUMNS[1]]
    await expectRejection(cloneTableVersion(dataDir, source, renamed), /column 1 as id \(int\)/)
    await expectRejection(cloneTableVersion(dataDir, source, [COLUMNS[0]]), /2 columns/)
    expect(await readdir(tablesDir(dataDir))).to.deep.equal(before)
  })

  it('fails on a version that does not exist, leaving no temporary folder', async () => {
    const before = await readdir(tablesDir(dataDir))
    await expectRejection(cloneTableVersion(dataDir, 'v000000001-00000000'), /missing or damaged/)
    expect(await readdir(tablesDir(dataDir))).to.deep.equal(before)
  })
})

describe('linkOrCopy()', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tabula-link-'))
    await writeFile(join(dir, 'a'), 'payload')
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('links when the file system allows it', async () => {
    expect(await linkOrCopy(join(dir, 'a'), join(dir, 'b'))).to.equal('linked')
    expect((await stat(join(dir, 'b'))).ino).to.equal((await stat(join(dir, 'a'))).ino)
  })

  it('copies when linking fails with EXDEV (another device)', async () => {
    const crossDevice = async (): Promise<void> => {
      throw Object.assign(new Error('cross-device link'), { code: 'EXDEV' })
    }
    expect(await linkOrCopy(join(dir, 'a'), join(dir, 'b'), crossDevice)).to.equal('copied')
    expect(await readFile(join(dir, 'b'), 'utf8')).to.equal('payload')
    expect((await stat(join(dir, 'b'))).ino).to.not.equal((await stat(join(dir, 'a'))).ino)
  })
})

async function expectRejection(p: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await p
  } catch (e) {
    expect((e as Error).message).to.match(message)
    return
  }
  throw new Error('expected the promise to reject')
}
