/**
 * Reading table versions. Column files are read straight into SharedArrayBuffers so the gateway
 * can hand one copy to every worker thread; nothing is parsed except meta.json and dictionaries.
 * Every file is checked against meta.json, and a missing or damaged file is an INTERNAL error
 * naming it (the catalog promised the version exists).
 */
import './endian.js'
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import type { ColumnType, TableMeta } from '../../shared/table.js'
import { COLUMN_NAME, COLUMN_TYPES } from '../../shared/table.js'
import { columnFile, dictFile, META_FILE, segmentFile, SQLITE_FILE, versionDir } from './layout.js'
import type { LoadedColumn } from './types.js'
import { noteOpened, shareDictionaryInSlices } from '../columns/shared-dictionary.js'
import { parseDictionaryFile } from './dict-parse.js'
import { nextTurn } from '../../shared/turns.js'
import { damaged, describe } from './damaged.js'
import { checkSegments, readRowsInto } from './segments.js'
import type { SharedDictionary } from '../../shared/protocol.js'

/** Read and check the meta.json of a table version. */
export async function readTableMeta(dataDir: string, version: string): Promise<TableMeta> {
  const file = join(versionDir(dataDir, version), META_FILE)
  let meta: unknown
  try {
    meta = JSON.parse(await readFile(file, 'utf8'))
  } catch (e) {
    throw damaged(file, describe(e), e)
  }
  const why = checkMeta(meta, version)
  if (why !== undefined) throw damaged(file, why)
  return meta as TableMeta
}

/** Why `m` is not a valid TableMeta of `version`, or undefined if it is. */
function checkMeta(m: unknown, version: string): string | undefined {
  if (m === null || typeof m !== 'object') return 'not a JSON object'
  const meta = m as Record<string, unknown>
  if (meta.version !== version) return `it names version ${JSON.stringify(meta.version)}`
  if (!Number.isSafeInteger(meta.rows) || (meta.rows as number) < 0) return 'bad row count'
  // Older versions name their image; only the one name the writers used is acceptable.
  if (meta.sqlite !== undefined && meta.sqlite !== SQLITE_FILE) return 'bad SQLite file name'
  if (meta.int64 !== undefined && meta.int64 !== true) return 'bad int64 mark'
  if (!Array.isArray(meta.columns) || meta.columns.length === 0) return 'no columns'
  for (const c of meta.columns as unknown[]) {
    const col = c as Record<string, unknown> | null
    if (col === null || typeof col !== 'object' || typeof col.name !== 'string' || !COLUMN_NAME.test(col.name)) {
      return 'bad column name'
    }
    if (!COLUMN_TYPES.includes(col.type as ColumnType)) return `column ${col.name} has a bad type`
  }
  return checkSegments(meta.segments, meta.rows as number)
}

/**
 * Read a whole file into a new SharedArrayBuffer of exactly its size. The bytes go from the file
 * straight into the shared memory, with no intermediate Buffer.
 */
export async function readFileShared(path: string): Promise<SharedArrayBuffer> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const sab = new SharedArrayBuffer(size)
    const view = new Uint8Array(sab)
    let done = 0
    while (done < size) {
      // One read call moves at most 2 GiB; keep chunks well under that.
      const { bytesRead } = await fh.read(view, done, Math.min(size - done, 1 << 30), done)
      if (bytesRead === 0) throw new Error(`file ended after ${done} of ${size} bytes`)
      done += bytesRead
    }
    return sab
  } finally {
    await fh.close()
  }
}

const BYTES: Record<ColumnType, number> = { int: 4, bigint: 8, date: 4, text: 4, float: 8 }

function specOf(meta: TableMeta, index: number) {
  const spec = meta.columns[index]
  if (!Number.isInteger(index) || spec === undefined) {
    throw new AppError('INTERNAL', `Table version ${meta.version} has no column ${index}.`)
  }
  return spec
}

/** The file a message about rows of column `index` names: its only file, or its first segment's. */
const fileOf = (dataDir: string, meta: TableMeta, index: number): string =>
  join(versionDir(dataDir, meta.version), meta.segments === undefined ? columnFile(index) : segmentFile(index, 0))

