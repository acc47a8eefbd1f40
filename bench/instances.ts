/**
 * `npm run bench:instances`: the two instance figures of issue 4, measured through HTTP against
 * two real gateway processes (`dist/gateway/server.js`, default settings but for the data folder,
 * the Redis, 2 workers and the demo data at --rows, default 10M) sharing one private
 * redis-server, as two replicas of a deployment do:
 *  - stop latency: a query that runs for tens of seconds on gateway A is stopped with !stop sent
 *    to gateway B; time from the !stop request to the stopped (409) answer, and until A's pool
 *    answers a new query again, while another query is in flight (it must not fail);
 *  - !data on a 1M-row instance result run on A: 200 random 100-row ranges, median and p99, read
 *    on A (its memo) and on B (which never ran it: the Store copy, or a re-run when the result is
 *    larger than RESULT_STORE_MB, default 64). Whether B re-ran it is read from B's /metrics: a
 *    run reads the item table through B's table cache (hits + misses of table files), which
 *    reading the Store copy never does; a query on B at the end checks that the figure moves.
 *
 *   node dist/bench/instances.js [--rows 10000000]
 *
 * Until 2026-11-28 the "second gateway" was a second set of gateway objects in this process,
 * on an in-process memory store, with RESULT_STORE_MB=1024 (16x the default).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { start, stop, type Running } from '../test/helpers/processes.js'
import { startRedisServer } from '../test/helpers/redis-server.js'
import { reportSummary, type SummaryRow } from './summary.js'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const ROWS = Number(arg('rows', '10000000'))
const PW = 'bench-pw-1'
const LONG = `<base table="pub.demo.retail.item"/><sort cols="customer,sales"/><willbe name="r" value="g_rank(customer;;;sales)"/><sort cols="sku,r"/><willbe name="c" value="g_cumsum(sku;;;qty)"/><sort cols="store,c"/><willbe name="p" value="g_rshift(store;;;sales;1)"/><sort cols="date,p"/>`
const MILLION = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=1000000"/>'
/** Seeding 10M demo rows on a busy 2-core machine takes minutes. */
const READY_MS = 15 * 60_000

/** The headline rows, reported at the end for `npm run bench`. */
const summary: SummaryRow[] = []
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
const ms = (x: number) => x.toFixed(1)

/** Table files the gateway looked up in its table cache so far (hits + misses): a query run reads some, a Store read none. */
async function tableFileReads(g: Running): Promise<number> {
  const text = await (await fetch(new URL('/metrics', g.base))).text()
  let n = 0
  for (const m of text.matchAll(/^table_cache_(?:hits|misses)_total (\S+)$/gm)) n += Number(m[1])
  return n
}

/** The parts of the JSON answers this benchmark reads: a new run's tag, a stop's flag, a page's rows. */
interface Answer {
  tag: string
  stopped: boolean
  trans: unknown[]
}

