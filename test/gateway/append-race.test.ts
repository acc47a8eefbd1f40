/**
 * An append reads its table's current version, writes a new version from it plus its rows, and
 * commits only if the table is still at the version it read (issue 37, from a mutation check: a
 * change that committed regardless lost the concurrent append, and only the three-gateway suite,
 * by chance, caught it). Here the race is forced: between the append's read of its base and its
 * commit, another writer (as another gateway would) commits a version with one more row. The
 * append must notice, start again from the new version, and keep every row.
 */
import { expect } from 'chai'
import { writeTableVersion } from '../../engine/storage/index.js'
import { commitTable } from '../../gateway/catalog/tables.js'
import { KEYS, parseRecord, type TableRecord } from '../../gateway/catalog/records.js'
import type { Principal } from '../../gateway/catalog/principal.js'
import { saveTable } from '../../gateway/tables/save.js'
import { ensureHomeFolder } from '../../gateway/catalog/write-access.js'
import { TableCache } from '../../gateway/tables/table-cache.js'
import { forEachStore } from '../helpers/suites.js'

const ADMIN: Principal = { uid: 'admin', company: 'main', groups: [], caps: new Set(['admin']), admin: true }

forEachStore('an append that loses the race to commit', (svc) => {
  it('starts again from the version another writer committed meanwhile, and keeps both rows', async () => {
    const { store, config } = svc().deps
    // The gateway's own cache of table columns, as a route passes it (deps.tables).
    const tables = new TableCache(config.dataDir, 64 * 2 ** 20)
    await ensureHomeFolder(store, 'admin')
    const path = `uploads.admin.race_${Date.now() % 1_000_000}`
    const x = (values: number[]) => ({ columns: [{ name: 'x', type: 'int' as const }], data: [Int32Array.from(values)] })
    await commitTable(store, { path, owner: 'admin' }, await writeTableVersion(config.dataDir, x([1, 2])))
    let builds = 0
    const saved = await saveTable({ store, config, tables }, ADMIN, { path, mode: 'append' }, async () => {
      builds++
      if (builds === 1) {
        // Another writer appends 3 after this append read [1, 2] and before it commits.
        const base = parseRecord<TableRecord>(await store.get(KEYS.table(path)))!
        await commitTable(store, { path, owner: 'admin' }, await writeTableVersion(config.dataDir, x([1, 2, 3])), { expectVersion: base.version })
      }
      return x([4])
    })
    expect(builds, 'the append was built again from the new version').to.equal(2)
    expect(saved.rows).to.equal(4)
    const res = await svc()
      .http.post('/v1/api/sql:json')
      .set('Cookie', await svc().login())
      .send({ sql: `select x from ${path} order by rowid` })
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ x: [1, 2, 3, 4] })
  })
})
