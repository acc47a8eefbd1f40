/**
 * The consistency check the SIGKILL test relies on finds real damage: a clean catalog passes, and
 * a truncated column file, a missing version folder, a table left out of its folder's listing, a
 * listing naming a missing table, a retired version still in use and a user missing from the
 * index are each reported by name.
 */
import { expect } from 'chai'
import { rm, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { KEYS, type TableRecord } from '../../gateway/catalog/records.js'
import { columnFile, versionDir } from '../../engine/storage/index.js'
import { dbmOk } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { checkCatalog } from './catalog-check.js'

describe('the catalog consistency check of the fault tests', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string

  before(async () => {
    svc = await startTestService('memory')
    admin = await svc.login()
  })
  after(async () => {
    await svc?.close()
  })

  const problems = async (): Promise<string[]> => (await checkCatalog(svc.deps.store, svc.dataDir)).problems
  const upload = (path: string) =>
    dbmOk<{ path: string }>(svc, admin, 'upload_table', {
      path,
      cols: [
        { name: 'k', type: 'int' },
        { name: 'tag', type: 'text' },
      ],
      data: { k: [0, 1, 2], tag: ['x', 'x', 'x'] },
    })
  const record = async (path: string): Promise<TableRecord> => JSON.parse((await svc.deps.store.get(KEYS.table(path)))!) as TableRecord

  it('passes a clean catalog and reads each table’s content', async () => {
    await upload('uploads.admin.clean')
    const result = await checkCatalog(svc.deps.store, svc.dataDir)
    expect(result.problems).to.deep.equal([])
    expect(result.state.contents.get('uploads.admin.clean')).to.deep.equal({ rows: 3, tags: ['x'], kInOrder: true })
  })

  it('reports a truncated column file', async () => {
    await upload('uploads.admin.torn')
    const { version } = await record('uploads.admin.torn')
    await truncate(join(versionDir(svc.dataDir, version), columnFile(0)), 5)
    expect((await problems()).join('\n')).to.match(/table uploads\.admin\.torn .*c0\.bin.*5 bytes where 3 rows/)
    await svc.deps.store.del(KEYS.table('uploads.admin.torn'))
    await svc.deps.store.srem(KEYS.entries('uploads.admin'), 'table:uploads.admin.torn')
  })

  it('reports a missing version folder', async () => {
    await upload('uploads.admin.gone')
    const { version } = await record('uploads.admin.gone')
    await rm(versionDir(svc.dataDir, version), { recursive: true })
    expect((await problems()).join('\n')).to.match(/table uploads\.admin\.gone .*meta\.json is missing/)
    await svc.deps.store.del(KEYS.table('uploads.admin.gone'))
    await svc.deps.store.srem(KEYS.entries('uploads.admin'), 'table:uploads.admin.gone')
  })

  it('reports listings that disagree with the records', async () => {
    await upload('uploads.admin.unlisted')
    await svc.deps.store.srem(KEYS.entries('uploads.admin'), 'table:uploads.admin.unlisted')
    await svc.deps.store.sadd(KEYS.entries('uploads.admin'), 'table:uploads.admin.phantom')
    const found = (await problems()).join('\n')
    expect(found).to.match(/table uploads\.admin\.unlisted is missing from its folder's listing/)
    expect(found).to.match(/folder uploads\.admin lists table:uploads\.admin\.phantom, which does not exist/)
    await svc.deps.store.sadd(KEYS.entries('uploads.admin'), 'table:uploads.admin.unlisted')
    await svc.deps.store.srem(KEYS.entries('uploads.admin'), 'table:uploads.admin.phantom')
  })

  it('reports a retired version that a table still points at, and a user missing from the index', async () => {
    const { version } = await record('uploads.admin.clean')
    // Dated far ahead so the gateway's sweeper (no grace on the embedded store) leaves the files
    // alone while the check looks: this test is about the check, not about sweeping.
    await svc.deps.store.hset(KEYS.retiredVersions, { [version]: '2999-01-01T00:00:00.000Z' })
    await svc.deps.store.set(KEYS.user('ghost'), JSON.stringify({ uid: 'ghost' }))
    const found = (await problems()).join('\n')
    expect(found).to.match(new RegExp(`table uploads\\.admin\\.clean points at version ${version}, which is retired`))
    expect(found).to.match(/user ghost has a record but is not in the user index/)
    await svc.deps.store.hdel(KEYS.retiredVersions, version)
    await svc.deps.store.del(KEYS.user('ghost'))
    expect(await problems()).to.deep.equal([])
  })
})
