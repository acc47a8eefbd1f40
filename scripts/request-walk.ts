/**
 * `node dist/scripts/request-walk.js [--list]`: which of the gateway's own files one request runs
 * through, for docs/architecture.md's walk of api/sql and api/run (issue 37). The service runs in
 * this process on the memory store with demo data; V8's precise coverage counts the functions
 * that ran between two readings, so a warm-up request of the same shape first loads and compiles
 * everything, and the reading covers the measured request alone: a fresh query (no memoised
 * result) from the login cookie to the answer's last byte. Only this thread is seen: the engine
 * files that ran in a worker thread are not counted.
 */
import http from 'node:http'
import { Session } from 'node:inspector/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../shared/config.js'
import { createMemoryStore } from '../shared/store/index.js'
import { createApp } from '../gateway/http/app.js'
import { buildDeps, closeDeps } from '../gateway/compose.js'
import { ensureAdmin, seedDemoData } from '../gateway/catalog/seed.js'

const PASSWORD = 'walk-admin-secret-1'
const DIST = fileURLToPath(new URL('..', import.meta.url))
const PRODUCT = /^(gateway|engine|shared)\//

interface Walked {
  readonly what: string
  /** The product files with a function that ran, and how many of their functions ran. */
  readonly files: readonly { readonly path: string; readonly functions: number }[]
}

/** The product files with a function that ran since the last reading (which it resets). */
async function filesRun(session: Session): Promise<Walked['files']> {
  const { result } = await session.post('Profiler.takePreciseCoverage')
  const files: { path: string; functions: number }[] = []
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue
    const path = relative(DIST, fileURLToPath(script.url))
    // The first range of a function covers the whole function: its count is the calls.
    const functions = script.functions.filter((f) => f.ranges[0].count > 0 && f.functionName !== '').length
    if (PRODUCT.test(path) && script.functions.some((f) => f.ranges[0].count > 0)) files.push({ path: path.replace(/\.js$/, '.ts'), functions })
  }
  return files.sort((a, b) => a.path.localeCompare(b.path))
}

async function main(): Promise<void> {
  const list = process.argv.includes('--list')
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-walk-'))
  const config = loadConfig({ DATA_DIR: dataDir, DEMO_ROWS: '3000', WORKERS: '1', ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' })
  const store = createMemoryStore({ dataDir })
  await store.connect()
  const deps = await buildDeps(config, () => undefined, store)
  await ensureAdmin(store, config)
  await seedDemoData(store, config)
  const server = http.createServer(createApp(deps).callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const api = `http://127.0.0.1:${port}/v1/api`
  const session = new Session()
  session.connect()
  try {
    const login = await fetch(`${api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: PASSWORD }) })
    const who = (await login.json()) as Record<string, string>
    const cookie = `session=${who.uid}|${who.sid}|${who.epw}`
    const post = async (path: string, body: Record<string, string>): Promise<void> => {
      const res = await fetch(`${api}/${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`)
    }
    await session.post('Profiler.enable')
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
    const walks: Walked[] = []
    const walk = async (what: string, path: string, body: (n: number) => Record<string, string>): Promise<void> => {
      await post(path, body(1)) // loads and compiles everything this shape of request needs
      await filesRun(session)
      await post(path, body(2))
      walks.push({ what, files: await filesRun(session) })
    }
    await walk('POST api/sql:json', 'sql:json', (n) => ({ sql: `select store, count(*) as n from pub.demo.retail.item where sales > ${n} group by store` }))
    await walk('POST api/run:json', 'run:json', (n) => ({
      xml: `<base table="pub.demo.retail.item"/><sel value="sales>${n}"/><tabu breaks="store"><tcol source="sales" fun="sum"/></tabu>`,
    }))
    for (const w of walks) {
      const by = (top: string): number => w.files.filter((f) => f.path.startsWith(`${top}/`)).length
      const functions = w.files.reduce((n, f) => n + f.functions, 0)
      console.log(
        `${w.what}: ${w.files.length} files and ${functions} named functions on the gateway's thread (files: gateway ${by('gateway')}, shared ${by('shared')}, engine ${by('engine')})`,
      )
      if (list) for (const f of w.files) console.log(`  ${f.path} (${f.functions})`)
    }
  } finally {
    session.disconnect()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closeDeps(deps)
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
