/**
 * The CLI's Arrow upload cuts a stream into chunks of whole record batches, each chunk a stream
 * of its own with the schema, so the service reads every chunk alone; no row is lost or repeated.
 */
import { expect } from 'chai'
import { RecordBatchStreamWriter, tableFromArrays, tableFromIPC } from 'apache-arrow'
import { arrowChunks } from '../../cli/transfer.js'

describe('CLI: Arrow uploads in chunks', () => {
  // Three batches of 1,000 rows (two int32 columns: 8,000 bytes of buffers each).
  const batches = [0, 1, 2].map(
    (b) => tableFromArrays({ id: Int32Array.from({ length: 1000 }, (_, i) => b * 1000 + i), v: Int32Array.from({ length: 1000 }, (_, i) => -i) }).batches[0],
  )
  const stream = RecordBatchStreamWriter.writeAll(batches).toUint8Array(true)

  async function chunksOf(maxBytes: number): Promise<number[][]> {
    const out: number[][] = []
    for await (const chunk of arrowChunks(stream, maxBytes)) out.push([...tableFromIPC(chunk).getChild('id')!.toArray()] as number[])
    return out
  }

  it('puts batches together up to the size, each chunk a readable stream', async () => {
    const chunks = await chunksOf(17_000)
    expect(chunks.map((c) => c.length)).to.deep.equal([2000, 1000])
    expect(chunks.flat()).to.deep.equal(Array.from({ length: 3000 }, (_, i) => i))
  })

  it('sends a batch larger than the size alone rather than splitting it', async () => {
    expect((await chunksOf(10)).map((c) => c.length)).to.deep.equal([1000, 1000, 1000])
  })
})
