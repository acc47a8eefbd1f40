/**
 * Chunks of one upload sent to different gateways: two gateway processes on one Redis and one
 * DATA_DIR, the chunks alternating between them, the commit on one and the table read on the
 * other. Each gateway must pick up the other's column files and text dictionary where the Store
 * says they end, so the values come back exactly as sent.
 */
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '../../client/index.js'
import { CLUSTER_ADMIN_PASSWORD, startCluster, type Cluster } from '../helpers/cluster.js'
import { redisAvailable } from '../helpers/service.js'

describe('client: chunked upload across gateways', function () {
  this.timeout(90_000)
  let cluster: Cluster | undefined
  before(async function () {
    if (!redisAvailable()) this.skip()
    cluster = await startCluster({ gateways: 2, demoRows: 1000 })
  })
  after(async () => {
    await cluster?.close()
  })

  it('takes chunks on either gateway and commits the rows in order', async () => {
    const [a, b] = cluster!.gateways.map((g) => new Client({ baseUrl: g.base }))
    await a.login('admin', CLUSTER_ADMIN_PASSWORD)
    b.session = a.session
    const begun = await a.dbm('upload_begin', { path: 'uploads.admin.spread' })
    const expected: [number, string][] = []
    for (let k = 0; k < 6; k++) {
      // Each chunk brings new text values and repeats earlier ones, so both gateways' dictionaries
      // must agree on the codes given so far.
      const rows = Array.from({ length: 50 }, (_, j) => {
        const id = k * 50 + j
        return [id, `v${id % (20 + k * 10)}`] as [number, string]
      })
      expected.push(...rows)
      const via = k % 2 === 0 ? a : b
      const r = await via.dbm('upload_chunk', { upload: begun.upload, seq: k + 1, csv: `id,word\n${rows.map((r) => r.join(',')).join('\n')}\n` })
      expect(r.rows).to.equal(expected.length)
    }
    const table = await b.dbm('upload_commit', { upload: begun.upload })
    expect(table.rows).to.equal(expected.length)
    const back = await a.sql('select id, word from uploads.admin.spread order by id', { format: 'json.rows' })
    expect(back.rows).to.deep.equal(expected)
    // The macro engine reads the column files (not the SQLite image): the same values.
    const viaRun = await b.run('<base table="uploads.admin.spread"/>', { format: 'json.rows' })
    expect(viaRun.rows).to.deep.equal(expected)
    // Nothing of the upload is left on the shared disk.
    expect(await readdir(join(cluster!.dataDir, 'chunked-uploads'))).to.deep.equal([])
  })

  it('recognises a chunk sent again to the other gateway and does not apply it twice', async () => {
    const [a, b] = cluster!.gateways.map((g) => new Client({ baseUrl: g.base }))
    await a.login('admin', CLUSTER_ADMIN_PASSWORD)
    b.session = a.session
    const { upload } = await a.dbm('upload_begin', { path: 'uploads.admin.twice' })
    await a.dbm('upload_chunk', { upload, seq: 1, csv: 'x\n1\n2\n' })
    const again = await b.dbm('upload_chunk', { upload, seq: 1, csv: 'x\n1\n2\n' })
    expect(again).to.include({ rows: 2, chunks: 1, duplicate: true })
    const gap = await b.dbm('upload_chunk', { upload, seq: 3, csv: 'x\n5\n' }).then(
      () => null,
      (e: { code: string }) => e,
    )
    expect(gap?.code).to.equal('invalid_parameter')
    await b.dbm('upload_chunk', { upload, seq: 2, csv: 'x\n3\n' })
    expect((await a.dbm('upload_commit', { upload })).rows).to.equal(3)
  })
})
