/**
 * The catalog objects the object-URL tests (objects.test.ts, ls.test.ts) read: the demo tables'
 * names, a small table committed straight into the catalog, and a few objects private to admin.
 */
import { expect } from 'chai'
import { writeTableVersion } from '../../engine/storage/index.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import type { TestService } from './service.js'

export const ITEM = 'pub.demo.retail.item'
export const STORES = 'pub.demo.retail.stores'
export const ITEM_COLS = ['trans', 'date', 'store', 'sku', 'customer', 'qty', 'sales', 'cost', 'payment']

/** A small table written to disk and committed straight into the catalog, as admin. */
export async function makeTable(svc: TestService, path: string, acl: { users: string[]; inherit: boolean }): Promise<void> {
  const meta = await writeTableVersion(svc.deps.config.dataDir, {
    columns: [
      { name: 'amount', type: 'float' },
      { name: 'note', type: 'text' },
    ],
    data: [Float64Array.from([1.5, 2.25]), ['first', 'second']],
  })
  await commitTable(svc.deps.store, { path, owner: 'admin', ...acl }, meta)
}

/** The body of a 404 with the path it names replaced, to compare two answers' shapes (each request has its own requestId). */
export function shape(body: unknown, path: string): string {
  const { requestId, ...rest } = body as Record<string, unknown>
  expect(requestId, 'every error body carries a requestId').to.be.a('string')
  return JSON.stringify(rest).split(path).join('<path>')
}

/** Private to admin: a top-level folder, a table in it, a folder and a table inside pub; and a table of vault shared with olga. */
export async function makePrivateObjects(svc: TestService): Promise<void> {
  const store = svc.deps.store
  await ensureDir(store, { path: 'vault', owner: 'admin', inherit: false, users: [] })
  await makeTable(svc, 'vault.ledger', { users: [], inherit: false })
  await ensureDir(store, { path: 'pub.hidden', owner: 'admin', inherit: false, users: [] })
  await makeTable(svc, 'pub.secret_sales', { users: [], inherit: false })
  // Shared with olga by its own list, although its folder is not.
  await makeTable(svc, 'vault.shared', { users: ['olga'], inherit: false })
}
