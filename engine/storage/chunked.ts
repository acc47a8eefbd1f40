/**
 * Column files written a chunk at a time, for uploads that arrive in pieces (dbm `upload_begin`,
 * `upload_chunk`, `upload_commit`). Each upload has a folder of per-column append-only files:
 *
 * ```
 * DATA_DIR/chunked-uploads/<upload id>/
 *   c0.bin, c1.bin…      little-endian values as in a version (int/date Int32, float Float64);
 *                        a text column holds codes in order of first appearance
 *   c2.dict.jsonl        the text column's distinct values, one JSON string a line, in the order
 *                        their codes were given (code 0, '' = N/A, is implicit)
 *   c0.bin.narrow        for a moment: an int column's file as it was before a chunk widened it
 *                        to floats, until the state records the widening (discardUnapplied)
 * ```
 *
 * The caller (the gateway) keeps, in its Store, how many bytes of each file belong to committed
 * chunks. Every write starts by cutting a file back to that length, so the bytes a crashed chunk
 * left behind are never read, and chunks of one upload may be written by different processes
 * sharing DATA_DIR. At commit the files become a normal table version (write.ts's publishVersion):
 * numeric files are copied and text codes are renumbered into the sorted dictionary a version
 * needs. The SQLite image is left to the first query that needs it (sqlite-image-add.ts).
 */
import './endian.js'
import { copyFile, constants as fsConstants, link, mkdir, open, readdir, readFile, rename, rm, stat, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import { NA_BIGINT, NA_INT, type ColumnSpec, type ColumnType, type TableMeta } from '../../shared/table.js'
import { bytesOf, writeFileDurably } from './durable.js'
import { columnFile, dictFile, newVersionId, versionDir } from './layout.js'
import { cleanSpec, publishVersion } from './write.js'
import { ColumnOut, DEFAULT_SEGMENT_ROWS, readRowsInto, segmentStartsFor } from './segments.js'
import type { ChunkText } from '../../shared/csv/chunk-text.js'

/** Folder under DATA_DIR that holds the uploads in progress. */
export const CHUNKED_DIR = 'chunked-uploads'

const UPLOAD_ID = /^u[0-9a-f]{24}$/

/** True if `id` has the shape of an upload id (so it is safe as a folder name). */
export const isUploadId = (id: unknown): id is string => typeof id === 'string' && UPLOAD_ID.test(id)

/** The folder of one upload; throws if the id is malformed (ids come from the Store, not requests). */
export function uploadDir(dataDir: string, id: string): string {
  if (!isUploadId(id)) throw new AppError('INTERNAL', `Invalid upload id ${JSON.stringify(id)}.`)
  return join(dataDir, CHUNKED_DIR, id)
}

/** How much of one column's files belongs to committed chunks. */
export interface ChunkColumnState {
  /** null while every value so far was N/A: the type is decided by the first real value. */
  readonly type: ColumnType | null
  /** Bytes of c<i>.bin. */
  readonly bytes: number
  /** Text: distinct non-empty values so far, and the bytes of c<i>.dict.jsonl holding them. */
  readonly dictCount: number
  readonly dictBytes: number
}

export const emptyColumnState = (type: ColumnType | null): ChunkColumnState => ({ type, bytes: 0, dictCount: 0, dictBytes: 0 })

const WIDTH: Record<ColumnType, number> = { int: 4, bigint: 8, date: 4, text: 4, float: 8 }

export async function createUploadDir(dataDir: string, id: string): Promise<string> {
  const dir = uploadDir(dataDir, id)
  await mkdir(dir, { recursive: true })
  return dir
}

export async function removeUploadDir(dataDir: string, id: string): Promise<void> {
  dropTextCache(id)
  await rm(uploadDir(dataDir, id), { recursive: true, force: true })
}

/**
 * Removes the folders of uploads that `isLive` says are gone (aborted, committed by a process that
 * died before cleaning up, or expired), once they are older than `graceMs`. Returns the ids removed.
 */
export async function sweepUploadDirs(dataDir: string, isLive: (id: string) => Promise<boolean>, graceMs: number): Promise<string[]> {
  const root = join(dataDir, CHUNKED_DIR)
  const names = await readdir(root).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    if (!isUploadId(name)) continue
    const st = await stat(join(root, name)).catch(() => null)
    if (!st || Date.now() - st.mtimeMs < graceMs) continue
    if (await isLive(name)) continue
    await removeUploadDir(dataDir, name)
    removed.push(name)
  }
  return removed
}

