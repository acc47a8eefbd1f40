/**
 * removeUncommittedVersions, which an embedded-store gateway runs at start to delete the versions
 * of writes a crash stopped before their commit: it removes exactly the version folders the
 * catalog does not know, and leaves known versions and anything that is not a version alone.
 */
import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeUncommittedVersions, tablesDir, writeTableVersion } from '../../engine/storage/index.js'

describe('removing uncommitted table versions at start', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-cleanup-'))
  })
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  const write = async (): Promise<string> => (await writeTableVersion(dataDir, { columns: [{ name: 'n', type: 'int' }], data: [Int32Array.of(1, 2)] })).version

  it('removes versions the catalog does not know and keeps the rest', async () => {
    const committed = await write()
    const retired = await write()
    const uncommitted = await write()
    await writeFile(join(tablesDir(dataDir), 'README'), 'not a version')
    await mkdir(join(tablesDir(dataDir), '.tmp-abc'))
    const removed = await removeUncommittedVersions(dataDir, new Set([committed, retired]))
    expect(removed).to.deep.equal([uncommitted])
    expect((await readdir(tablesDir(dataDir))).sort()).to.deep.equal(['.tmp-abc', 'README', committed, retired].sort())
  })

  it('does nothing in a data folder without tables', async () => {
    expect(await removeUncommittedVersions(dataDir, new Set())).to.deep.equal([])
  })
})
