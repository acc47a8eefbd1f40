/**
 * `npm run soak -- --seconds N`: a mixed workload from many concurrent clients against the
 * service as a real process on loopback, bounded in time, then the checks a careful operator
 * would make afterwards:
 *  - no request got a 5xx (or failed at the socket);
 *  - every committed change is there (tables uploaded and not dropped read back exactly; dropped
 *    ones are gone; folders made exist);
 *  - memory came back to its level after the warm-up, and no worker thread or file descriptor
 *    leaked (read from /proc of the service process).
 *
 * With `--distinct` the clients send only small queries whose every text is new (a constant
 * column numbered per request), so every compiled-query cache, result memo, kept result and
 * rendered answer is a miss that adds an entry: then memory
 * must plateau (the last third of the run grows less than PLATEAU_SLACK over the middle third)
 * under the bound the caches' documented budgets give (warm-up level + CACHE_BUDGET_BYTES).
 *
 *   node dist/scripts/soak.js [--seconds 30] [--warm-up-seconds 8] [--clients 12] [--rows 50000] [--redis] [--distinct [--cache-mb 32]] [--json]
 *
 * Exits 1 when a check fails. `--json` prints one JSON object (for `npm run reliability`).
 */
import http from 'node:http'
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { start, stop, type Running } from '../test/helpers/processes.js'
import { startRedisServer, type RedisServer } from '../test/helpers/redis-server.js'
import { cookieOf, poster, type Reply } from './loopback-post.js'

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}
const SECONDS = Number(arg('seconds', '30'))
const CLIENTS = Number(arg('clients', '12'))
const ROWS = Number(arg('rows', '50000'))
/** Seconds of the mixed workload before the memory baseline is taken. */
const WARM_UP_SECONDS = Number(arg('warm-up-seconds', '8'))
const USE_REDIS = process.argv.includes('--redis')
const AS_JSON = process.argv.includes('--json')
const DISTINCT = process.argv.includes('--distinct')
/**
 * --distinct runs the service with smaller budgets for its two large caches than the defaults
 * (256 MiB each), so that every cache fills within the first minutes and the level it then keeps
 * shows; the bound scales with the budgets (docs/security.md, "Memory under distinct queries").
 */
const DISTINCT_CACHE_MB = Number(arg('cache-mb', '32'))
/**
 * How far memory may rise above the warm-up level under distinct queries: what the gateway's
 * bounded caches may hold in all (the result memo, RESULT_MEMO_MB; kept results in the embedded
 * store, MEMORY_STORE_CACHE_MB; compiled macro and SQL queries, 16 MiB a kind, three kinds;
 * rendered answers, 16 MiB; the recipe-key memo, 4 MiB), plus a quarter for what their entries
 * cost beyond their charge, times the garbage a heap may hold past its live data before a full
 * collection (GC_HEAP_GROWTH_PERCENT, 50 % by default).
 */
const CACHE_BUDGET_BYTES = Math.round((2 * DISTINCT_CACHE_MB + 3 * 16 + 16 + 4) * 1.25 * 1.5 * 2 ** 20)
/** The last third of a --distinct run may sit this much above the peak of the middle third. */
const PLATEAU_SLACK_BYTES = 48 * 1024 * 1024
/** Numbers the query texts of --distinct, so no two requests send the same text. */
let distinctSeq = 0
const distinctColumn = (): string => (DISTINCT ? `, ${++distinctSeq} d` : '')
const distinctXml = (): string => (DISTINCT ? `<willbe name="d" value="${++distinctSeq}"/>` : '')
const PW = 'soak-admin-pw-1'
const USER_PW = 'soak-user-pw-1'
/** After the soak, memory may sit this far above the post-warm-up level (caches settle). */
const MEMORY_SLACK_BYTES = 96 * 1024 * 1024
const MEMORY_SLACK_RATIO = 0.3
/** Sockets still closing and the like. */
const FD_SLACK = 8