/**
 * Brings an upload's files back to what its applied chunks wrote (`applied`, in column order; null
 * before the first chunk). Run when a chunk fails part way: its bytes are never read (the next
 * write cuts them too), but on a full volume they are the space the client was told was not
 * used ("nothing was saved"), and an abandoned upload would keep them until it expires. Also run
 * before each chunk and commit, and after a chunk is recorded, so what a failure or a lost answer
 * left is settled from the recorded state:
 *  - a column the chunk widened (int to big integers or floats, big integers to floats) gets its
 *    narrower file back from the copy widening kept (widenNumbers) while the state still says the
 *    narrower type, and the copy goes once it says the wider one;
 *  - files of columns that hold nothing yet, and anything else (a widening's temporary file), go.
 */
export async function discardUnapplied(dir: string, applied: readonly ChunkColumnState[] | null): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^c(\d+)\.bin\.narrow$/.exec(name)
    if (!m) continue
    const index = Number(m[1])
    if (applied?.[index]?.type === 'int') await rename(join(dir, name), join(dir, columnFile(index)))
    else await rm(join(dir, name), { force: true })
  }
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    const file = join(dir, name)
    const m = /^c(\d+)\.(bin|dict\.jsonl)$/.exec(name)
    const state = m ? applied?.[Number(m[1])] : undefined
    const keep = state === undefined ? 0 : m![2] === 'bin' ? state.bytes : state.dictBytes
    if (keep === 0) {
      await rm(file, { force: true })
      continue
    }
    const size = (await stat(file).catch(() => null))?.size ?? 0
    if (size > keep) await truncate(file, keep)
  }
}

// ---------------------------------------------------------------------------------------------
// appending

/** Opens `file` for writing at exactly `length` bytes: made if missing, cut back if longer. */
async function openAt(file: string, length: number) {
  const fh = await open(file, 'a+')
    .then((h) => h.close())
    .then(() => open(file, 'r+'))
  const { size } = await fh.stat()
  if (size < length) {
    await fh.close()
    throw new AppError('INTERNAL', `Upload file ${file} has ${size} bytes where ${length} were written.`, { file })
  }
  if (size > length) await fh.truncate(length)
  return fh
}

async function appendAt(file: string, length: number, bytes: Uint8Array): Promise<number> {
  const fh = await openAt(file, length)
  try {
    let done = 0
    while (done < bytes.byteLength) {
      const { bytesWritten } = await fh.write(bytes, done, bytes.byteLength - done, length + done)
      done += bytesWritten
    }
    await fh.sync()
  } finally {
    await fh.close()
  }
  return length + bytes.byteLength
}

/** N/A values of a type, as the column file stores them. */
export function naValues(type: ColumnType, n: number): Int32Array | Float64Array | BigInt64Array {
  if (type === 'float') return new Float64Array(n).fill(NaN)
  if (type === 'bigint') return new BigInt64Array(n).fill(NA_BIGINT)
  return type === 'text' ? new Int32Array(n) : new Int32Array(n).fill(NA_INT)
}

/** A chunk of one column as appendColumn takes it: numbers as stored, text as distinct values and codes. */
export type ChunkValues = Int32Array | Float64Array | BigInt64Array | ChunkText

/**
 * Appends a chunk of one column. Text comes encoded by the chunk (ChunkText); its codes are
 * renumbered here into the upload's dictionary so far. Returns the column's new state; nothing is
 * recorded anywhere but in the files, so the caller commits the state only once every column is
 * written.
 */