function client(base: string, cookie: string) {
  return async (path: string, body?: object): Promise<{ status: number; body: Answer }> => {
    const res = await fetch(`${base}/${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: res.status, body: (await res.json()) as Answer }
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-bench-inst-'))
  const redis = await startRedisServer()
  const gateways: Running[] = []
  try {
    // Only what a deployment must set: where data and Redis are, the admin's password, the demo size, 2 workers.
    const env = {
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `bench:instances:${randomBytes(4).toString('hex')}:`,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: '2',
      DEMO_ROWS: String(ROWS),
      ADMIN_PASSWORD: PW,
    }
    const t0 = Date.now()
    // A first, so that it alone seeds the demo data; B then starts on the seeded folder.
    gateways.push(await start(env, [], READY_MS))
    const seeded = Date.now() - t0
    gateways.push(await start(env, [], READY_MS))
    await measure(gateways[0], gateways[1], seeded)
  } finally {
    await Promise.all(gateways.map((g) => stop(g)))
    await redis.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

async function measure(ga: Running, gb: Running, seededMs: number): Promise<void> {
  console.log(
    `# instances benchmark — ${new Date().toISOString()}, demo item rows ${ROWS.toLocaleString()}, gateway A ready (seeded) in ${(seededMs / 1000).toFixed(1)} s; two gateway processes, default settings, one redis-server`,
  )
  const login = await fetch(`${ga.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: PW }) })
  const creds = (await login.json()) as { uid: string; sid: string; epw: string }
  const cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  const A = client(ga.base, cookie)
  const B = client(gb.base, cookie)

  // Stop latency.
  const toStopped: number[] = []
  const toReady: number[] = []
  let otherFailures = 0
  for (let round = 0; round < 5; round++) {
    const tag = (await A('new/run:json', {})).body.tag
    const long = A(`${tag}:json`, { xml: LONG })
    await new Promise((r) => setTimeout(r, 1500))
    const other = A('sql:json', { sql: 'select count(*) n from pub.demo.retail.stores' })
    const start = performance.now()
    const stop = B(`${tag}/!stop:json`)
    const res = await long
    toStopped.push(performance.now() - start)
    if (res.status !== 409 || !(await stop).body.stopped) throw new Error(`round ${round}: not stopped: ${res.status} ${JSON.stringify(res.body)}`)
    for (;;) {
      const q = await A('run:json', { xml: '<table cols="x">1</table>' })
      if (q.status === 200) break
    }
    toReady.push(performance.now() - start)
    if ((await other).status !== 200) otherFailures++
  }
  const stopMedian = median(toStopped)
  summary.push({
    group: 'instances',
    figure: `!stop of a ${ROWS / 1e6}M-row query → stopped answer (!stop sent to the other gateway process), median`,
    unit: 'ms',
    ours: stopMedian,
    reference: 100,
    referenceLabel: 'target',
    ratio: stopMedian / 100,
    target: '< 100 ms',
    ok: stopMedian < 100 && otherFailures === 0,
  })
  console.log(
    `stop: !stop → stopped answer median ${ms(median(toStopped))} ms, max ${ms(Math.max(...toStopped))} ms; → a new query answered median ${ms(median(toReady))} ms, max ${ms(Math.max(...toReady))} ms; other queries failed: ${otherFailures} (target: < 100 ms, none)`,
  )

  // !data ranges on a 1M-row instance result.
  const tag = (await A('new/run:json', {})).body.tag
  const full = await A(`${tag}:json.rows?range_=0&to_=1`, { xml: MILLION })
  const total = Number((await A(`${tag}/!rows:json`)).body) // `!rows` answers a bare number
  await new Promise((r) => setTimeout(r, 3000)) // the Store copy is written after the answer
  for (const [name, call, g] of [
    ['same gateway', A, ga],
    ['second gateway', B, gb],
  ] as const) {
    const before = await tableFileReads(g)
    const times: number[] = []
    for (let i = 0; i < 200; i++) {
      const from = Math.floor(Math.random() * (total - 100))
      const s = performance.now()
      const r = await call(`${tag}/!data:json?range_=${from}&to_=${from + 100}`)
      times.push(performance.now() - s)
      if (r.status !== 200 || r.body.trans.length !== 100) throw new Error(`bad page: ${r.status}`)
    }
    const dataMedian = median(times)
    const reads = (await tableFileReads(g)) - before
    summary.push({
      group: 'instances',
      figure: `!data 100 rows of 1M, ${name}${name === 'second gateway' ? ` (another process; ${reads === 0 ? 'no re-run' : 're-ran the query'})` : ''}, median`,
      unit: 'ms',
      ours: dataMedian,
      reference: 20,
      referenceLabel: 'target',
      ratio: dataMedian / 20,
      target: '< 20 ms',
      ok: dataMedian < 20 && reads === 0,
    })
    console.log(
      `!data 100 rows of ${total.toLocaleString()} (${name}): median ${ms(median(times))} ms, p99 ${ms(pct(times, 0.99))} ms, max ${ms(Math.max(...times))} ms; table files read by this gateway meanwhile: ${reads} (0: no re-run) (target: median < 20 ms, no re-run)`,
    )
  }
  void full
  // The control: a query run on B must move the figure the re-run check reads.
  const beforeControl = await tableFileReads(gb)
  const control = await B('run:json', { xml: '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/><willbe name="control" value="1"/>' })
  const moved = (await tableFileReads(gb)) - beforeControl
  console.log(
    `control: a query run on the second gateway (status ${control.status}) read ${moved} table files${moved > 0 ? '' : ' — the re-run check above cannot see runs'}`,
  )
  if (control.status !== 200 || moved === 0) throw new Error('the re-run check does not work: a query on gateway B read no table files')
  reportSummary(summary)
}

await main()
