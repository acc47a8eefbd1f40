/**
 * Issue 16, resource denial by one request (memory): SQL queries that run SQLite out of memory
 * used to grow the workers' WASM heaps to gigabytes, held for good. With SQL_MEMORY_MB the query
 * stops early with 413 `sql_out_of_memory` (and a request id), the worker is replaced, the
 * gateway's resident memory comes back near its baseline, and the next queries work.
 * Real gateway process, real HTTP on loopback, RSS read from /proc.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login, post, rssMb, sleep, startGateway, type Gateway } from './heavy-gateway.js'

const SQL_MEMORY_MB = 128
/** Concatenates 2.5 million 100-character strings: 250 MB of text, twice the cap. */
const BLOW_UP = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 2500000) SELECT length(group_concat(printf('%0100d', x))) AS n FROM c"
/** Distinct 200-character keys, kept in a temporary b-tree: the other classic, 400 MB at 2 million. */
const DISTINCT = (rows: number): string =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${rows}) SELECT count(DISTINCT printf('%0200d', x)) AS v FROM c`
/** Memory the gateway may keep above its baseline once the workers were replaced (a fresh worker, allocator slack). */
const SLACK_MB = 120

describe('heavy: SQL memory cap (SQL_MEMORY_MB) on a real gateway', function () {
  this.timeout(180_000)
  let gw: Gateway
  let dataDir: string
  let cookie: string

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-heavy-sql-'))
    gw = await startGateway({ DATA_DIR: dataDir, WORKERS: '2', DEMO_DATA: '1', DEMO_ROWS: '1000', SQL_MEMORY_MB: String(SQL_MEMORY_MB) })
    cookie = await login(gw)
  })
  after(async () => {
    await gw?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('answers 413 with a request id, replaces the workers, and memory returns to its baseline', async () => {
    // Warm both workers (sql.js loaded, a table opened) before the baseline.
    const warm = await Promise.all([1, 2].map(() => post(gw, cookie, 'sql:json', { sql: 'select count(*) as n from pub.demo.retail.item' })))
    for (const w of warm) expect(w.status, JSON.stringify(w.body)).to.equal(200)
    await sleep(1000)
    const baseline = rssMb(gw.pid)

    let peak = baseline
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssMb(gw.pid))
        await sleep(50)
      }
    })()
    const answers = await Promise.all([post(gw, cookie, 'sql:json', { sql: BLOW_UP }), post(gw, cookie, 'sql:json', { sql: DISTINCT(2_000_000) })])
    sampling = false
    await sampler
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).to.equal(413)
      expect(a.body.code).to.equal('sql_out_of_memory')
      expect(a.body.error).to.contain(`${SQL_MEMORY_MB} MB`).and.contain('SQL_MEMORY_MB')
      expect(a.body.requestId).to.be.a('string').and.not.equal('')
    }

    // The swollen workers leave and fresh ones start: memory comes back within a few seconds.
    let after = rssMb(gw.pid)
    for (let i = 0; i < 100 && after > baseline + SLACK_MB; i++) {
      await sleep(100)
      after = rssMb(gw.pid)
    }
    console.log(
      `      RSS: baseline ${baseline.toFixed(0)} MB, peak ${peak.toFixed(0)} MB during two runaway queries, ${after.toFixed(0)} MB after (cap ${SQL_MEMORY_MB} MB per worker)`,
    )
    expect(peak, 'the cap stops each query near SQL_MEMORY_MB, not at gigabytes').to.be.below(baseline + 2 * SQL_MEMORY_MB * 2 + 200)
    expect(after, 'resident memory back near the baseline').to.be.at.most(baseline + SLACK_MB)

    // The next queries work, on both (fresh) workers at once.
    const next = await Promise.all([1, 2].map((k) => post(gw, cookie, 'sql:json', { sql: `select ${k} + 1 as n, count(*) as c from pub.demo.retail.item` })))
    expect(next.map((a) => a.status)).to.deep.equal([200, 200])
    expect(next.map((a) => (a.body.n as number[])[0])).to.deep.equal([2, 3])
  })

  it('runs a query that fits under the cap normally', async () => {
    const a = await post(gw, cookie, 'sql:json', { sql: DISTINCT(100_000) })
    expect(a.status, JSON.stringify(a.body)).to.equal(200)
    expect(a.body.v).to.deep.equal([100_000])
  })
})
