import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTableVersion, columnView } from '../../engine/storage/index.js'
import { TableCache } from '../../gateway/tables/table-cache.js'

describe('TableCache', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tabula-cache-'))
  })
  after(() => rm(dir, { recursive: true, force: true }))

  const write = (n: number) =>
    writeTableVersion(dir, {
      columns: [
        { name: 'x', type: 'int' },
        { name: 's', type: 'text' },
      ],
      data: [Int32Array.from({ length: n }, (_, i) => i), Array.from({ length: n }, (_, i) => `v${i % 7}`)],
    })

  it('loads columns into SharedArrayBuffers and serves the same buffer on every hit', async () => {
    const meta = await write(1000)
    const cache = new TableCache(dir, 64 * 1024 * 1024)
    const a = await cache.column(meta.version, 0)
    const b = await cache.column(meta.version, 0)
    expect(a.buffer).to.be.instanceOf(SharedArrayBuffer)
    expect(b.buffer).to.equal(a.buffer)
    expect(Array.from((columnView(a) as Int32Array).slice(0, 3))).to.deep.equal([0, 1, 2])
    const s = await cache.column(meta.version, 1)
    expect(s.dict).to.include('v3')
    expect(cache.stats.hits).to.be.at.least(1)
  })

  it('shares one load between concurrent requests for the same SQLite image', async () => {
    const meta = await write(10)
    const cache = new TableCache(dir, 64 * 1024 * 1024)
    const [x, y] = await Promise.all([cache.sqliteImage(meta.version), cache.sqliteImage(meta.version)])
    expect(x).to.be.instanceOf(SharedArrayBuffer)
    expect(y).to.equal(x)
  })

  it('evicts the least recently used files beyond its byte budget', async () => {
    // Two tables of 800 kB, each within the budget, both not.
    const [one, two] = [await write(100_000), await write(100_000)]
    const cache = new TableCache(dir, 1_000_000)
    const first = await cache.column(one.version, 0)
    await cache.column(one.version, 1)
    await cache.column(two.version, 0)
    expect(cache.stats.bytes).to.be.at.most(1_000_000)
    const again = await cache.column(one.version, 0)
    expect(again.buffer).not.to.equal(first.buffer)
  })

  it('never loads a table larger than its budget whole: 413 naming TABLE_CACHE_MB; windows of rows instead, in reused buffers', async () => {
    const big = await write(100_000)
    const cache = new TableCache(dir, 600_000)
    expect(await cache.fits(big.version)).to.equal(false)
    const refused = await cache.column(big.version, 0, 'team.big').then(
      () => null,
      (e: unknown) => e as Error & { code: string },
    )
    expect(refused?.code).to.equal('TABLE_TOO_LARGE')
    expect(refused?.message).to.contain('team.big').and.contain('TABLE_CACHE_MB')
    const slot = await cache.windows.acquire()
    const w = await cache.window(big.version, 'team.big', 'Big', 5000, 6000, slot)
    expect(w.firstRow).to.equal(5000)
    expect(new Int32Array(w.columns[0].buffer)[0]).to.equal(5000)
    const next = await cache.window(big.version, 'team.big', 'Big', 7000, 7500, slot)
    // The same memory, read over.
    expect(next.columns[0].buffer).to.equal(w.columns[0].buffer)
    expect(new Int32Array(next.columns[0].buffer)[0]).to.equal(7000)
    cache.windows.release(slot)
    expect(cache.stats.windowBytes).to.equal(1000 * 4 * 2)
    expect(cache.stats.bytes, 'nothing of the table in the cache but its meta.json and dictionary').to.be.below(2000)
  })
})