/** Load column `index` of a version into shared memory, with its dictionary if it is text. */
export async function loadColumn(dataDir: string, meta: TableMeta, index: number): Promise<LoadedColumn> {
  const spec = specOf(meta, index)
  if (spec.type !== 'text') return { type: spec.type, buffer: await loadColumnRows(dataDir, meta, index, 0, meta.rows) }
  const { dict, sharedDict } = await loadDictionary(dataDir, meta, index)
  return { type: spec.type, buffer: await loadColumnRows(dataDir, meta, index, 0, meta.rows, dict.length), dict, sharedDict }
}

/**
 * A text column's dictionary, as strings and in shared memory. Parsed and copied a slice at a time
 * (dict-parse.ts, shareDictionaryInSlices): the gateway loads dictionaries on its own thread.
 */
export async function loadDictionary(dataDir: string, meta: TableMeta, index: number): Promise<{ dict: string[]; sharedDict: SharedDictionary }> {
  if (specOf(meta, index).type !== 'text') throw new AppError('INTERNAL', `Column ${index} of table version ${meta.version} is not text.`)
  const dict = await readDict(join(versionDir(dataDir, meta.version), dictFile(index)))
  const sharedDict = await shareDictionaryInSlices(dict, nextTurn)
  // An answer that carries this column's text back names the shared form: it finds these strings.
  noteOpened(sharedDict, dict)
  return { dict, sharedDict }
}

/**
 * Rows from … to-1 of column `index` in a new SharedArrayBuffer, or at the start of `into` (a
 * reused one, at least that large), read from only the files (row segments) that hold them. A
 * text column's codes are checked against `dictSize`, its dictionary's length.
 */
export async function loadColumnRows(
  dataDir: string,
  meta: TableMeta,
  index: number,
  from: number,
  to: number,
  dictSize?: number,
  into?: SharedArrayBuffer,
): Promise<SharedArrayBuffer> {
  const spec = specOf(meta, index)
  const bytes = (to - from) * BYTES[spec.type]
  const buffer = into ?? new SharedArrayBuffer(bytes)
  if (buffer.byteLength < bytes) throw new AppError('INTERNAL', `A buffer of ${buffer.byteLength} bytes cannot hold ${bytes}.`)
  await readRowsInto(dataDir, meta, index, from, to, new Uint8Array(buffer, 0, bytes))
  if (spec.type === 'text') {
    const size = dictSize ?? (await loadDictionary(dataDir, meta, index)).dict.length
    // An out-of-range code would later read as `undefined` far from here; catch it now (one pass).
    const codes = new Int32Array(buffer, 0, to - from)
    for (let r = 0; r < codes.length; r++) {
      const c = codes[r]
      if (c < 0 || c >= size) throw damaged(fileOf(dataDir, meta, index), `row ${from + r + 1} has code ${c} outside its dictionary of ${size}`)
    }
  }
  return buffer
}

async function readDict(file: string): Promise<string[]> {
  let dict: string[]
  try {
    dict = await parseDictionaryFile(await readFile(file), nextTurn)
  } catch (e) {
    throw damaged(file, describe(e), e)
  }
  if (dict[0] !== '') throw damaged(file, "not an array of strings starting with ''")
  return dict
}

/** A typed-array view over a loaded column: Float64Array for float, BigInt64Array for bigint, Int32Array otherwise. */
export function columnView(col: LoadedColumn): Int32Array | Float64Array | BigInt64Array {
  if (col.type === 'float') return new Float64Array(col.buffer)
  return col.type === 'bigint' ? new BigInt64Array(col.buffer) : new Int32Array(col.buffer)
}

const SQLITE_MAGIC = 'SQLite format 3\0'

/** Load the SQLite image of a version into shared memory; it must have been built (sqlite-image-add.ts). */
export async function loadSqliteImage(dataDir: string, meta: TableMeta): Promise<SharedArrayBuffer> {
  const file = join(versionDir(dataDir, meta.version), SQLITE_FILE)
  const buffer = await readShared(file)
  const head = new Uint8Array(buffer, 0, Math.min(buffer.byteLength, SQLITE_MAGIC.length))
  if (buffer.byteLength < 100 || String.fromCharCode(...head) !== SQLITE_MAGIC) throw damaged(file, 'not an SQLite database')
  return buffer
}

async function readShared(file: string): Promise<SharedArrayBuffer> {
  try {
    return await readFileShared(file)
  } catch (e) {
    throw damaged(file, describe(e), e)
  }
}
