/**
 * `node dist/scripts/hog-share.js --seconds 600`: fair sharing held for a long time (issue 36).
 * A real gateway process at its default settings (but for WORKERS=2), four users:
 *  - two hogs, each keeping four never-ending SQL queries running (its session's `sql` and three
 *    `sql` instances; MAX_QUERIES_PER_SESSION allows four), posting a new one whenever one ends
 *    at the query time limit;
 *  - two light users, each looping a one-row query on `pub.demo.retail.stores` with 200 ms pauses,
 *    every text new so no memo answers it.
 * It records how long each light query took, minute by minute, and fails when one took longer
 * than the promised bound (1 s at the defaults, docs/security.md) or did not answer 200 with the
 * right row, or when a hog's query ended any other way than by its time limit or a stop.
 *
 *   node dist/scripts/hog-share.js [--seconds 600] [--bound-ms 1000] [--json]
 *
 * Exits 1 when a check fails. `--json` prints one JSON object (for `npm run reliability`).
 */
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { children, start, stop, type Running } from '../test/helpers/processes.js'
import { cookieOf, poster } from './loopback-post.js'

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}
const SECONDS = Number(arg('seconds', '600'))
const BOUND_MS = Number(arg('bound-ms', '1000'))
const AS_JSON = process.argv.includes('--json')
const PW = 'hog-admin-pw-1'
const USER_PW = 'hog-user-pw-1'
/** Each hog keeps this many queries running: MAX_QUERIES_PER_SESSION's default. */
const HOG_QUERIES = 4
const PAUSE_MS = 200

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
const post = poster(agent)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export interface HogShareReport {
  readonly seconds: number
  readonly boundMs: number
  readonly lightQueries: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** Per minute of the run: light queries, their p99 and their maximum (ms). */
  readonly minutes: { n: number; p99: number; max: number }[]
  readonly hogQueriesEnded: number
  readonly hogStatuses: Record<string, number>
  readonly preemptions: number
  readonly workerRestarts: number
  readonly problems: string[]
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${new URL(base).origin}/metrics`)).text()
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-hogs-'))
  let service: Running | null = null
  const log = (s: string) => {
    if (!AS_JSON) process.stdout.write(`${s}\n`)
  }
  try {
    service = await start({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WORKERS: '2', ADMIN_PASSWORD: PW, DEMO_ROWS: '20000' })
    const base = service.base
    const admin = cookieOf((await post(base, '!login:json', new URLSearchParams({ uid: 'admin', pw: PW }))).body)
    const login = async (uid: string): Promise<string> => {
      const r = await post(base, 'dbm:json', { cmd: ['add_user', { uid, password: USER_PW, first: 'Hog', last: uid, email: `${uid}@example.com` }] }, admin)
      if ((r.body as { rc?: number }).rc !== 0) throw new Error(`add_user ${uid}: ${JSON.stringify(r.body)}`)
      return cookieOf((await post(base, '!login:json', new URLSearchParams({ uid, pw: USER_PW }))).body)
    }
    const problems: string[] = []
    const hogStatuses = new Map<number, number>()
    let hogEnded = 0
    let serial = 0
    const end = performance.now() + SECONDS * 1000
    const t0 = performance.now()

    // The hogs: every one of their four places always holds a never-ending query.
    const hog = async (uid: string) => {
      const cookie = await login(uid)
      const paths = ['sql']
      for (let i = 1; i < HOG_QUERIES; i++) {
        const r = await post(base, 'new/sql:json', {}, cookie)
        if (r.status !== 200) throw new Error(`api/new/sql for ${uid}: ${r.status} ${JSON.stringify(r.body)}`)
        paths.push(String((r.body as { tag: number }).tag))
      }
      return { cookie, paths }
    }
    const hogs = await Promise.all(['hog_a', 'hog_d'].map(hog))
    const hogLoops = hogs.flatMap(({ cookie, paths }) =>
      paths.map(async (path) => {
        while (performance.now() < end) {
          const sql = `with recursive c(x) as (select ${++serial} union all select x + 1 from c) select count(*) as n from c`
          const r = await post(base, `${path}:json`, { sql }, cookie)
          hogEnded++
          hogStatuses.set(r.status, (hogStatuses.get(r.status) ?? 0) + 1)
          // A hog's query ends by its time limit (504), or by the stop at the end (409).
          if (r.status !== 504 && r.status !== 409) problems.push(`a hog's query ended ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`)
        }
      }),
    )
    await sleep(2000)

    // The light users: one small query after another.
    const waits: { at: number; ms: number }[] = []
    const light = async (uid: string) => {
      const cookie = await login(uid)
      while (performance.now() < end) {
        const n = ++serial
        const sent = performance.now()
        const r = await post(base, 'sql:json', { sql: `select ${n} as k, city from pub.demo.retail.stores where store = 7` }, cookie)
        const ms = performance.now() - sent
        waits.push({ at: sent - t0, ms })
        if (r.status !== 200 || (r.body as { k?: number[] }).k?.[0] !== n)
          problems.push(`a light query answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`)
        else if (ms > BOUND_MS) problems.push(`a light query took ${Math.round(ms)} ms at ${Math.round((sent - t0) / 1000)} s, over ${BOUND_MS} ms`)
        await sleep(PAUSE_MS)
      }
    }
    await Promise.all(['light_b', 'light_c'].map(light))
    for (const { cookie, paths } of hogs) for (const p of paths) await post(base, `${p}/!stop:json`, {}, cookie)
    await Promise.all(hogLoops)

    const sorted = waits.map((w) => w.ms).sort((a, b) => a - b)
    const minutes: { n: number; p99: number; max: number }[] = []
    for (let m = 0; m * 60_000 < SECONDS * 1000; m++) {
      const inMinute = waits
        .filter((w) => w.at >= m * 60_000 && w.at < (m + 1) * 60_000)
        .map((w) => w.ms)
        .sort((a, b) => a - b)
      minutes.push({ n: inMinute.length, p99: Math.round(percentile(inMinute, 99)), max: Math.round(inMinute.at(-1) ?? NaN) })
    }
    const report: HogShareReport = {
      seconds: SECONDS,
      boundMs: BOUND_MS,
      lightQueries: waits.length,
      p50Ms: Math.round(percentile(sorted, 50)),
      p99Ms: Math.round(percentile(sorted, 99)),
      maxMs: Math.round(sorted.at(-1) ?? NaN),
      minutes,
      hogQueriesEnded: hogEnded,
      hogStatuses: Object.fromEntries([...hogStatuses].map(([s, n]) => [String(s), n])),
      preemptions: await metric(base, 'worker_preemptions_total'),
      workerRestarts: await metric(base, 'worker_restarts_total'),
      problems: problems.slice(0, 20),
    }
    if (waits.length === 0) report.problems.push('no light query ran')
    if (AS_JSON) process.stdout.write(`${JSON.stringify(report)}\n`)
    else {
      log(`hog-share: ${SECONDS} s, two hogs x ${HOG_QUERIES} never-ending queries, two light users`)
      log(`light queries: ${report.lightQueries}, p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms, max ${report.maxMs} ms (bound ${BOUND_MS} ms)`)
      log(`per minute (n / p99 / max ms): ${minutes.map((m) => `${m.n}/${m.p99}/${m.max}`).join('  ')}`)
      log(`hog queries ended: ${hogEnded} ${JSON.stringify(report.hogStatuses)}; preemptions ${report.preemptions}; worker restarts ${report.workerRestarts}`)
      log(report.problems.length === 0 ? 'no problems' : `problems:\n  ${report.problems.join('\n  ')}`)
    }
    process.exitCode = report.problems.length === 0 ? 0 : 1
  } finally {
    if (service) await stop(service)
    agent.destroy()
    await rm(dataDir, { recursive: true, force: true })
  }
}

// Stopped from outside (Ctrl-C, or the reliability report ended), the gateway and its
// never-ending queries go too, rather than running on as an orphan until their time limit.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL')
    process.exit(130)
  })

await main()
