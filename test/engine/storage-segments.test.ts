import { expect } from 'chai'
import { mkdtemp, readdir, rm, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import {
  addSqliteImage,
  cloneTableVersion,
  columnView,
  loadColumn,
  loadColumnRows,
  loadDictionary,
  loadSqliteImage,
  readTableMeta,
  segmentFile,
  versionDir,
  writeTableVersion,
} from '../../engine/storage/index.js'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { appendColumn, createUploadDir, emptyColumnState, writeChunkedVersion } from '../../engine/storage/chunked.js'
import { encodeChunkText as encodeChunk } from '../../shared/csv/chunk-text.js'

const COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'int' },
  { name: 'price', type: 'float' },
  { name: 'grp', type: 'text' },
  { name: 'day', type: 'date' },
]
const ROWS = 5000
const SEGMENT = 1024
const IDS = Int32Array.from({ length: ROWS }, (_, i) => (i % 97 === 0 ? NA_INT : i))
const PRICES = Float64Array.from({ length: ROWS }, (_, i) => (i % 89 === 0 ? NaN : i / 4))
const GROUPS = Array.from({ length: ROWS }, (_, i) => (i % 83 === 0 ? '' : `g${i % 37}`))
const DAYS = Int32Array.from({ length: ROWS }, (_, i) => 20240101 + (i % 28))

describe('row segments (engine/storage/segments.ts)', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-segments-'))
  })
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  const write = () => writeTableVersion(dataDir, { columns: COLUMNS, data: [IDS, PRICES, GROUPS, DAYS] }, undefined, SEGMENT)

  it('stores a table longer than the segment size as one file per column and segment, starts in meta.json', async () => {
    const meta = await write()
    expect(meta.segments).to.deep.equal([0, 1024, 2048, 3072, 4096])
    expect((await readTableMeta(dataDir, meta.version)).segments).to.deep.equal(meta.segments)
    const files = await readdir(versionDir(dataDir, meta.version))
    expect(files).to.include.members([segmentFile(0, 0), segmentFile(3, 4), 'c2.dict.json'])
    expect(files).not.to.include('c0.bin')
  })

  it('keeps a table no longer than the segment size in one file per column, with no segments', async () => {
    const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: [IDS, PRICES, GROUPS, DAYS] }, undefined, ROWS)
    expect(meta.segments).to.equal(undefined)
    expect(await readdir(versionDir(dataDir, meta.version))).to.include('c0.bin')
  })

  it('loads whole columns and any row range the same as the values written', async () => {
    const meta = await write()
    expect(Array.from(columnView(await loadColumn(dataDir, meta, 0)) as Int32Array)).to.deep.equal(Array.from(IDS))
    expect(Array.from(columnView(await loadColumn(dataDir, meta, 1)) as ArrayLike<number>)).to.deep.equal(Array.from(PRICES))
    const text = await loadColumn(dataDir, meta, 2)
    expect(Array.from(new Int32Array(text.buffer), (c) => text.dict![c])).to.deep.equal(GROUPS)
    const { dict } = await loadDictionary(dataDir, meta, 2)
    for (const [from, to] of [
      [0, 0],
      [0, 1024],
      [1000, 1100],
      [1023, 4097],
      [4096, 5000],
      [2500, 2500],
    ]) {
      expect(Array.from(new Int32Array(await loadColumnRows(dataDir, meta, 3, from, to)))).to.deep.equal(Array.from(DAYS.subarray(from, to)))
      const codes = new Int32Array(await loadColumnRows(dataDir, meta, 2, from, to, dict.length))
      expect(Array.from(codes, (c) => dict[c])).to.deep.equal(GROUPS.slice(from, to))
    }
  })

  it('clones keep the segments; the SQLite image reads every segment', async () => {
    const meta = await write()
    const clone = await cloneTableVersion(dataDir, meta.version)
    expect(clone.segments).to.deep.equal(meta.segments)
    expect(Array.from(columnView(await loadColumn(dataDir, clone, 1)) as ArrayLike<number>)).to.deep.equal(Array.from(PRICES))
    await addSqliteImage(dataDir, clone.version)
    const SQL = await sqlJs()
    const db = new SQL.Database(new Uint8Array(await loadSqliteImage(dataDir, clone)))
    const [{ values }] = db.exec('SELECT count(*), sum(id), count(grp) FROM data')
    db.close()
    const ids = Array.from(IDS).filter((x) => x !== NA_INT)
    expect(values[0]).to.deep.equal([ROWS, ids.reduce((a, b) => a + b, 0), GROUPS.filter((g) => g !== '').length])
  })

  it('an upload committed by chunks is stored in segments too, also when appended to a segmented version', async () => {
    const base = await write()
    const id = 'u' + 'ab'.repeat(12)
    const dir = await createUploadDir(dataDir, id)
    const n = 1500
    const ids = Int32Array.from({ length: n }, (_, i) => 100_000 + i)
    const groups = Array.from({ length: n }, (_, i) => `new${i % 5}`)
    const states = [
      await appendColumn(dir, id, 0, emptyColumnState('int'), ids),
      await appendColumn(
        dir,
        id,
        1,
        emptyColumnState('float'),
        Float64Array.from(ids, (x) => x / 2),
      ),
      await appendColumn(dir, id, 2, emptyColumnState('text'), encodeChunk(groups)),
      await appendColumn(
        dir,
        id,
        3,
        emptyColumnState('date'),
        Int32Array.from(ids, () => 20250101),
      ),
    ]
    const meta = await writeChunkedVersion(dataDir, { dir, rows: n, columns: COLUMNS, states }, { meta: base }, SEGMENT)
    expect(meta.rows).to.equal(ROWS + n)
    expect(meta.segments).to.deep.equal([0, 1024, 2048, 3072, 4096, 5120, 6144])
    const all = await loadColumn(dataDir, meta, 0)
    expect(Array.from(columnView(all) as Int32Array)).to.deep.equal([...IDS, ...ids])
    const text = await loadColumn(dataDir, meta, 2)
    expect(Array.from(new Int32Array(text.buffer), (c) => text.dict![c])).to.deep.equal([...GROUPS, ...groups])
    // Not appended: the upload alone, over the segment size.
    const alone = await writeChunkedVersion(dataDir, { dir, rows: n, columns: COLUMNS, states }, null, SEGMENT)
    expect(alone.segments).to.deep.equal([0, 1024])
    expect(Array.from(new Float64Array(await loadColumnRows(dataDir, alone, 1, 1000, 1100)))).to.deep.equal(Array.from(ids.subarray(1000, 1100), (x) => x / 2))
  })

  it('reports a damaged segment file as an internal error naming it', async () => {
    const meta = await write()
    await truncate(join(versionDir(dataDir, meta.version), segmentFile(1, 2)), 12)
    const e = await loadColumnRows(dataDir, meta, 1, 2000, 2100).then(
      () => null,
      (err: unknown) => err,
    )
    expect(e).to.be.instanceOf(AppError)
    expect((e as AppError).message).to.contain('c1.s2.bin')
    // Rows of other segments still read.
    expect(new Float64Array(await loadColumnRows(dataDir, meta, 1, 0, 100))[5]).to.equal(PRICES[5])
  })
})