const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
const DYNAMIC = '<dynamic n="1" m="2"><do on_="change(n)"><set m="@n*2"/></do><widget name="index"><table cols="n,m">{@n},{@m}</table></widget></dynamic>'

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 })
const post = poster(agent)

/** The gateway thread's used JavaScript heap, from its /metrics (prom-client's default metrics). */
async function gatewayHeapBytes(base: string): Promise<number> {
  const origin = new URL(base).origin
  const text = await (await fetch(`${origin}/metrics`)).text()
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? NaN)
}

/** Process facts from /proc: resident memory, threads, open descriptors. */
async function processFacts(pid: number): Promise<{ rss: number; threads: number; fds: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: field('VmRSS') * 1024, threads: field('Threads'), fds: await descriptorCount(pid) }
}

/** The service's own code: dist/ and node_modules/ beside this script's dist/. */
const CODE_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Open descriptors, except the service's own code files: a worker thread starting (Piscina
 * replaces a worker ended by !stop) holds dozens of module files open while its loader reads
 * them, for as long as loading takes on a busy machine, and that is no leak. Table files,
 * sockets, pipes and everything else count.
 */
async function descriptorCount(pid: number): Promise<number> {
  let n = 0
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')
    if (target !== '' && !(target.startsWith(CODE_ROOT) && target.endsWith('.js'))) n++
  }
  return n
}

/** What a process's open descriptors are, counted by kind (socket, pipe, anon_inode:[eventfd], file…). */
async function fdKinds(pid: number): Promise<string> {
  const counts = new Map<string, number>()
  const files: string[] = []
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => 'gone')
    const kind = /^(socket|pipe):/.exec(target)?.[1] ?? (target.startsWith('/') ? 'file' : target)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
    if (kind === 'file') files.push(target)
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ') + (files.length > 0 ? `; files such as ${files.slice(-3).join(', ')}` : '')
}

/**
 * The service's facts once what the workload left in passing is gone: sockets still closing, and
 * the table writer's threads, which end a few seconds after their last save (each holds a few
 * descriptors of its own event loop). Sampled every half second for up to SETTLE_MS, taking the
 * first sample within the slack; a real leak stays and is reported from the last sample.
 */
const SETTLE_MS = 10_000

async function settledFacts(pid: number, before: { threads: number; fds: number }): Promise<{ rss: number; threads: number; fds: number }> {
  await new Promise((r) => setTimeout(r, 3000))
  const deadline = Date.now() + SETTLE_MS
  let facts = await processFacts(pid)
  while (Date.now() < deadline && (facts.fds > before.fds + FD_SLACK || facts.threads > before.threads)) {
    await new Promise((r) => setTimeout(r, 500))
    facts = await processFacts(pid)
  }
  return facts
}

interface Tally {
  readonly kinds: Map<string, number>
  readonly statuses: Map<number, number>
  readonly latencies: number[]
  readonly problems: string[]
}

interface Committed {
  readonly owner: string
  readonly cookie: () => string
  readonly path: string
  readonly k: number
  dropped: boolean
}

class Client {
  cookie = ''
  private seq = 0
  constructor(
    readonly uid: string,
    private readonly base: string,
    private readonly tally: Tally,
    private readonly committed: Committed[],
    private readonly folders: string[],
  ) {}

