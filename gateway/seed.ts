/**
 * First-start set-up: the `admin` user and, with DEMO_DATA on, the demo retail tables. Safe to run
 * on several gateways at once: creation uses set-if-absent, and seeding takes a lock.
 */
import type { Config } from '../shared/config.js'
import type { Store } from '../shared/store/types.js'
import { makeRetailDemo } from '../engine/demo/retail.js'
import { writeTableVersion } from '../engine/storage/index.js'
import { generatePassword } from './auth/password.js'
import { commitTable, ensureDir } from './catalog/tables.js'
import { createUser, getUser } from './catalog/users.js'
import { KEYS } from './catalog/records.js'

/** Creates `admin` on first start; returns the password when it was generated here. */
export async function ensureAdmin(store: Store, config: Config): Promise<{ created: boolean; generated: string | null }> {
  if (await getUser(store, 'admin')) return { created: false, generated: null }
  const generated = config.adminPassword === null ? generatePassword() : null
  const created = await createUser(store, { uid: 'admin', password: config.adminPassword ?? generated!, admin: true, first: 'Administrator' })
  return { created, generated: created ? generated : null }
}

const DEMO_LOCK = 'lock:demo-seed'

/** Writes the demo tables unless they exist; returns the paths written. */
export async function seedDemoData(store: Store, config: Config): Promise<string[]> {
  if (await store.get(KEYS.table('pub.demo.retail.item'))) return []
  if (!(await store.set(DEMO_LOCK, String(process.pid), { nx: true, ttl: 600 }))) return []
  try {
    await ensureDir(store, { path: 'pub', owner: 'admin', title: 'Public data', users: ['*'], inherit: false })
    await ensureDir(store, { path: 'pub.demo', owner: 'admin', title: 'Demonstration data' })
    await ensureDir(store, { path: 'pub.demo.retail', owner: 'admin', title: 'Retail demo' })
    const written: string[] = []
    for (const t of makeRetailDemo({ rows: config.demoRows })) {
      const meta = await writeTableVersion(config.dataDir, { columns: t.columns, data: t.data })
      await commitTable(store, { path: t.path, owner: 'admin', title: t.title }, meta)
      written.push(t.path)
    }
    return written
  } finally {
    await store.del(DEMO_LOCK)
  }
}
