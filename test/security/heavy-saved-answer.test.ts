/**
 * Issue 16: "a savetable answered 500 although the table was saved". The save is committed before
 * the answer is rendered; when the result then cannot be sent back (here as aligned text: one cell
 * of 1,100,000 characters pads each of 1,000 lines past the 1 Gi characters a text answer may
 * take, a 413 of the renderer), the answer is 200 and says where the rows were saved, never a
 * failure. Whether the renderer fails at once or while streaming depends on the machine: an
 * answer of up to 2,000 rows is joined into one string if that takes under 10 ms and streams
 * otherwise, and a streamed one finds the width while measuring, before its first chunk (a landing
 * run on a loaded machine met that as a 413). Over 2,000 rows always streams. Real gateway
 * process, real HTTP on loopback.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login, post, startGateway, type Gateway } from './heavy-gateway.js'

/** Rows of the ids table; the first query saves the first SMALL of them, the second all. */
const ROWS = 2500
const SMALL = 1000
/** One long cell: every line of the text answer is padded to its width. */
const CELL = 'x'.repeat(1_100_000)

describe('heavy: a committed savetable is never answered as a failure', function () {
  this.timeout(240_000)
  let gw: Gateway
  let dataDir: string
  let cookie: string

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-heavy-saved-'))
    gw = await startGateway({ DATA_DIR: dataDir, WORKERS: '1', DEMO_DATA: '0', MAX_CELL_BYTES: '2000000' })
    cookie = await login(gw)
    const ids = await post(gw, cookie, 'dbm:json', {
      cmd: [
        'upload_table',
        {
          path: 'uploads.admin.ids',
          cols: [
            { name: 'j', type: 'int' },
            { name: 'k', type: 'int' },
          ],
          data: { j: Array.from({ length: ROWS }, (_, i) => (i === 0 ? 1 : 0)), k: Array.from({ length: ROWS }, (_, i) => i) },
        },
      ],
    })
    expect(ids.body.rc, JSON.stringify(ids.body)).to.equal(0)
    const ctl = await post(gw, cookie, 'dbm:json', {
      cmd: [
        'upload_table',
        {
          path: 'uploads.admin.ctl',
          cols: [
            { name: 'j', type: 'int' },
            { name: 'v', type: 'text' },
          ],
          data: { j: [1], v: [CELL] },
        },
      ],
    })
    expect(ctl.body.rc, JSON.stringify(ctl.body)).to.equal(0)
  })
  after(async () => {
    await gw?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  /** Saves `rows` rows, each linked to the one long cell, and checks the answer and the saved table. */
  async function saveWide(rows: number, table: string): Promise<void> {
    // z after v: the last column's own width is not padded, the others' are.
    const xml = `<base table="uploads.admin.ids"/><sel value="k<${rows}"/><link table2="uploads.admin.ctl" col="j" col2="j"/><willbe name="z" value="1"/>`
    const res = await post(gw, cookie, 'run:text', { xml, savetable: table })
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200)
    expect(res.body.saved).to.deep.equal({ path: table, rows })
    expect(res.body.message).to.contain(table).and.contain('too large to send back')
    const info = await post(gw, cookie, 'dbm:json', { cmd: ['get_table_info', { path: table }] })
    expect(info.body.rc).to.equal(0)
    const back = await post(gw, cookie, 'sql:json', { sql: `select count(*) as n, sum(length(v)) as chars from ${table}` })
    expect(back.body.n).to.deep.equal([rows])
    expect(back.body.chars).to.deep.equal([CELL.length])
  }

  it(`answers 200 naming the saved table when the saved result is too large to send back (${SMALL} rows)`, async () => {
    await saveWide(SMALL, 'uploads.admin.wide')
  })

  it(`answers the same when the answer streams and fails before its first chunk (${ROWS} rows)`, async () => {
    await saveWide(ROWS, 'uploads.admin.wider')
  })
})
