import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import { hasSqliteImage, loadColumn, readTableMeta } from '../../engine/storage/index.js'
import { buildSqliteImageOffThread, closeTableWriter, writeTableOffThread } from '../../gateway/tables/table-writer.js'

const LIMITS = { maxCellBytes: 1000, maxRowBytes: 100_000 }

describe('gateway/tables/table-writer.ts: writing tables on a thread beside the gateway', () => {
  let dataDir: string
  before(async () => (dataDir = await mkdtemp(join(tmpdir(), 'table-writer-'))))
  after(async () => {
    await closeTableWriter()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('writes a version whose numbers and text read back as given', async () => {
    const meta = await writeTableOffThread(
      dataDir,
      {
        columns: [
          { name: 'n', type: 'int' },
          { name: 's', type: 'text' },
        ],
        data: [Int32Array.from([3, 1, 2]), ['c', '', 'a']],
      },
      LIMITS,
    )
    expect(meta.rows).to.equal(3)
    expect(await readTableMeta(dataDir, meta.version)).to.deep.include({ version: meta.version, rows: 3 })
    const n = await loadColumn(dataDir, meta, 0)
    expect(Array.from(new Int32Array(n.buffer))).to.deep.equal([3, 1, 2])
    const s = await loadColumn(dataDir, meta, 1)
    expect(s.dict).to.include.members(['a', 'c'])
  })

  it('sends text larger than one slice in pieces and keeps every row', async () => {
    // 5 M characters: more than the 4 M of one slice.
    const text = Array.from({ length: 5000 }, (_, i) => `${i}`.padEnd(1000, 'x'))
    const meta = await writeTableOffThread(dataDir, { columns: [{ name: 't', type: 'text' }], data: [text] }, LIMITS)
    expect(meta.rows).to.equal(5000)
    const t = await loadColumn(dataDir, meta, 0)
    // The dictionary holds every distinct value (and N/A, the empty text).
    expect(t.dict!.filter((v) => v !== '')).to.have.length(5000)
    expect(t.dict).to.include.members([text[0], text[2500], text[4999]])
  })

  it("refuses a table over the cell limits with the engine's 4xx, not an internal error", async () => {
    const refused = await writeTableOffThread(dataDir, { columns: [{ name: 't', type: 'text' }], data: [['x'.repeat(2000)]] }, LIMITS).then(
      () => null,
      (e: unknown) => e,
    )
    expect(refused).to.be.instanceOf(AppError)
    expect((refused as AppError).code).not.to.equal('INTERNAL')
  })

  it('builds the SQLite image of a version once', async () => {
    const meta = await writeTableOffThread(dataDir, { columns: [{ name: 'n', type: 'float' }], data: [Float64Array.from([1.5])] }, LIMITS)
    expect(await hasSqliteImage(dataDir, meta.version)).to.equal(false)
    expect(await buildSqliteImageOffThread(dataDir, meta.version)).to.equal(true)
    expect(await hasSqliteImage(dataDir, meta.version)).to.equal(true)
    expect(await buildSqliteImageOffThread(dataDir, meta.version)).to.equal(false)
  })
})
