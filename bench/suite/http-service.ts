/**
 * The service as users reach it, for the suite's HTTP runs (`--http`): a gateway on a loopback
 * port with its worker pool (test/helpers/service.ts, memory store), the suite's tables written as
 * stored tables under pub.suite (or any table's own folder: table files, then the catalog entry),
 * and an admin session.
 * Queries then go the whole way: HTTP request, session, parse and check, the table cache, the
 * pool (split over the workers when the plan allows), and the JSON answer.
 */
import { ensureDir, commitTable } from '../../gateway/catalog/tables.js'
import { startTestService, type TestService } from '../../test/helpers/service.js'
import type { BenchTable } from '../data.js'
import { writeTableFiles } from '../table-files.js'

export interface SuiteService {
  readonly service: TestService
  readonly cookie: string
  close(): Promise<void>
}

/** A gateway with `workers` workers serving the suite's tables. */
export async function startSuiteService(tables: readonly BenchTable[], workers: number, env: Record<string, string> = {}): Promise<SuiteService> {
  const service = await startTestService('memory', { WORKERS: String(workers), LOG_LEVEL: 'error', ...env })
  try {
    const store = service.deps.store
    // Each table's folder (pub.suite for the suite's tables).
    for (const dir of new Set(tables.map((t) => t.path.split('.').slice(0, -1).join('.'))))
      await ensureDir(store, { path: dir, owner: 'admin', title: dir === 'pub.suite' ? 'Benchmark suite' : dir })
    for (const t of tables) {
      const meta = await writeTableFiles(service.dataDir, t)
      await commitTable(store, { path: t.path, owner: 'admin', title: t.title }, meta)
    }
    const cookie = await service.login()
    return { service, cookie, close: () => service.close() }
  } catch (e) {
    await service.close()
    throw e
  }
}
