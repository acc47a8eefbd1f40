/**
 * First-start seeding of the demo tables: a seeder killed between two table commits leaves the
 * rest to the next start, and a gateway that finds another seeding waits until every table exists
 * instead of serving without them.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../shared/config.js'
import { createMemoryStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/types.js'
import { KEYS } from '../../gateway/catalog/records.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { ensureAdmin, seedDemoData } from '../../gateway/catalog/seed.js'
import { makeRetailDemo } from '../../engine/demo/retail.js'
import { writeTableVersion } from '../../engine/storage/index.js'

const DEMO = ['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores']

describe('seedDemoData', () => {
  let dataDir: string
  let store: Store
  let config: Config
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-seed-'))
    config = loadConfig({ DATA_DIR: dataDir, DEMO_ROWS: '500', ADMIN_PASSWORD: 'seed-pw-123' })
    store = createMemoryStore({ dataDir })
    await store.connect()
    await ensureAdmin(store, config)
  })

  /** What a seeder makes before its first table. */
  const demoFolders = async (): Promise<void> => {
    for (const path of ['pub', 'pub.demo', 'pub.demo.retail']) await ensureDir(store, { path, owner: 'admin', users: ['*'] })
  }
  afterEach(async () => {
    await store.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('seeds every demo table once, and nothing on the next start', async () => {
    expect(await seedDemoData(store, config)).to.deep.equal(DEMO)
    expect(await seedDemoData(store, config)).to.deep.equal([])
  })

  it('completes a seeding cut short after the first table', async () => {
    await demoFolders()
    const [item] = makeRetailDemo({ rows: config.demoRows })
    await commitTable(
      store,
      { path: item.path, owner: 'admin', title: item.title },
      await writeTableVersion(dataDir, { columns: item.columns, data: item.data }),
    )
    const before = await store.get(KEYS.table(item.path))
    expect(await seedDemoData(store, config)).to.deep.equal(DEMO.slice(1))
    expect(await store.get(KEYS.table(item.path)), 'the table already there is left alone').to.equal(before)
  })

  it('waits while another gateway holds the seeding lock, and returns once every table exists', async () => {
    await store.set('lock:demo-seed', 'other', { nx: true, ttl: 30 })
    let done = false
    const waiting = seedDemoData(store, config).then((written) => {
      done = true
      return written
    })
    await new Promise((r) => setTimeout(r, 300))
    expect(done, 'still waiting for the other seeder').to.equal(false)
    // The "other gateway" seeds, then releases the lock.
    await demoFolders()
    for (const t of makeRetailDemo({ rows: config.demoRows })) {
      await commitTable(store, { path: t.path, owner: 'admin', title: t.title }, await writeTableVersion(dataDir, { columns: t.columns, data: t.data }))
    }
    expect(await waiting).to.deep.equal([])
  })
})
