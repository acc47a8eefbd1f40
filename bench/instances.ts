/**
 * `npm run bench:instances`: the two instance figures of issue 4, measured through HTTP against
 * a real service on loopback (memory store, 2 workers, the demo data at --rows, default 10M):
 *  - stop latency: a query that runs for tens of seconds is stopped with !stop; time from the
 *    !stop request to the stopped (409) answer, and until the pool answers a new query again,
 *    while another query is in flight (it must not fail);
 *  - !data on a 1M-row instance result: 200 random 100-row ranges, median and p99, read on the
 *    gateway that ran it and on a second gateway (fresh memory, same Store), with the number of
 *    query runs the reads caused (must be 0).
 */
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../shared/config.js'
import { createMemoryStore } from '../shared/store/index.js'
import { createApp } from '../gateway/app.js'
import { buildDeps, closeDeps } from '../gateway/compose.js'
import type { Deps } from '../gateway/deps.js'
import { ensureAdmin, seedDemoData } from '../gateway/seed.js'
import { reportSummary, type SummaryRow } from './summary.js'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const ROWS = Number(arg('rows', '10000000'))
const PW = 'bench-pw-1'
const LONG = `<base table="pub.demo.retail.item"/><sort cols="customer,sales"/><willbe name="r" value="g_rank(customer;;;sales)"/><sort cols="sku,r"/><willbe name="c" value="g_cumsum(sku;;;qty)"/><sort cols="store,c"/><willbe name="p" value="g_rshift(store;;;sales;1)"/><sort cols="date,p"/>`
const MILLION = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=1000000"/>'

/** The headline rows, reported at the end for `npm run bench`. */
const summary: SummaryRow[] = []
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
const ms = (x: number) => x.toFixed(1)

async function serve(deps: Deps): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer(createApp(deps).callback())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return { base: `http://127.0.0.1:${port}/v1/api`, close: () => new Promise((r) => server.close(() => r())) }
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
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_ROWS: String(ROWS),
    WORKERS: '2',
    ADMIN_PASSWORD: PW,
    QUERY_TIMEOUT_MS: '600000',
    RESULT_STORE_MB: '1024',
  })
  const store = createMemoryStore({ dataDir })
  await store.connect()
  const t0 = Date.now()
  const a = await buildDeps(config, () => undefined, store)
  await ensureAdmin(store, config)
  await seedDemoData(store, config)
  console.log(
    `# instances benchmark — ${new Date().toISOString()}, demo item rows ${ROWS.toLocaleString()}, seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  )
  const sa = await serve(a)
  let runs = 0
  const inner = await buildDeps(config, () => undefined, store)
  const b: Deps = {
    ...inner,
    runner: {
      get pending() {
        return inner.runner.pending
      },
      close: () => inner.runner.close(),
      run: (t, o) => (runs++, inner.runner.run(t, o)),
    },
  }
  const sb = await serve(b)
  const login = await fetch(`${sa.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: PW }) })
  const creds = (await login.json()) as { uid: string; sid: string; epw: string }
  const cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  const A = client(sa.base, cookie)
  const B = client(sb.base, cookie)

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
    figure: '!stop of a 10M-row query → stopped answer, median',
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
  for (const [name, call] of [
    ['same gateway', A],
    ['second gateway', B],
  ] as const) {
    const before = runs
    const times: number[] = []
    for (let i = 0; i < 200; i++) {
      const from = Math.floor(Math.random() * (total - 100))
      const s = performance.now()
      const r = await call(`${tag}/!data:json?range_=${from}&to_=${from + 100}`)
      times.push(performance.now() - s)
      if (r.status !== 200 || r.body.trans.length !== 100) throw new Error(`bad page: ${r.status}`)
    }
    const dataMedian = median(times)
    summary.push({
      group: 'instances',
      figure: `!data 100 rows of 1M, ${name}, median`,
      unit: 'ms',
      ours: dataMedian,
      reference: 20,
      referenceLabel: 'target',
      ratio: dataMedian / 20,
      target: '< 20 ms',
      ok: dataMedian < 20,
    })
    console.log(
      `!data 100 rows of ${total.toLocaleString()} (${name}): median ${ms(median(times))} ms, p99 ${ms(pct(times, 0.99))} ms, query runs caused: ${name === 'second gateway' ? runs - before : 'n/a (memo)'} (target: median < 20 ms, no re-run)`,
    )
  }
  void full
  reportSummary(summary)
  await sa.close()
  await sb.close()
  await inner.stops.close()
  await inner.runner.close()
  await closeDeps(a)
  await rm(dataDir, { recursive: true, force: true })
}

await main()
