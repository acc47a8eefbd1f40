/**
 * Issue 36, part 2: no request holds the gateway's event loop. The gateway process measures its
 * own loop, and every scrape of /metrics reads and resets the maxima: event_loop_held_max_seconds
 * (a drift probe counting the thread's own CPU time between turns, observe/loop-held.ts) and, for
 * the record, nodejs_eventloop_lag_max_seconds (prom-client's monitorEventLoopDelay, wall time,
 * which also counts time other processes of this shared machine had the cores). Each scenario of
 * a hostile user's mix must keep the held maximum under HELD_BOUND_MS while another user's small
 * queries keep answering:
 * - the finding: four `:text` answers of 2,000 rows with one 1 MB cell at once (27 s of frozen
 *   gateway before: the text renderer padded every line to the widest cell and trimmed it again);
 * - long cells in every format: 1 MB cells of characters every format escapes or quotes;
 * - large macro queries (parsed and checked on the gateway's thread before);
 * - large reads: a stored table's 100,000 rows in three formats, and a saved table of long cells.
 * And reads take query slots: one session's reads of a table past MAX_QUERIES_PER_SESSION are 429.
 * Real gateway process, real HTTP on loopback.
 */
import { expect } from 'chai'
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login, post, sleep, startGateway, type Gateway } from './heavy-gateway.js'

/** The longest the gateway's thread may hold its event loop in any scenario (the aim is ~50 ms). */
const HELD_BOUND_MS = 100

/** The demo table's rows: large reads read all of them. */
const ROWS = 100_000

const LIGHT = { uid: 'light', pw: 'light-user-pass-1' }

/** The gateway's longest event-loop stretches since the last scrape, in ms (the scrape resets them). */
async function loopMaxima(gw: Gateway): Promise<{ held: number; lag: number }> {
  const text = await (await fetch(`${gw.origin}/metrics`)).text()
  const read = (name: string): number => {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)
    if (!m) throw new Error(`no ${name} in /metrics`)
    return Number(m[1]) * 1000
  }
  return { held: read('event_loop_held_max_seconds'), lag: read('nodejs_eventloop_lag_max_seconds') }
}

