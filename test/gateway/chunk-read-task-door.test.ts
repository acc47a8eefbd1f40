/**
 * gateway/ingest/chunk-read-task-door.cts, the CommonJS file table-writer threads load for upload
 * chunks: loaded with require(), it must answer a task as chunk-read-task.ts does.
 */
import { expect } from 'chai'
import { createRequire } from 'node:module'
import type { ChunkReadOutcome, ChunkReadTask } from '../../gateway/ingest/chunk-read-task.js'

const require = createRequire(import.meta.url)

/** The answer, unwrapped from Piscina's move marker when it carries one. */
function outcomeOf(answer: unknown): ChunkReadOutcome {
  const values = Object.getOwnPropertySymbols(answer as object).map((s) => (answer as Record<symbol, unknown>)[s])
  return (values.find((v) => typeof v === 'object' && v !== null && 'ok' in v) ?? answer) as ChunkReadOutcome
}

describe('gateway/ingest/chunk-read-task-door.cts', () => {
  it('loads with require() and answers a chunk as the task does, refusals included', async () => {
    const door = require('../../gateway/ingest/chunk-read-task-door.cjs') as (task: ChunkReadTask) => Promise<unknown>
    const limits = { maxCellBytes: 100, maxRowBytes: 1000 }
    const read = outcomeOf(await door({ csv: 'a\n1\n2\n', limits }))
    expect(read.ok && read.chunk.rows).to.equal(2)
    const refused = outcomeOf(await door({ csv: 'a\n1\n', cols: [{ name: 'b' }], limits }))
    expect(refused.ok).to.equal(false)
  })
})