export async function appendColumn(dir: string, uploadId: string, index: number, state: ChunkColumnState, values: ChunkValues): Promise<ChunkColumnState> {
  const type = state.type
  if (type === null) throw new AppError('INTERNAL', `Column ${index} of upload ${uploadId} has no type yet.`)
  if (type !== 'text') {
    const bytes = await appendAt(join(dir, columnFile(index)), state.bytes, bytesOf(values as Int32Array | Float64Array | BigInt64Array))
    return { ...state, bytes }
  }
  const dict = await textDictionary(dir, uploadId, index, state)
  const chunk = values as ChunkText
  // The upload's code of each of the chunk's values, in the chunk's order of first appearance,
  // so new values are numbered in the order of their first row, as a whole upload would number them.
  const upload = new Int32Array(chunk.values.length + 1)
  const added: string[] = []
  chunk.values.forEach((s, k) => {
    let code = dict.codes.get(s)
    if (code === undefined) {
      code = dict.codes.size + 1
      dict.codes.set(s, code)
      added.push(s)
    }
    upload[k + 1] = code
  })
  const codes = new Int32Array(chunk.codes.length)
  for (let r = 0; r < codes.length; r++) codes[r] = upload[chunk.codes[r]]
  // The in-memory dictionary already holds the new values: a failure below must drop it.
  dict.bytes = -1
  let dictBytes = state.dictBytes
  if (added.length > 0 || state.dictCount === 0) {
    const text = added.length === 0 ? '' : added.map((s) => JSON.stringify(s)).join('\n') + '\n'
    dictBytes = await appendAt(join(dir, dictJsonl(index)), state.dictBytes, Buffer.from(text, 'utf8'))
  }
  const bytes = await appendAt(join(dir, columnFile(index)), state.bytes, bytesOf(codes))
  dict.bytes = dictBytes
  return { ...state, bytes, dictCount: state.dictCount + added.length, dictBytes }
}

/** Appends `n` N/A values: the rows before a column's first real value. */
export function appendNa(dir: string, uploadId: string, index: number, state: ChunkColumnState, n: number): Promise<ChunkColumnState> {
  const type = state.type!
  return type === 'text'
    ? appendColumn(dir, uploadId, index, state, { values: [], codes: new Int32Array(n) })
    : appendColumn(dir, uploadId, index, state, naValues(type, n))
}

/**
 * Rewrites a number column's file in a wider type: an int column as big integers (a later chunk
 * had values past 32 bits) or floats, a big-integer column as floats (a later chunk had fractions).
 */
export async function widenNumbers(dir: string, index: number, state: ChunkColumnState, to: 'float' | 'bigint'): Promise<ChunkColumnState> {
  if (state.type === to) return state
  const file = join(dir, columnFile(index))
  const bytes = await readRange(file, 0, state.bytes)
  const out = widened(bytes, state.type === 'bigint' ? 'bigint' : 'int', to)
  const tmp = `${file}.widen`
  await rm(tmp, { force: true })
  await writeFileDurably(tmp, bytesOf(out))
  // The int file stays, under another name, until the state records the float one: a chunk that
  // fails after this (a full volume) must leave the column as it was (discardUnapplied).
  const narrow = `${file}.narrow`
  await rm(narrow, { force: true })
  await link(file, narrow).catch(() => copyFile(file, narrow))
  await rename(tmp, file)
  return { ...state, type: to, bytes: out.byteLength }
}

/** A column file's values (int32 or int64) in the wider type. */
function widened(bytes: Uint8Array, from: 'int' | 'bigint', to: 'float' | 'bigint'): Float64Array | BigInt64Array {
  const copy = bytes.slice()
  if (from === 'bigint') {
    // To floats: the nearest float64 of each big integer, as a column of decimals holds them.
    const src = new BigInt64Array(copy.buffer, 0, copy.byteLength / 8)
    return Float64Array.from(src, (v) => (v === NA_BIGINT ? NaN : Number(v)))
  }
  const src = new Int32Array(copy.buffer, 0, copy.byteLength / 4)
  if (to === 'float') return Float64Array.from(src, (v) => (v === NA_INT ? NaN : v))
  return BigInt64Array.from(src, (v) => (v === NA_INT ? NA_BIGINT : BigInt(v)))
}

const dictJsonl = (index: number): string => `c${index}.dict.jsonl`

// ---------------------------------------------------------------------------------------------
// text dictionaries, cached per process

interface CachedDict {
  codes: Map<string, number>
  /** Bytes of the .jsonl file this map reflects; -1 while a write is in flight (then not trusted). */
  bytes: number
}

/** Upload id → column index → dictionary. Small: a few uploads at a time per process. */
const textCache = new Map<string, Map<number, CachedDict>>()
const MAX_CACHED_UPLOADS = 8

