import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import initSqlJs from 'sql.js'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import type { ColumnValues } from '../../engine/storage/index.js'
import {
  addSqliteImage,
  columnFile,
  columnView,
  dictFile,
  encodeStoredText,
  isVersionId,
  loadColumn,
  loadSqliteImage,
  META_FILE,
  newVersionId,
  readFileShared,
  readTableMeta,
  removeStaleTempFolders,
  SQLITE_FILE,
  tablesDir,
  versionDir,
  writeTableVersion,
} from '../../engine/storage/index.js'

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (e) {
    expect(e).to.be.instanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected the promise to reject')
}

/** Every entry under DATA_DIR/tables (none if the folder does not exist). */
async function tableEntries(dataDir: string): Promise<string[]> {
  return readdir(tablesDir(dataDir)).catch(() => [])
}

// A table with every type, N/A in every column, and column names that are SQL keywords.
const COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'int', label: 'Id', format: 'type:nocommas' },
  { name: 'price', type: 'float', label: 'Price ($)', format: 'type:currency;dec:2', desc: 'unit price' },
  { name: 'group', type: 'text', width: 8, fixed: true },
  { name: 'Order', type: 'date', label: 'Order date', format: 'type:date' },
]
const IDS = Int32Array.from([1, NA_INT, -7, 2147483647, 0])
const PRICES = Float64Array.from([1.25, NaN, -3, 1e300, 0])
const GROUPS = ['b', '', 'a', 'héllo "quoted"', 'b']
const DATES = Int32Array.from([20240229, 20251231, NA_INT, 19991231, 10101])
const DATA: ColumnValues[] = [IDS, PRICES, GROUPS, DATES]

