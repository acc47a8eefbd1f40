import { expect } from 'chai'
import chunkReadTask, { type ChunkReadOutcome } from '../../gateway/ingest/chunk-read-task.js'
import { closeTableWriter, readChunkOffThread } from '../../gateway/tables/table-writer.js'

const LIMITS = { maxCellBytes: 1000, maxRowBytes: 10_000 }

/** The task's answer, unwrapped from Piscina's move marker when it carries one. */
function outcomeOf(answer: unknown): ChunkReadOutcome {
  const values = Object.getOwnPropertySymbols(answer as object).map((s) => (answer as Record<symbol, unknown>)[s])
  const moved = values.find((v) => typeof v === 'object' && v !== null && 'ok' in v)
  return (moved ?? answer) as ChunkReadOutcome
}

describe('gateway/ingest/chunk-read-task.ts', () => {
  after(() => closeTableWriter())

  it('reads a chunk given as text or UTF-8 bytes, counting its rows', () => {
    for (const csv of ['a,b\n1,x\n2,y\n', new TextEncoder().encode('a,b\n1,x\n2,y\n')]) {
      const outcome = outcomeOf(chunkReadTask({ csv, limits: LIMITS }))
      expect(outcome.ok).to.equal(true)
      if (!outcome.ok) return
      expect(outcome.chunk.rows).to.equal(2)
      expect(outcome.chunk.columns.map((c) => c.type)).to.deep.equal(['int', 'text'])
    }
  })

  it('refuses bytes that are not UTF-8 as an error payload, not a throw', () => {
    const latin1 = Uint8Array.from([0x61, 0x0a, 0x5a, 0xfc, 0x72, 0x0a]) // "a\nZür\n" in Latin-1
    const outcome = outcomeOf(chunkReadTask({ csv: latin1, limits: LIMITS }))
    expect(outcome.ok).to.equal(false)
    if (outcome.ok) return
    expect(outcome.error.code).to.equal('INVALID_PARAMETER')
    expect(outcome.error.message).to.include('not valid UTF-8')
  })

  it('applies the cell limits', () => {
    const outcome = outcomeOf(chunkReadTask({ csv: `t\n${'x'.repeat(2000)}\n`, limits: LIMITS }))
    expect(outcome.ok).to.equal(false)
  })

  it("answers the same on a table-writer thread (readChunkOffThread), refusals as the gateway's errors", async () => {
    const chunk = await readChunkOffThread({ csv: 'a,b\n1,x\n2,y\n3,x\n', limits: LIMITS })
    expect(chunk.rows).to.equal(3)
    expect(Array.from(chunk.data[0] as Int32Array)).to.deep.equal([1, 2, 3])
    const refused = await readChunkOffThread({ csv: 'a\n1\n', cols: [{ name: 'b' }], limits: LIMITS }).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    )
    expect(refused?.code).to.equal('INVALID_PARAMETER')
    expect(refused?.message).to.include('has a column "a" that the upload does not have')
  })
})
