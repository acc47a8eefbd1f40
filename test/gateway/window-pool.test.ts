import { expect } from 'chai'
import { WindowPool } from '../../gateway/tables/window-pool.js'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'

describe('WindowPool (windows of tables larger than TABLE_CACHE_MB)', () => {
  it('hands out at most its sets of buffers; the next waits for one to come back, and reuses its buffers', async () => {
    const pool = new WindowPool(2)
    const a = await pool.acquire()
    const b = await pool.acquire()
    let third: unknown = null
    const waiting = pool.acquire().then((s) => (third = s))
    await new Promise((r) => setTimeout(r, 20))
    expect(third, 'no third set while two are out').to.equal(null)
    const buffer = a.buffer(0, 1000)
    pool.release(a)
    expect(await waiting).to.equal(a)
    expect(a.buffer(0, 800), 'a smaller window reuses the buffer').to.equal(buffer)
    expect(a.buffer(0, 2000).byteLength).to.equal(2000)
    pool.release(a)
    pool.release(b)
    expect(pool.bytes).to.equal(2000)
  })

  it('gives up waiting when the query stops', async () => {
    const pool = new WindowPool(1)
    const only = await pool.acquire()
    const stop = new AbortController()
    const waiting = pool.acquire(stop.signal).then(
      () => 'got one',
      (e: unknown) => String(e),
    )
    stop.abort(new Error('stopped'))
    expect(await waiting).to.contain('stopped')
    pool.release(only)
    // The stopped waiter took nothing: the set is free for the next query.
    expect(await pool.acquire()).to.equal(only)
  })

  it('copies out of the buffers the answer columns that still view its memory, and leaves the others', async () => {
    const buffers = await new WindowPool(1).acquire()
    const shared = new Int32Array(buffers.buffer(0, 40), 0, 10).fill(7)
    const own = Float64Array.of(1, 2)
    const answer: ResultSet = {
      cols: [columnMeta({ name: 'a', type: 'int' }), columnMeta({ name: 'b', type: 'float' })],
      columns: [
        { kind: 'int', data: shared },
        { kind: 'float', data: own },
      ],
      rowCount: 10,
    }
    const kept = buffers.detach(answer)
    const [a, b] = kept.columns as unknown as [{ data: Int32Array }, { data: Float64Array }]
    expect(a.data.buffer).not.to.equal(shared.buffer)
    expect(Array.from(a.data)).to.deep.equal(Array.from(shared))
    expect(b.data).to.equal(own)
  })
})