describe('engine/storage', function () {
  this.timeout(60_000)
  let dataDir: string

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-storage-'))
  })
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  describe('layout: newVersionId(), isVersionId(), file names', () => {
    it('makes version ids that sort in creation order and are all distinct', () => {
      const ids = Array.from({ length: 2000 }, () => newVersionId())
      expect([...ids].sort()).to.deep.equal(ids)
      expect(new Set(ids).size).to.equal(ids.length)
      expect(ids.every(isVersionId)).to.equal(true)
    })

    it('rejects version ids that could escape the tables folder', () => {
      for (const bad of ['../x', '..', '', 'v/../../etc', `${newVersionId()}/..`, 'V0ABCDEFGH-0123abcd', 'meta.json']) {
        expect(isVersionId(bad), bad).to.equal(false)
        expect(() => versionDir(dataDir, bad)).to.throw(AppError)
      }
      expect(isVersionId(42)).to.equal(false)
    })

    it('names column, dictionary and image files as documented', () => {
      expect(columnFile(3)).to.equal('c3.bin')
      expect(dictFile(0)).to.equal('c0.dict.json')
      expect(META_FILE).to.equal('meta.json')
      expect(SQLITE_FILE).to.equal('data.sqlite')
      expect(tablesDir('/d')).to.equal('/d/tables')
    })
  })

  describe('writeTableVersion() then readTableMeta(), loadColumn(), addSqliteImage(), loadSqliteImage()', () => {
    it('reads back meta.json with the specs, row count and file names that were written', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      expect(isVersionId(meta.version)).to.equal(true)
      expect(meta.rows).to.equal(5)
      // No SQLite image: the first query that falls back to sql.js builds it (addSqliteImage).
      expect(meta).not.to.have.property('sqlite')
      expect(await readdir(versionDir(dataDir, meta.version))).not.to.include(SQLITE_FILE)
      expect(meta.columns).to.deep.equal(COLUMNS)
      expect(await readTableMeta(dataDir, meta.version)).to.deep.equal(meta)
      expect(await tableEntries(dataDir)).to.deep.equal([meta.version])
    })

    it('reads back int, float and date columns bit for bit, N/A included', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      const ids = await loadColumn(dataDir, meta, 0)
      const prices = await loadColumn(dataDir, meta, 1)
      const dates = await loadColumn(dataDir, meta, 3)
      expect(ids.buffer).to.be.instanceOf(SharedArrayBuffer)
      expect(columnView(ids)).to.be.instanceOf(Int32Array)
      expect(Array.from(columnView(ids) as ArrayLike<number>)).to.deep.equal(Array.from(IDS))
      expect(columnView(prices)).to.be.instanceOf(Float64Array)
      expect(Array.from(columnView(prices) as ArrayLike<number>)).to.deep.equal(Array.from(PRICES)) // deep equal treats NaN as NaN
      expect(dates.type).to.equal('date')
      expect(Array.from(columnView(dates) as ArrayLike<number>)).to.deep.equal(Array.from(DATES))
    })

    it("reads back a text column as codes into a sorted dictionary whose entry 0 is ''", async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      const col = await loadColumn(dataDir, meta, 2)
      expect(col.dict).to.deep.equal(['', 'a', 'b', 'héllo "quoted"'])
      const codes = columnView(col) as Int32Array
      expect(Array.from(codes, (c) => col.dict![c])).to.deep.equal(GROUPS)
      expect(codes[1]).to.equal(0)
    })

    it('builds an SQLite image with the same values and NULL for N/A', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      expect(await addSqliteImage(dataDir, meta.version)).to.equal(true)
      const SQL = await initSqlJs()
      const db = new SQL.Database(new Uint8Array(await loadSqliteImage(dataDir, meta)))
      try {
        const [res] = db.exec('SELECT id, price, "group", "Order", typeof(price) FROM data ORDER BY rowid')
        expect(res.columns).to.deep.equal(['id', 'price', 'group', 'Order', 'typeof(price)'])
        expect(res.values).to.deep.equal([
          [1, 1.25, 'b', 20240229, 'real'],
          [null, null, null, 20251231, 'null'],
          [-7, -3, 'a', null, 'real'],
          [2147483647, 1e300, 'héllo "quoted"', 19991231, 'real'],
          [0, 0, 'b', 10101, 'real'],
        ])
        const [types] = db.exec("SELECT name, type FROM pragma_table_info('data')")
        expect(types.values).to.deep.equal([
          ['id', 'INTEGER'],
          ['price', 'REAL'],
          ['group', 'TEXT'],
          ['Order', 'INTEGER'],
        ])
      } finally {
        db.close()
      }
    })

    it('stores a table with no rows', async () => {
      const meta = await writeTableVersion(dataDir, {
        columns: COLUMNS,
        data: [new Int32Array(0), new Float64Array(0), [], new Int32Array(0)],
      })
      expect(meta.rows).to.equal(0)
      expect((await loadColumn(dataDir, meta, 2)).dict).to.deep.equal([''])
      await addSqliteImage(dataDir, meta.version)
      expect((await loadSqliteImage(dataDir, meta)).byteLength).to.be.greaterThan(0)
    })

    it('inserts more rows than one INSERT batch holds, remainder included', async () => {
      const n = 12_345
      const a = Int32Array.from({ length: n }, (_, i) => (i % 7 === 0 ? NA_INT : i))
      const t = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? '' : `s${i % 13}`))
      const meta = await writeTableVersion(dataDir, {
        columns: [
          { name: 'a', type: 'int' },
          { name: 't', type: 'text' },
        ],
        data: [a, t],
      })
      await addSqliteImage(dataDir, meta.version)
      const SQL = await initSqlJs()
      const db = new SQL.Database(new Uint8Array(await loadSqliteImage(dataDir, meta)))
      try {
        const [res] = db.exec('SELECT count(*), count(a), sum(a), count(t), max(rowid) FROM data')
        const expected = Array.from(a).filter((x) => x !== NA_INT)
        expect(res.values[0]).to.deep.equal([n, expected.length, expected.reduce((s, x) => s + x, 0), t.filter((s) => s !== '').length, n])
        const [last] = db.exec('SELECT a, t FROM data WHERE rowid = ?', [n])
        expect(last.values[0]).to.deep.equal([n - 1, `s${(n - 1) % 13}`])
      } finally {
        db.close()
      }
    })

    it('drops properties that are not part of a column spec from meta.json', async () => {
      const spec = { name: 'x', type: 'int', secret: 'no' } as ColumnSpec
      const meta = await writeTableVersion(dataDir, { columns: [spec], data: [Int32Array.of(1)] })
      const onDisk = JSON.parse(await readFile(join(versionDir(dataDir, meta.version), META_FILE), 'utf8'))
      expect(onDisk.columns).to.deep.equal([{ name: 'x', type: 'int' }])
    })
  })

  describe('writeTableVersion() with bad input', () => {
    const cases: [string, ColumnSpec[], ColumnValues[], string][] = [
      ['a bad column name', [{ name: 'bad name', type: 'int' }], [Int32Array.of(1)], 'bad name'],
      ['a name starting with a digit', [{ name: '1x', type: 'int' }], [Int32Array.of(1)], '1x'],
      [
        'names that differ only in case',
        [
          { name: 'Sales', type: 'int' },
          { name: 'sales', type: 'int' },
        ],
        [Int32Array.of(1), Int32Array.of(2)],
        'sales',
      ],
      ['an unknown type', [{ name: 'amt', type: 'money' as 'int' }], [Int32Array.of(1)], 'amt'],
      [
        'columns of different lengths',
        [
          { name: 'a', type: 'int' },
          { name: 'b', type: 'float' },
        ],
        [Int32Array.of(1, 2), Float64Array.of(1)],
        'b',
      ],
      ['a Float64Array for an int column', [{ name: 'qty', type: 'int' }], [Float64Array.of(1)], 'qty'],
      ['an Int32Array for a float column', [{ name: 'amt', type: 'float' }], [Int32Array.of(1)], 'amt'],
      ['an Int32Array for a text column', [{ name: 'label', type: 'text' }], [Int32Array.of(1)], 'label'],
      ['a number in a text column', [{ name: 'label', type: 'text' }], [['a', 3 as unknown as string]], 'label'],
      ['an impossible date', [{ name: 'when', type: 'date' }], [Int32Array.of(20240101, 20230229)], 'when'],
      ['a bad width', [{ name: 'w', type: 'int', width: -1 }], [Int32Array.of(1)], 'w'],
    ]
    for (const [what, columns, data, column] of cases) {
      it(`rejects ${what}, naming the column, and writes nothing`, async () => {
        const e = await rejection(writeTableVersion(dataDir, { columns, data }))
        expect(e.code).to.equal('INVALID_PARAMETER')
        expect(e.message).to.contain(column)
        expect(await tableEntries(dataDir)).to.deep.equal([])
      })
    }

    it('rejects a table without columns', async () => {
      const e = await rejection(writeTableVersion(dataDir, { columns: [], data: [] }))
      expect(e.code).to.equal('INVALID_PARAMETER')
    })

    it('rejects fewer value arrays than columns', async () => {
      const e = await rejection(writeTableVersion(dataDir, { columns: COLUMNS, data: DATA.slice(0, 2) }))
      expect(e.code).to.equal('INVALID_PARAMETER')
    })
  })

  describe('writeTableVersion() failing half-way', () => {
    it('leaves neither a temporary folder nor a version folder behind', async () => {
      // A text column that reads fine while being validated, then throws while it is encoded:
      // by then the int column's file already exists in the temporary folder.
      const values = ['x', 'y', '', 'z']
      let reads = 0
      let entriesWhenThrown: string[] = []
      const treacherous = new Proxy(values, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key) && ++reads > values.length + 1) {
            entriesWhenThrown = readdirSync(tablesDir(dataDir))
            throw new Error('disk on fire')
          }
          return Reflect.get(target, key, receiver)
        },
      })
      const columns: ColumnSpec[] = [
        { name: 'n', type: 'int' },
        { name: 't', type: 'text' },
      ]
      let thrown: unknown
      try {
        await writeTableVersion(dataDir, { columns, data: [Int32Array.of(1, 2, 3, 4), treacherous] })
      } catch (e) {
        thrown = e
      }
      expect((thrown as Error).message).to.equal('disk on fire')
      // Proof that the failure came mid-way: the temporary folder existed when it happened.
      expect(entriesWhenThrown).to.have.lengthOf(1)
      expect(entriesWhenThrown[0]).to.match(/^\.tmp-/)
      expect(await tableEntries(dataDir)).to.deep.equal([])
    })
  })

  describe('readFileShared() and the readers on missing or damaged files', () => {
    it('reads a file into a SharedArrayBuffer of exactly its size with the same bytes', async () => {
      const bytes = randomBytes(100_003)
      const file = join(dataDir, 'blob')
      await writeFile(file, bytes)
      const sab = await readFileShared(file)
      expect(sab).to.be.instanceOf(SharedArrayBuffer)
      expect(sab.byteLength).to.equal(bytes.length)
      expect(Buffer.from(new Uint8Array(sab)).equals(bytes)).to.equal(true)
    })

    it('reads an empty file into an empty SharedArrayBuffer', async () => {
      const file = join(dataDir, 'empty')
      await writeFile(file, '')
      expect((await readFileShared(file)).byteLength).to.equal(0)
    })

    it('reports a missing meta.json as an internal error naming the file', async () => {
      const e = await rejection(readTableMeta(dataDir, newVersionId()))
      expect(e.code).to.equal('INTERNAL')
      expect(e.message).to.contain('meta.json')
    })

    it('reports a truncated column file as an internal error naming the file', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      await truncate(join(versionDir(dataDir, meta.version), 'c1.bin'), 12)
      const e = await rejection(loadColumn(dataDir, meta, 1))
      expect(e.code).to.equal('INTERNAL')
      expect(e.message).to.contain('c1.bin')
    })

    it('reports a dictionary too short for its codes as an internal error', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      await writeFile(join(versionDir(dataDir, meta.version), 'c2.dict.json'), '["", "a"]')
      const e = await rejection(loadColumn(dataDir, meta, 2))
      expect(e.code).to.equal('INTERNAL')
      expect(e.message).to.contain('c2.bin')
    })

    it('reports a missing dictionary and a damaged SQLite image as internal errors naming the file', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      const dir = versionDir(dataDir, meta.version)
      await rm(join(dir, 'c2.dict.json'))
      await writeFile(join(dir, 'data.sqlite'), 'not a database'.repeat(10))
      expect((await rejection(loadColumn(dataDir, meta, 2))).message).to.contain('c2.dict.json')
      expect((await rejection(loadSqliteImage(dataDir, meta))).message).to.contain('data.sqlite')
    })

    it('rejects a meta.json that belongs to another version', async () => {
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      const file = join(versionDir(dataDir, meta.version), META_FILE)
      await writeFile(file, JSON.stringify({ ...meta, version: newVersionId() }))
      expect((await rejection(readTableMeta(dataDir, meta.version))).code).to.equal('INTERNAL')
    })
  })

  describe('encodeStoredText()', () => {
    it('gives the same codes and dictionary whatever order the values arrive in', () => {
      const a = encodeStoredText(['pear', 'apple', '', 'pear'])
      const b = encodeStoredText(['', 'pear', 'apple', 'apple'])
      expect(a.dict).to.deep.equal(['', 'apple', 'pear'])
      expect(b.dict).to.deep.equal(a.dict)
      expect(Array.from(a.codes)).to.deep.equal([2, 1, 0, 2])
    })
  })

  describe('removeStaleTempFolders()', () => {
    it('removes temporary folders older than the limit and keeps young ones', async () => {
      const root = tablesDir(dataDir)
      await mkdir(join(root, '.tmp-old'), { recursive: true })
      await mkdir(join(root, '.tmp-young'))
      const meta = await writeTableVersion(dataDir, { columns: COLUMNS, data: DATA })
      const dayAgo = new Date(Date.now() - 2 * 24 * 3600_000)
      await utimes(join(root, '.tmp-old'), dayAgo, dayAgo)
      expect(await removeStaleTempFolders(dataDir)).to.deep.equal(['.tmp-old'])
      expect((await tableEntries(dataDir)).sort()).to.deep.equal(['.tmp-young', meta.version].sort())
    })
  })
})