export function dropTextCache(uploadId: string): void {
  textCache.delete(uploadId)
}

/**
 * The dictionary of a text column as the committed state has it. A map cached by this process is
 * reused when it reflects a prefix of the committed file (the file is append-only below the
 * committed length), and only the lines written since (by another process) are read.
 */
async function textDictionary(dir: string, uploadId: string, index: number, state: ChunkColumnState): Promise<CachedDict> {
  let perUpload = textCache.get(uploadId)
  if (!perUpload) {
    if (textCache.size >= MAX_CACHED_UPLOADS) textCache.delete(textCache.keys().next().value!)
    perUpload = new Map()
    textCache.set(uploadId, perUpload)
  }
  let dict = perUpload.get(index)
  if (!dict || dict.bytes < 0 || dict.bytes > state.dictBytes) {
    dict = { codes: new Map(), bytes: 0 }
    perUpload.set(index, dict)
  }
  if (dict.bytes < state.dictBytes) {
    const tail = await readRange(join(dir, dictJsonl(index)), dict.bytes, state.dictBytes)
    for (const line of tail.toString('utf8').split('\n')) {
      if (line !== '') dict.codes.set(JSON.parse(line) as string, dict.codes.size + 1)
    }
    dict.bytes = state.dictBytes
  }
  if (dict.codes.size !== state.dictCount) {
    perUpload.delete(index)
    throw new AppError(
      'INTERNAL',
      `Upload ${uploadId} column ${index}: the dictionary file has ${dict.codes.size} values where ${state.dictCount} were recorded.`,
    )
  }
  return dict
}

async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const fh = await open(file, 'r')
  try {
    // Its own ArrayBuffer at offset 0, so typed-array views of it are aligned.
    const buf = Buffer.from(new ArrayBuffer(to - from))
    let done = 0
    while (done < buf.length) {
      const { bytesRead } = await fh.read(buf, done, buf.length - done, from + done)
      if (bytesRead === 0) throw new AppError('INTERNAL', `Upload file ${file} ended after ${from + done} of ${to} bytes.`, { file })
      done += bytesRead
    }
    return buf
  } finally {
    await fh.close()
  }
}

// ---------------------------------------------------------------------------------------------
// commit: the files as a table version

/** What an upload holds, ready to become a version. */
export interface ChunkedSource {
  readonly dir: string
  readonly rows: number
  /** Final specs (every type decided) and, in the same order, the file states. */
  readonly columns: readonly ColumnSpec[]
  readonly states: readonly ChunkColumnState[]
}

/** A version whose rows come first (append mode): its meta and folder. */
export interface ChunkedBase {
  readonly meta: TableMeta
}

/** Rows per slice when files are streamed (renumbering codes, copying). */
const SLICE_ROWS = 1 << 18

/**
 * Writes the upload's files (after the rows of `base`, when appending) as a new immutable table
 * version and returns its metadata. Memory: one slice of rows per column plus the text
 * dictionaries.
 */
export async function writeChunkedVersion(
  dataDir: string,
  src: ChunkedSource,
  base: ChunkedBase | null,
  segmentRows: number = DEFAULT_SEGMENT_ROWS,
): Promise<TableMeta> {
  const baseRows = base?.meta.rows ?? 0
  // More than TABLE_SEGMENT_ROWS rows in all: the version is stored in row segments (segments.ts).
  const segments = segmentStartsFor(baseRows + src.rows, segmentRows)
  const meta: TableMeta = {
    version: newVersionId(),
    rows: baseRows + src.rows,
    columns: (base ? base.meta.columns : src.columns).map(cleanSpec),
    ...(segments !== undefined && { segments }),
    int64: true,
    createdAt: new Date().toISOString(),
  }
  await publishVersion(dataDir, meta, async (tmp) => {
    for (let i = 0; i < meta.columns.length; i++) {
      const spec = meta.columns[i]
      const state = src.states[i]
      // The base version's rows, from its one file or its row segments (segments.ts).
      const baseFile: BaseRows | null = base
        ? (from, to) => {
            const bytes = Buffer.from(new ArrayBuffer((to - from) * WIDTH[spec.type]))
            return readRowsInto(dataDir, base.meta, i, from, to, bytes).then(() => bytes)
          }
        : null
      const out = new ColumnOut(tmp, meta, i)
      if (spec.type !== 'text') {
        await numericColumn(out, join(src.dir, columnFile(i)), state.bytes, baseFile, baseRows, WIDTH[spec.type])
      } else {
        const baseDict = base ? (JSON.parse(await readFile(join(versionDir(dataDir, base.meta.version), dictFile(i)), 'utf8')) as string[]) : null
        const dict = await textColumn(out, src, i, baseFile, baseRows, baseDict)
        await writeFileDurably(join(tmp, dictFile(i)), JSON.stringify(dict))
      }
    }
  })
  return meta
}