  private async call(kind: string, path: string, body: object | URLSearchParams | null, expect: (r: Reply) => boolean, signal?: AbortSignal): Promise<Reply> {
    const t0 = performance.now()
    const r = await post(this.base, path, body, this.cookie, signal)
    this.tally.latencies.push(performance.now() - t0)
    this.tally.kinds.set(kind, (this.tally.kinds.get(kind) ?? 0) + 1)
    this.tally.statuses.set(r.status, (this.tally.statuses.get(r.status) ?? 0) + 1)
    if (r.status === 0 || r.status >= 500 || !expect(r)) {
      this.tally.problems.push(`${kind} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    return r
  }

  async login(): Promise<void> {
    const r = await this.call('login', '!login:json', new URLSearchParams({ uid: this.uid, pw: USER_PW }), (x) => x.status === 200)
    if (r.status === 200) this.cookie = cookieOf(r.body)
  }

  async smallSql(): Promise<void> {
    await this.call('sql small', 'sql:json', { sql: `select store, count(*) n${distinctColumn()} from pub.demo.retail.item group by store` }, (r) => {
      const n = (r.body as { n?: number[] }).n
      return r.status === 200 && Array.isArray(n) && n.reduce((a, b) => a + b, 0) === ROWS
    })
  }

  async smallRun(): Promise<void> {
    await this.call(
      'run small',
      'run:json',
      { xml: `<base table="pub.demo.retail.item"/><sel value="store=3"/>${distinctXml()}<tabu breaks="store"><tcol fun="cnt"/></tabu>` },
      (r) => r.status === 200,
    )
  }

  async largeQuery(): Promise<void> {
    await this.call(
      'sql large',
      'sql:json.rows',
      { sql: 'select * from pub.demo.retail.item' },
      (r) => r.status === 200 && (r.body as { rows?: unknown[] }).rows?.length === ROWS,
    )
  }

  async instance(): Promise<void> {
    const made = await this.call('instance new', 'new:json', { xml: DYNAMIC }, (r) => r.status === 200)
    const tag = (made.body as { tag?: number }).tag
    if (tag === undefined) return
    const n = 1 + (this.seq++ % 50)
    await this.call('instance change', `${tag}:json`, { n: String(n) }, (r) => JSON.stringify(r.body) === JSON.stringify({ n: [n], m: [2 * n] }))
  }

  async stopLong(): Promise<void> {
    const made = await this.call('instance new', 'new/sql:json', {}, (r) => r.status === 200)
    const tag = (made.body as { tag?: number }).tag
    if (tag === undefined) return
    const running = this.call('query stopped', `${tag}:json`, { sql: FOREVER }, (r) => r.status === 409)
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200))
    await this.call('stop', `${tag}/!stop:json`, null, (r) => r.status === 200)
    await running
  }

  async upload(): Promise<void> {
    const k = this.seq++
    const path = `uploads.${this.uid}.t${k}`
    const r = await this.call(
      'dbm upload_table',
      'dbm:json',
      { cmd: ['upload_table', { path, data: { k: [k, k + 1], who: [this.uid, this.uid] } }] },
      (x) => x.status === 200 && (x.body as { rc?: number }).rc === 0,
    )
    if (r.status === 200 && (r.body as { rc?: number }).rc === 0) this.committed.push({ owner: this.uid, cookie: () => this.cookie, path, k, dropped: false })
  }

  async dropOne(): Promise<void> {
    const mine = this.committed.filter((c) => c.owner === this.uid && !c.dropped)
    if (mine.length < 3) return this.upload()
    const victim = mine[Math.floor(Math.random() * mine.length)]
    victim.dropped = true // claimed before the call: no second drop of it
    const r = await this.call(
      'dbm drop_table',
      'dbm:json',
      { cmd: ['drop_table', { path: victim.path }] },
      (x) => x.status === 200 && (x.body as { rc?: number }).rc === 0,
    )
    if (!(r.status === 200 && (r.body as { rc?: number }).rc === 0)) victim.dropped = false
  }

  async makeDir(): Promise<void> {
    const path = `uploads.${this.uid}.d${this.seq++}`
    const r = await this.call('dbm make_dir', 'dbm:json', { cmd: ['make_dir', { path }] }, (x) => x.status === 200 && (x.body as { rc?: number }).rc === 0)
    if ((r.body as { rc?: number }).rc === 0) this.folders.push(`${this.uid}|${path}`)
  }

  /** One of each kind, in order. */
  async warmUp(): Promise<void> {
    await this.login()
    await this.smallSql()
    await this.smallRun()
    await this.largeQuery()
    await this.instance()
    await this.stopLong()
    await this.upload()
    await this.makeDir()
  }

  async randomStep(): Promise<void> {
    const x = Math.random()
    // Distinct queries only: tables, folders and instances that other steps create are state
    // that rightly grows, and would hide whether the caches level off.
    if (DISTINCT) return x < 0.5 ? this.smallSql() : this.smallRun()
    if (x < 0.05) return this.login()
    if (x < 0.35) return this.smallSql()
    if (x < 0.6) return this.smallRun()
    if (x < 0.66) return this.largeQuery()
    if (x < 0.78) return this.instance()
    if (x < 0.83) return this.stopLong()
    if (x < 0.92) return this.upload()
    if (x < 0.96) return this.dropOne()
    return this.makeDir()
  }
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

async function verify(
  base: string,
  committed: Committed[],
  folders: string[],
  cookies: Map<string, string>,
  problems: string[],
): Promise<{ tables: number; dropped: number; folders: number }> {
  let tables = 0
  let dropped = 0
  for (const c of committed) {
    const r = await post(base, 'sql:json', { sql: `select k, who from ${c.path} order by k` }, c.cookie())
    if (c.dropped) {
      dropped++
      if (r.status !== 404) problems.push(`dropped table ${c.path} still answers ${r.status}`)
    } else {
      tables++
      const want = JSON.stringify({ k: [c.k, c.k + 1], who: [c.owner, c.owner] })
      if (r.status !== 200 || JSON.stringify(r.body) !== want)
        problems.push(`committed table ${c.path} reads ${r.status} ${JSON.stringify(r.body).slice(0, 200)}, expected ${want}`)
    }
  }
  for (const f of folders) {
    const [uid, path] = f.split('|')
    const r = await post(base, 'dbm:json', { cmd: ['get_dir_info', { path }] }, cookies.get(uid) ?? '')
    if ((r.body as { rc?: number }).rc !== 0) problems.push(`folder ${path} made by ${uid} is missing: ${JSON.stringify(r.body).slice(0, 200)}`)
  }
  return { tables, dropped, folders: folders.length }
}

/**
 * --distinct: memory levels off, under the caches' bound. The run is cut in thirds; the last may
 * not grow past the middle one's peak by more than PLATEAU_SLACK_BYTES.
 */
function checkPlateau(samples: number[], baseline: number, problems: string[]): void {
  const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`
  if (samples.length < 6) return void problems.push(`too few memory samples (${samples.length}) to see a plateau: run longer`)
  const third = Math.floor(samples.length / 3)
  const middle = Math.max(...samples.slice(third, 2 * third))
  const last = Math.max(...samples.slice(2 * third))
  if (last > middle + PLATEAU_SLACK_BYTES) problems.push(`memory still climbing: peak ${mb(middle)} in the middle third of the run, ${mb(last)} in the last`)
  const peak = Math.max(...samples)
  if (peak > baseline + CACHE_BUDGET_BYTES)
    problems.push(`memory passed the caches' bound: peak ${mb(peak)}, warm-up level ${mb(baseline)} + budget ${mb(CACHE_BUDGET_BYTES)}`)
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-soak-'))
  let redis: RedisServer | null = null
  let service: Running | null = null
  const log = (s: string) => {
    if (!AS_JSON) process.stdout.write(`${s}\n`)
  }
  try {
    if (USE_REDIS) redis = await startRedisServer()
    service = await start({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: '2',
      DEMO_ROWS: String(ROWS),
      ADMIN_PASSWORD: PW,
      MAX_INSTANCES_PER_SESSION: '100000',
      QUERY_TIMEOUT_MS: '60000',
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...(DISTINCT ? { RESULT_MEMO_MB: String(DISTINCT_CACHE_MB), MEMORY_STORE_CACHE_MB: String(DISTINCT_CACHE_MB) } : {}),
    })
    const base = service.base
    const pid = service.child.pid!
    const admin = cookieOf((await post(base, '!login:json', new URLSearchParams({ uid: 'admin', pw: PW }))).body)
    const tally: Tally = { kinds: new Map(), statuses: new Map(), latencies: [], problems: [] }
    const committed: Committed[] = []
    const folders: string[] = []
    const clients: Client[] = []
    for (let i = 0; i < CLIENTS; i++) {
      const uid = `soak${i}`
      const r = await post(base, 'dbm:json', { cmd: ['add_user', { uid, password: USER_PW, first: 'Soak', last: uid, email: `${uid}@example.com` }] }, admin)
      if ((r.body as { rc?: number }).rc !== 0) throw new Error(`add_user ${uid}: ${JSON.stringify(r.body)}`)
      clients.push(new Client(uid, base, tally, committed, folders))
    }
    log(`soak: ${CLIENTS} clients, ${SECONDS} s, ${ROWS.toLocaleString('en-US')}-row demo table, ${redis ? 'Redis' : 'memory'} store, service pid ${pid}`)
    await Promise.all(clients.map((c) => c.warmUp()))
    // Then the mixed workload itself for a while: the result memo, the table cache and the
    // workers' heaps fill up to their working level in the first seconds (bounded caches, not
    // leaks), and the level to come back to is the one they reach, not an empty service's.
    const warmDeadline = Date.now() + WARM_UP_SECONDS * 1000
    await Promise.all(
      clients.map(async (c) => {
        while (Date.now() < warmDeadline) await c.randomStep()
      }),
    )
    // And the reading back the end of the run does (verify), once over what is there so far: the
    // level after the run is measured after that reading, so the baseline has had it too (its
    // distinct queries leave the compiled-query caches and the workers' heaps fuller than the
    // workload alone does, by tens of megabytes on a 2-worker service).
    await verify(base, committed, folders, new Map(clients.map((c) => [c.uid, c.cookie])), tally.problems)
    await new Promise((r) => setTimeout(r, 2000))
    const before = await processFacts(pid)
    log(`after warm-up: RSS ${(before.rss / 2 ** 20).toFixed(0)} MB, ${before.threads} threads, ${before.fds} fds (${await fdKinds(pid)})`)

    const started = performance.now()
    const deadline = Date.now() + SECONDS * 1000
    const warmRequests = tally.latencies.length
    tally.latencies.length = 0
    // RSS through the run, to see whether it levels off (a leak keeps climbing).
    const samples: number[] = []
    const sampler = setInterval(
      () =>
        void processFacts(pid).then(
          (f) => samples.push(f.rss),
          () => undefined,
        ),
      2000,
    )
    // The gateway thread's own JavaScript heap beside the process's RSS: what the gateway's caches
    // hold, against what the worker threads (and their WebAssembly memory) hold.
    const heapSamples: number[] = []
    const heapSampler = setInterval(
      () =>
        void gatewayHeapBytes(base).then(
          (b) => heapSamples.push(b),
          () => undefined,
        ),
      2000,
    )
    await Promise.all(
      clients.map(async (c) => {
        while (Date.now() < deadline) await c.randomStep()
      }),
    )
    clearInterval(sampler)
    clearInterval(heapSampler)
    if (DISTINCT) checkPlateau(samples, before.rss, tally.problems)
    const elapsed = (performance.now() - started) / 1000
    const served = tally.latencies.length
    const p50 = percentile(tally.latencies, 50)
    const p99 = percentile(tally.latencies, 99)

    const cookies = new Map(clients.map((c) => [c.uid, c.cookie]))
    const checked = await verify(base, committed, folders, cookies, tally.problems)
    agent.destroy()
    const after = await settledFacts(pid, before)

    const memoryLimit = before.rss + Math.max(MEMORY_SLACK_BYTES, before.rss * MEMORY_SLACK_RATIO)
    // With --distinct the bounded caches stay full of new entries by design: the plateau and its
    // bound are the check there (checkPlateau), not a return to the warm-up level.
    if (!DISTINCT && after.rss > memoryLimit)
      tally.problems.push(`memory did not come back: RSS ${(after.rss / 2 ** 20).toFixed(0)} MB after, ${(before.rss / 2 ** 20).toFixed(0)} MB after warm-up`)
    if (after.threads > before.threads) tally.problems.push(`threads leaked: ${before.threads} after warm-up, ${after.threads} at the end`)
    if (after.fds > before.fds + FD_SLACK)
      tally.problems.push(`file descriptors leaked: ${before.fds} after warm-up, ${after.fds} at the end (${await fdKinds(pid)})`)
    const fiveXX = [...tally.statuses].filter(([s]) => s === 0 || s >= 500).reduce((a, [, n]) => a + n, 0)

    const report = {
      seconds: Number(elapsed.toFixed(1)),
      clients: CLIENTS,
      store: redis ? 'redis' : 'memory',
      warmUpRequests: warmRequests,
      requests: served,
      perSecond: Number((served / elapsed).toFixed(1)),
      p50Ms: Number(p50.toFixed(1)),
      p99Ms: Number(p99.toFixed(1)),
      byKind: Object.fromEntries(tally.kinds),
      byStatus: Object.fromEntries(tally.statuses),
      errors5xx: fiveXX,
      committedTablesChecked: checked.tables,
      droppedTablesChecked: checked.dropped,
      foldersChecked: checked.folders,
      rssBeforeMb: Math.round(before.rss / 2 ** 20),
      rssAfterMb: Math.round(after.rss / 2 ** 20),
      distinct: DISTINCT,
      rssPeakMb: Math.round(Math.max(before.rss, ...samples) / 2 ** 20),
      rssBoundMb: Math.round((before.rss + CACHE_BUDGET_BYTES) / 2 ** 20),
      rssSamplesMb: samples.map((b) => Math.round(b / 2 ** 20)),
      gatewayHeapSamplesMb: heapSamples.map((b) => Math.round(b / 2 ** 20)),
      threadsBefore: before.threads,
      threadsAfter: after.threads,
      fdsBefore: before.fds,
      fdsAfter: after.fds,
      problems: tally.problems,
    }
    if (AS_JSON) process.stdout.write(`${JSON.stringify(report)}\n`)
    else {
      log(`served ${served} requests in ${elapsed.toFixed(1)} s (${report.perSecond}/s), p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`)
      log(`by kind: ${[...tally.kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`)
      log(`by status: ${[...tally.statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}`)
      log(
        `checked afterwards: ${checked.tables} committed tables read back exactly, ${checked.dropped} dropped tables gone, ${checked.folders} folders present`,
      )
      if (DISTINCT)
        log(`distinct texts: ${distinctSeq}; RSS every 2 s (MB): ${report.rssSamplesMb.join(' ')}; peak ${report.rssPeakMb} MB, bound ${report.rssBoundMb} MB`)
      if (DISTINCT) log(`gateway thread's heap used every 2 s (MB): ${report.gatewayHeapSamplesMb.join(' ')}`)
      log(`RSS ${report.rssBeforeMb} MB -> ${report.rssAfterMb} MB, threads ${before.threads} -> ${after.threads}, fds ${before.fds} -> ${after.fds}`)
      log(tally.problems.length === 0 ? 'soak: every check holds' : `soak: ${tally.problems.length} problem(s):\n  ${tally.problems.slice(0, 30).join('\n  ')}`)
    }
    process.exitCode = tally.problems.length === 0 ? 0 : 1
  } finally {
    agent.destroy()
    if (service) await stop(service)
    await redis?.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
