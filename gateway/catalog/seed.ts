/**
 * First-start set-up: the default company, the built-in roles, the `admin` user and, with
 * DEMO_DATA on, the demo retail tables. Safe to run on several gateways at once: creation is
 * set-if-absent, and seeding the demo takes a lock.
 */
import type { Config } from '../../shared/config.js'
import type { Store } from '../../shared/store/types.js'
import { makeRetailDemo, writeTableVersion } from '../../engine/index.js'
import { generatePassword } from '../auth/password.js'
import { commitTable, ensureDir } from './tables.js'
import { createUser, DEFAULT_COMPANY, getUser } from './users.js'
import { KEYS, type CompanyRecord, type RoleRecord } from './records.js'
import type { Capability } from './principal.js'
import { newCompanyRecord } from '../dbm/company-record.js'

/** Roles every installation has; they cannot be changed or dropped. */
export const BUILTIN_ROLES: readonly { role: string; title: string; description: string; capabilities: readonly Capability[] }[] = [
  { role: 'admin', title: 'Administrator', description: 'Administers everything.', capabilities: ['admin'] },
  {
    role: 'user_admin',
    title: 'User administrator',
    description: 'Manages the users and groups of their own company.',
    capabilities: ['manage_users', 'manage_groups'],
  },
  { role: 'folder_creator', title: 'Folder creator', description: 'Creates top-level folders.', capabilities: ['create_top_folders'] },
]

async function ensureCatalogBasics(store: Store): Promise<void> {
  const now = new Date().toISOString()
  for (const r of BUILTIN_ROLES) {
    const role: RoleRecord = { ...r, builtin: true, created: now, updated: now }
    await store.set(KEYS.role(r.role), JSON.stringify(role), { nx: true })
    // Unconditional: a start cut short between the two writes is completed by the next one.
    await store.sadd(KEYS.allRoles, r.role)
  }
  const company: CompanyRecord = { ...newCompanyRecord(DEFAULT_COMPANY, 'admin', now), name: 'Main' }
  await store.set(KEYS.company(DEFAULT_COMPANY), JSON.stringify(company), { nx: true })
  await store.sadd(KEYS.allCompanies, DEFAULT_COMPANY)
}

/** Creates `admin` on first start; returns the password when it was generated here. */
export async function ensureAdmin(store: Store, config: Config): Promise<{ created: boolean; generated: string | null }> {
  await ensureCatalogBasics(store)
  if (await getUser(store, 'admin')) return { created: false, generated: null }
  const generated = config.adminPassword === null ? generatePassword() : null
  const created = await createUser(store, { uid: 'admin', password: config.adminPassword ?? generated!, roles: ['admin'], first: 'Administrator' })
  return { created: created !== null, generated: created ? generated : null }
}

const DEMO_LOCK = 'lock:demo-seed'

/** Short, and refreshed while seeding: a seeder that dies holds the others up for seconds only. */
const DEMO_LOCK_TTL_S = 30
const DEMO_LOCK_REFRESH_MS = 10_000
const DEMO_WAIT_STEP_MS = 100

/** Every table of the retail demo (engine/demo/retail.ts makes them in this order). */
const DEMO_TABLES = ['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'] as const

/** Seeded means all of them: a seeder killed between two commits leaves the rest to the next. */
const demoSeeded = async (store: Store): Promise<boolean> => (await store.mget(DEMO_TABLES.map((p) => KEYS.table(p)))).every((v) => v !== null)

/**
 * Writes the demo tables that do not exist yet; returns the paths written. When several gateways
 * start together on a new installation one of them seeds and the others wait for it, so no
 * gateway starts serving before the demo tables exist. A seeder that dies frees the lock when it
 * expires, and a waiter then takes over.
 */
export async function seedDemoData(store: Store, config: Config): Promise<string[]> {
  for (;;) {
    if (await demoSeeded(store)) return []
    if (await store.set(DEMO_LOCK, String(process.pid), { nx: true, ttl: DEMO_LOCK_TTL_S })) break
    while ((await store.get(DEMO_LOCK)) !== null) {
      if (await demoSeeded(store)) return []
      await new Promise((resolve) => setTimeout(resolve, DEMO_WAIT_STEP_MS))
    }
  }
  const refresh = setInterval(() => void store.expire(DEMO_LOCK, DEMO_LOCK_TTL_S).catch(() => undefined), DEMO_LOCK_REFRESH_MS)
  try {
    await ensureDir(store, { path: 'pub', owner: 'admin', title: 'Public data', users: ['*'], inherit: false })
    await ensureDir(store, { path: 'pub.demo', owner: 'admin', title: 'Demonstration data' })
    await ensureDir(store, { path: 'pub.demo.retail', owner: 'admin', title: 'Retail demo' })
    const written: string[] = []
    for (const t of makeRetailDemo({ rows: config.demoRows })) {
      if (!(DEMO_TABLES as readonly string[]).includes(t.path)) throw new Error(`seed: ${t.path} is missing from DEMO_TABLES`)
      if ((await store.get(KEYS.table(t.path))) !== null) continue
      const meta = await writeTableVersion(config.dataDir, { columns: t.columns, data: t.data }, undefined, config.tableSegmentRows)
      await commitTable(store, { path: t.path, owner: 'admin', title: t.title }, meta)
      written.push(t.path)
    }
    return written
  } finally {
    clearInterval(refresh)
    await store.del(DEMO_LOCK)
  }
}