/** Rows from … to-1 of a column of the base version, as bytes. */
type BaseRows = (from: number, to: number) => Promise<Buffer>

/** A numeric column: the base version's bytes (when appending), then the upload's. */
async function numericColumn(out: ColumnOut, file: string, bytes: number, baseFile: BaseRows | null, baseRows: number, width: number): Promise<void> {
  await cutTo(file, bytes)
  if (baseFile === null && out.single) {
    // A reflink where the file system has them, otherwise a plain copy.
    await copyFile(file, out.single, fsConstants.COPYFILE_FICLONE)
    await syncFile(out.single)
    return
  }
  let ok = false
  try {
    const sources: [(from: number, to: number) => Promise<Buffer>, number][] = [[(a, b) => readRange(file, a, b), bytes]]
    if (baseFile !== null) sources.unshift([(a, b) => baseFile(a / width, b / width), baseRows * width])
    for (const [read, n] of sources) {
      for (let off = 0; off < n; off += SLICE_ROWS * width) await out.write(await read(off, Math.min(n, off + SLICE_ROWS * width)))
    }
    ok = true
  } finally {
    await out.close(ok)
  }
}

/**
 * A text column: the codes renumbered into one sorted dictionary (the base version's values and
 * the upload's), as every version needs, so comparing codes compares strings.
 */
async function textColumn(
  out: ColumnOut,
  src: ChunkedSource,
  i: number,
  baseFile: BaseRows | null,
  baseRows: number,
  baseDict: string[] | null,
): Promise<string[]> {
  const state = src.states[i]
  const lines = state.dictBytes === 0 ? [] : (await readRange(join(src.dir, dictJsonl(i)), 0, state.dictBytes)).toString('utf8').split('\n')
  const added = lines.filter((l) => l !== '').map((l) => JSON.parse(l) as string)
  if (added.length !== state.dictCount)
    throw new AppError('INTERNAL', `Upload column ${i}: ${added.length} dictionary values where ${state.dictCount} were recorded.`)
  const all = baseDict ? [...new Set([...baseDict.slice(1), ...added])] : [...added]
  all.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const dict = ['', ...all]
  const position = new Map(dict.map((s, k) => [s, k]))
  const remapNew = new Int32Array(added.length + 1)
  added.forEach((s, k) => (remapNew[k + 1] = position.get(s)!))
  const remapBase = baseDict ? Int32Array.from(baseDict, (s) => position.get(s)!) : null
  const codesFile = join(src.dir, columnFile(i))
  await cutTo(codesFile, state.bytes)
  let ok = false
  try {
    const parts: [BaseRows, number, Int32Array][] = []
    if (baseFile && remapBase) parts.push([baseFile, baseRows, remapBase])
    parts.push([(a, b) => readRange(codesFile, a * 4, b * 4), src.rows, remapNew])
    for (const [read, rows, remap] of parts) {
      for (let r0 = 0; r0 < rows; r0 += SLICE_ROWS) {
        const n = Math.min(SLICE_ROWS, rows - r0)
        const slice = await read(r0, r0 + n)
        const codes = new Int32Array(slice.buffer, slice.byteOffset, n)
        for (let r = 0; r < n; r++) codes[r] = remap[codes[r]]
        await out.write(slice)
      }
    }
    ok = true
  } finally {
    await out.close(ok)
  }
  return dict
}

async function cutTo(file: string, bytes: number): Promise<void> {
  const fh = await openAt(file, bytes)
  await fh.close()
}

async function syncFile(file: string): Promise<void> {
  const fh = await open(file, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