/** A request's status and the bytes of its body (read in full); a refusal's body says why. */
async function request(gw: Gateway, cookie: string, path: string, body?: unknown): Promise<{ status: number | string; bytes: number }> {
  const res = await fetch(`${gw.api}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const data = Buffer.from(await res.arrayBuffer())
  return { status: res.status < 400 ? res.status : `${res.status} ${data.toString('utf8', 0, 200)}`, bytes: data.length }
}

/** The light user's small query every 50 ms until stopped: how many answered, the slowest, and any failure. */
function lightQueries(gw: Gateway, cookie: string): { stop(): Promise<{ count: number; max: number; failed: string[] }> } {
  let running = true
  let count = 0
  let max = 0
  const failed: string[] = []
  const loop = (async () => {
    while (running) {
      const a = await post(gw, cookie, 'sql:json', { sql: 'select store, city from pub.demo.retail.stores where store <= 3' })
      if (a.status === 200) count++
      else failed.push(`${a.status} ${JSON.stringify(a.body).slice(0, 200)}`)
      max = Math.max(max, a.ms)
      await sleep(50)
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { count, max, failed }
    },
  }
}

/**
 * A 1 MB value of characters HTML escapes and JSON and CSV quote, in SQL (one on each of `rows`
 * rows). Few rows: a worker's answer reaches the gateway as a structured clone that Piscina
 * receives on the gateway's thread, every pending answer at once; text of a million characters
 * or more in a column crosses as shared memory decoded in slices instead (docs/operations.md).
 */
const hostileCells = (rows: number, first: boolean): string => {
  const long = `replace(hex(zeroblob(262144)), '00', '<"' || char(10) || '&')`
  return first
    ? `select ${long} as x, store, sku from pub.demo.retail.item where trans <= ${rows}`
    : `select store, sku, ${long} as x from pub.demo.retail.item where trans <= ${rows}`
}

const FINDING = `<base table="pub.demo.retail.item"/><sel value="i_()&lt;=2000"/><willbe name="x" value="if(i_()=1;padleft('a';1000000);'b')"/>`

/** A macro query of about 1 MB: a thousand computed columns and a long note. */
const largeXml = (k: number): string =>
  `<base table="pub.demo.retail.stores"/>${Array.from({ length: 1000 }, (_, i) => `<willbe name="w${i}" value="store+${i + k}*sqft"/>`).join('')}<note>${'n'.repeat(900_000)}</note><colord cols="store,w999"/>`

describe('event loop: no request holds the gateway, whatever it asks for', function () {
  this.timeout(180_000)
  let gw: Gateway
  let dataDir: string
  let hostile: string[]
  let light: string
  const maxima: Record<string, { held: number; lag: number }> = {}

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-lag-'))
    gw = await startGateway({ DATA_DIR: dataDir, WORKERS: '2', DEMO_ROWS: String(ROWS), MAX_QUERIES_PER_SESSION: '8', MAX_QUERIES_PER_USER: '16' })
    const admin = await login(gw)
    const added = await post(gw, admin, 'dbm:json', {
      cmd: ['add_user', { uid: LIGHT.uid, first: 'Li', last: 'Ght', email: 'light@example.com', password: LIGHT.pw }],
    })
    expect(added.body.rc, JSON.stringify(added.body)).to.equal(0)
    light = await login(gw, LIGHT.uid, LIGHT.pw)
    // The hostile user's sessions (one session may run MAX_QUERIES_PER_SESSION = 8 at once).
    hostile = [admin, await login(gw), await login(gw)]
    // Warm up both paths once, so that no scenario pays a first load of code or table.
    expect((await request(gw, light, 'sql:json', { sql: 'select count(*) n from pub.demo.retail.stores' })).status).to.equal(200)
    expect((await request(gw, admin, 'run:json', { xml: '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/>' })).status).to.equal(200)
  })

  after(async () => {
    console.log(`      event-loop maxima (ms): ${JSON.stringify(maxima)}`)
    await gw?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  /** Runs a scenario while the light user queries; checks the loop's longest stretch and the light user's answers. */
  async function scenario(name: string, run: () => Promise<{ status: number | string; bytes: number }[]>): Promise<void> {
    await loopMaxima(gw)
    const probe = lightQueries(gw, light)
    const t0 = performance.now()
    const answers = await run()
    const ms = performance.now() - t0
    const { held, lag } = await loopMaxima(gw)
    const small = await probe.stop()
    maxima[name] = { held: Math.round(held), lag: Math.round(lag) }
    console.log(
      `      ${name}: ${answers.length} answers, ${(answers.reduce((n, a) => n + a.bytes, 0) / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s; ` +
        `loop held at most ${held.toFixed(0)} ms (wall-clock lag ${lag.toFixed(0)} ms); light user: ${small.count} answers, slowest ${small.max.toFixed(0)} ms`,
    )
    expect(
      answers.map((a) => a.status),
      name,
    ).to.deep.equal(answers.map(() => 200))
    expect(small.failed, 'the light user’s failed queries').to.deep.equal([])
    expect(small.count, 'the light user’s answered queries').to.be.at.least(1)
    expect(held, `${name}: longest stretch the gateway held its event loop (ms)`).to.be.below(HELD_BOUND_MS)
  }

  it('four :text answers of 2,000 rows with one 1 MB cell (the finding)', async () => {
    await scenario('finding', () => Promise.all([0, 1, 2, 3].map((i) => request(gw, hostile[i % 3], 'run:text', { xml: `${FINDING}<note>${i}</note>` }))))
  })

  it('1 MB cells of <, ", & and newlines, in the first or the last column, in every format at once', async () => {
    const formats = ['text', 'html', 'csv', 'json', 'json.rows', 'json.keyed', 'arrow', 'parquet']
    await scenario('long cells', () =>
      // One 1 MB row an answer: what else each answer costs the gateway's thread (rendering,
      // compressing) eight times at once put a landing CI run at the bound with two rows each.
      Promise.all(formats.map((f, i) => request(gw, hostile[i % 3], `sql:${f}`, { sql: hostileCells(1, i % 2 === 0) + ` and ${i} = ${i}` }))),
    )
  })

  it('four macro queries of about 1 MB at once', async () => {
    expect(largeXml(0).length).to.be.above(900_000)
    await scenario('large xml', () => Promise.all([0, 1, 2, 3].map((k) => request(gw, hostile[k % 3], 'run:json', { xml: largeXml(k) }))))
  })

  it(`reads of a stored table's ${ROWS} rows in three formats, and of a saved table of long cells`, async () => {
    const saved = await request(gw, hostile[0], 'run:json', {
      xml: `<base table="pub.demo.retail.item"/><sel value="i_()&lt;=40"/><willbe name="x" value="padleft(splice(i_();'');1000000)"/>`,
      savetable: 'uploads.admin.longcells',
    })
    expect(saved.status, JSON.stringify(saved)).to.equal(200)
    await scenario('large reads', () =>
      Promise.all([
        request(gw, hostile[0], `pub.demo.retail.item:json?to_=${ROWS}`),
        request(gw, hostile[1], `pub.demo.retail.item:text?to_=${ROWS}`),
        request(gw, hostile[2], `pub.demo.retail.item:csv?to_=${ROWS}`),
        request(gw, hostile[0], 'uploads.admin.longcells:text'),
        request(gw, hostile[1], 'uploads.admin.longcells:json'),
      ]),
    )
  })

  it('reads take query slots: past MAX_QUERIES_PER_SESSION (8) one session’s reads are refused, and answered once one ends', async () => {
    const cookie = await login(gw)
    // Responses not read (paused, uncompressed): each read holds its slot while its body waits.
    const held: http.IncomingMessage[] = []
    const get = (): Promise<http.IncomingMessage> =>
      new Promise((resolve, reject) => {
        const req = http.get(`${gw.api}/pub.demo.retail.item:text?to_=${ROWS}`, { headers: { cookie } }, (res) => {
          res.pause()
          resolve(res)
        })
        req.on('error', reject)
      })
    try {
      for (let i = 0; i < 8; i++) {
        const res = await get()
        held.push(res)
        expect(res.statusCode, `read ${i + 1}`).to.equal(200)
      }
      const refused = await request(gw, cookie, `pub.demo.retail.item:json?to_=10`)
      expect(refused.status, 'a ninth read of the session').to.match(/^429 .*MAX_QUERIES_PER_SESSION/)
      const data = await request(gw, cookie, `pub.demo.retail.item/!data:json?range_=0&to_=10`)
      expect(data.status, '!data of a table, also a read').to.match(/^429 /)
      // !rows reads no rows: it takes no slot.
      expect((await request(gw, cookie, 'pub.demo.retail.item/!rows:json')).status).to.equal(200)
      held.shift()!.destroy()
      let status: number | string = 0
      for (let tries = 0; tries < 50 && status !== 200; tries++) {
        await sleep(100)
        status = (await request(gw, cookie, `pub.demo.retail.item:json?to_=10`)).status
      }
      expect(status, 'a read once one ended').to.equal(200)
    } finally {
      for (const res of held) res.destroy()
    }
  })
})
