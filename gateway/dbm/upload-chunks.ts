/**
 * Uploads in chunks: `upload_begin`, `upload_chunk` (any number, in order), `upload_commit` or
 * `upload_abort`. upload_table needs every row in one request and in memory; these take a large
 * file a few megabytes at a time with bounded memory on both sides.
 *
 * The state of an upload (its target, columns, rows so far and how many bytes of each column file
 * belong to applied chunks) lives in the Store under `upload:<id>`, expiring after SESSION_TTL
 * unused, and its files under DATA_DIR/chunked-uploads/<id> (engine/storage/chunked.ts). So any
 * gateway sharing the Store and DATA_DIR takes the next chunk. Chunks of one upload are applied
 * one at a time (a lock in the Store); a chunk either is applied whole (its bytes and the state
 * move together) or leaves nothing that is ever read.
 *
 * Types: a column declared in `cols` keeps its type. Otherwise the first chunk with a value
 * decides it, as upload_table infers types; a later chunk may widen int to float, and a date
 * column takes yyyymmdd numbers, but a chunk whose values do not fit the column (text in a
 * number column) is refused with the advice to declare the type.
 *
 * Permissions are upload_table's: write permission in the folder, and ownership of a table being
 * replaced or appended to, checked at begin (so a refused upload sends no data) and again at
 * commit (they may have changed). The commit writes a normal immutable version and switches the
 * catalog to it in one atomic step, exactly like upload_table.
 */
import { randomBytes } from 'node:crypto'
import {
  appendColumn,
  appendNa,
  checkCellLimits,
  createUploadDir,
  discardUnapplied,
  dropTextCache,
  emptyColumnState,
  isYmd,
  mapVolumeFull,
  removeTableVersion,
  removeUploadDir,
  sweepUploadDirs,
  uploadDir,
  widenToFloat,
  writeChunkedVersion,
  type ChunkColumnState,
  type ChunkValues,
} from '../../engine/index.js'
import { AppError } from '../../shared/errors.js'
import { checkPathSegments } from '../../shared/name-limits.js'
import type { Store } from '../../shared/store/types.js'
import { isFloat64Type, isValidPath, NA_INT, type ColumnSpec, type ColumnType } from '../../shared/table.js'
import { commitTable, lostCommitRace } from '../catalog/tables.js'
import { inTurn, keptChanging, raceBackoff } from '../catalog/races.js'
import { isOutcomeUnknown } from '../catalog/txn.js'
import { KEYS, parentPath, parseRecord, type TableRecord } from '../catalog/records.js'
import type { Principal } from '../catalog/principal.js'
import { canReplace, writableFolder } from '../catalog/write-access.js'
import { checkSameColumns } from '../tables/append.js'
import { uploadInput } from '../ingest/upload.js'
import { binaryRowsOf, withFileTypes, type DecodedUpload } from '../ingest/binary-tables.js'
import type { ReadChunk } from '../ingest/chunk-read-task.js'
import { readChunkOffThread } from '../tables/table-writer.js'
import { encodeText, type EncodedText } from '../../shared/csv/encoded-text.js'
import { tableView } from './common.js'
import { defineTransaction } from './define.js'
import { BINARY_ROW_PARAMS, checkedTableFields, inHomeFolder, TABLE_FIELDS, TARGET_PATH, UPLOAD_MODE } from './new-table.js'
import type { DbmContext, Transaction } from './registry.js'

type Mode = 'noreplace' | 'replace' | 'append'

interface ColumnState extends ChunkColumnState {
  readonly name: string
  /** True when `cols` gave the type (or the table appended to has it): never inferred. */
  readonly declared: boolean
  readonly label?: string
  readonly format?: string
  readonly desc?: string
  readonly width?: number
  readonly fixed?: boolean
}

/** What the Store holds for one upload. */
interface UploadState {
  readonly id: string
  readonly uid: string
  readonly path: string
  readonly mode: Mode
  readonly title?: string
  readonly sdesc?: string
  readonly ldesc?: string
  readonly users?: string[]
  readonly inherit?: boolean
  /** Null until the first chunk names the columns (when begin had no cols). */
  readonly columns: ColumnState[] | null
  readonly rows: number
  readonly chunks: number
  readonly created: string
}

const stateKey = (id: string): string => `upload:${id}`
const lockKey = (id: string): string => `upload-lock:${id}`
/** Set while a request carries chunk `seq` of the upload (see awaitTurn). */
const inFlightKey = (id: string, seq: number): string => `upload-chunk:${id}:${seq}`

/** How long a chunk may hold the lock; a commit refreshes its own while it works. */
const CHUNK_LOCK_SECONDS = 120
const COMMIT_LOCK_SECONDS = 120
/** How long a chunk waits for the one before it (sent to another gateway) to finish. */
const LOCK_WAIT_MS = 30_000
/** Folders younger than this (or than SESSION_TTL) are never swept: their state may be about to be written. */
const SWEEP_GRACE_MS = 10_000
const COMMIT_ATTEMPTS = 8

const UPLOAD_PARAM = { type: 'string', required: true, doc: 'The upload id that upload_begin answered.' } as const

// ---------------------------------------------------------------------------------------------
// state, lock, expiry

/** What the state helpers use of a request: the Store, how long an unused upload lives, and whose uploads they are. */
interface UploadAccess {
  readonly store: Store
  readonly sessionTtl: number
  readonly uid: string
}

const accessOf = (ctx: DbmContext): UploadAccess => ({ store: ctx.deps.store, sessionTtl: ctx.deps.config.sessionTtl, uid: ctx.user.uid })

async function readState({ store, sessionTtl, uid }: UploadAccess, id: string): Promise<UploadState> {
  const state = parseRecord<UploadState>(await store.get(stateKey(id)))
  // Another user's upload is reported exactly like a missing one.
  if (!state || state.uid !== uid) {
    throw new AppError(
      'NOT_FOUND',
      `No such upload "${id}": it was committed, aborted, or expired after ${sessionTtl} seconds without a chunk; begin a new one with upload_begin.`,
      { upload: id },
    )
  }
  return state
}

function writeState({ store, sessionTtl }: UploadAccess, state: UploadState): Promise<boolean> {
  return store.set(stateKey(state.id), JSON.stringify(state), { ttl: sessionTtl })
}

/** The end of an upload, committed or aborted: its state and its folder go. */
async function forgetUpload(store: Store, dataDir: string, id: string): Promise<void> {
  await store.del(stateKey(id))
  await removeUploadDir(dataDir, id)
}

interface Lock {
  release(): Promise<void>
  refresh(): Promise<boolean>
}

/**
 * Runs `work` on the upload's state read under its lock, which it holds until `work` is done.
 * The state is read once before too, so a missing (or someone else's) upload is refused at once
 * rather than after waiting for the lock.
 */
async function withLockedUpload<T>(
  access: UploadAccess,
  id: string,
  lockSeconds: number,
  signal: AbortSignal,
  work: (state: UploadState, held: Lock) => Promise<T>,
): Promise<T> {
  await readState(access, id)
  const held = await lock(access.store, id, lockSeconds, signal)
  try {
    return await work(await readState(access, id), held)
  } finally {
    await held.release()
  }
}

/** Takes the upload's lock, waiting while another chunk (perhaps on another gateway) holds it. */
async function lock(store: Store, id: string, seconds: number, signal: AbortSignal): Promise<Lock> {
  const token = randomBytes(8).toString('hex')
  const deadline = Date.now() + LOCK_WAIT_MS
  while (!(await store.set(lockKey(id), token, { nx: true, ttl: seconds }))) {
    if (Date.now() > deadline || signal.aborted) {
      throw new AppError('TOO_MANY_REQUESTS', `Upload "${id}" is busy with another chunk or its commit; send its chunks one at a time.`, {
        upload: id,
        retryAfter: 1,
      })
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  return {
    refresh: () => store.expire(lockKey(id), seconds),
    async release() {
      // Only our own lock: one that expired and was taken by someone else stays theirs.
      const watched = await store.watch([lockKey(id)])
      if (watched.values[0] === token) await store.batch([{ op: 'del', key: lockKey(id) }], watched)
    },
  }
}

/** Removes the folders of uploads whose state is gone (expired, or left by a process that died). */
function sweep(ctx: DbmContext): Promise<string[]> {
  return sweepUploads(ctx.deps.store, ctx.deps.config.dataDir, ctx.deps.config.sessionTtl)
}

function sweepUploads(store: Store, dataDir: string, sessionTtl: number): Promise<string[]> {
  const grace = Math.min(SWEEP_GRACE_MS, sessionTtl * 1000)
  return sweepUploadDirs(dataDir, async (id) => (await store.get(stateKey(id))) !== null, grace)
}

/**
 * At start, before serving: the folders of uploads that are over go at once, rather than at the
 * next upload_begin. With the embedded store that is every folder (an upload's state is not kept
 * across a restart, so none can go on); with Redis, those whose state is gone.
 */
export function removeEndedUploads(store: Store, dataDir: string, sessionTtl: number): Promise<string[]> {
  if (store.kind === 'memory') return sweepUploadDirs(dataDir, async () => false, 0)
  return sweepUploads(store, dataDir, sessionTtl)
}

// ---------------------------------------------------------------------------------------------
// permissions (upload_table's rules: see tables/save.ts)

function targetPath(uid: string, raw: string): string {
  const path = inHomeFolder(uid, raw)
  if (!isValidPath(path) || !path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `Invalid table name "${raw}": use a folder and a name separated by dots, such as uploads.${uid}.mytable.`, {
      parameter: 'path',
    })
  }
  checkPathSegments(path)
  return path
}

/** Checks the folder and the existing table against the mode; returns the table, if any. */
async function checkTarget(ctx: DbmContext, path: string, mode: Mode): Promise<TableRecord | null> {
  await writableFolder(ctx.deps.store, ctx.user, parentPath(path))
  const existing = parseRecord<TableRecord>(await ctx.deps.store.get(KEYS.table(path)))
  if (!existing) return null
  if (mode === 'noreplace') {
    throw new AppError(
      'TABLE_EXISTS',
      `Table already exists: "${path}"; send "mode": "replace" to replace it or "mode": "append" to add rows to it, or choose another name.`,
      { table: path },
    )
  }
  checkOwner(ctx, path, mode, existing)
  return existing
}

function checkOwner(ctx: DbmContext, path: string, mode: Mode, existing: TableRecord): void {
  if (!canReplace(ctx.user, existing)) {
    throw new AppError(
      'FORBIDDEN',
      `You do not own the table "${path}": only its owner or an administrator may ${mode === 'append' ? 'append to' : 'replace'} it; save under another name instead.`,
      { table: path },
    )
  }
}

// ---------------------------------------------------------------------------------------------
// upload_begin

/** The columns `cols` declares, checked exactly as upload_table checks them. */
function declaredColumns(cols: unknown[]): ColumnState[] {
  const { columns } = uploadInput({ cols, data: [] })
  return columns.map((spec, i) => {
    // Declared in any spelling upload_table takes (int, or the letter i that !cols reports).
    const col = cols[i]
    const typed = typeof col === 'object' && col !== null && 'type' in col && col.type !== undefined
    return {
      ...emptyColumnState(typed ? spec.type : null),
      name: spec.name,
      declared: typed,
      label: spec.label,
      format: spec.format,
      desc: spec.desc,
      width: spec.width,
      fixed: spec.fixed,
    }
  })
}

const UPLOAD_BEGIN = defineTransaction({
  name: 'upload_begin',
  summary: 'Begins an upload in chunks (upload_chunk, then upload_commit or upload_abort); answers its id.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it',
  params: {
    path: TARGET_PATH,
    mode: UPLOAD_MODE,
    cols: {
      type: 'array',
      doc: 'The columns, in order: [{name, type (int, float, text or date, or the letters i, j, f, a that !cols reports), label?, format?, desc?, width?, fixed?}]. Without it the first chunk names them; without a type the values decide it.',
    },
    ...TABLE_FIELDS,
  },
  async handler(ctx, p) {
    await sweep(ctx)
    const mode = p.mode ?? 'noreplace'
    const path = targetPath(ctx.user.uid, p.path)
    const fields = await checkedTableFields(ctx.deps.store, p)
    let columns = p.cols === undefined ? null : declaredColumns(p.cols)
    const existing = await checkTarget(ctx, path, mode)
    if (mode === 'append' && existing) {
      // Appended rows take the table's columns and types.
      if (columns)
        checkSameColumns(
          path,
          existing.columns,
          columns.map((c) => ({ name: c.name, type: c.type ?? existing.columns.find((e) => e.name.toLowerCase() === c.name.toLowerCase())?.type ?? 'text' })),
        )
      columns = existing.columns.map((c) => ({ ...emptyColumnState(c.type), name: c.name, declared: true }))
    }
    const id = `u${randomBytes(12).toString('hex')}`
    const state: UploadState = {
      id,
      uid: ctx.user.uid,
      path,
      mode,
      columns,
      rows: 0,
      chunks: 0,
      created: new Date().toISOString(),
      ...fields,
    }
    // The state first: a folder without state is what the sweeper removes.
    await writeState(accessOf(ctx), state)
    await createUploadDir(ctx.deps.config.dataDir, id)
    return { upload: id, path, mode, expires_in: ctx.deps.config.sessionTtl }
  },
})

// ---------------------------------------------------------------------------------------------
// upload_chunk

const UPLOAD_CHUNK = defineTransaction({
  name: 'upload_chunk',
  summary:
    'Adds rows to an upload begun with upload_begin: CSV text (with its header line), JSON data, or a Parquet file or Arrow stream, as for upload_table.',
  requires: 'the user who began the upload',
  params: {
    upload: UPLOAD_PARAM,
    seq: {
      type: 'integer',
      doc: 'The chunk number, from 1. With it, a chunk sent again (after a lost answer) is recognised and not applied twice, a missing one is reported, and chunks may be sent before the one before them is answered: each waits for its turn.',
    },
    csv: {
      type: 'any',
      doc: 'The rows as CSV text whose first line names the columns (the same line in every chunk). Or send the CSV itself as the request body (Content-Type: text/csv) with cmd in the query string.',
    },
    data: { type: 'any', doc: 'The rows as JSON, in any shape upload_table takes; instead of csv.' },
    ...BINARY_ROW_PARAMS,
  },
  oneOf: [['csv', 'data', 'parquet', 'arrow']],
  async handler(ctx, p) {
    const id = p.upload
    const access = accessOf(ctx)
    if (p.csv !== undefined && typeof p.csv !== 'string' && !(p.csv instanceof Uint8Array)) {
      throw new AppError('INVALID_PARAMETER', 'Transaction "upload_chunk": the parameter "csv" must be CSV text (a string).', { parameter: 'csv' })
    }
    // Decoded once, before the upload's state is read: an unreadable file changes nothing.
    const binary = await binaryRowsOf(
      p,
      (['csv', 'data'] as const).filter((n) => p[n] !== undefined),
    )
    const rows: ChunkRows = { csv: p.csv as string | Uint8Array | undefined, data: p.data, binary }
    const seen = await readState(access, id)
    const seq = p.seq
    if (seq !== undefined && seq <= seen.chunks) return { upload: id, rows: seen.rows, chunks: seen.chunks, duplicate: true }
    // Marked as on its way, so that the chunk after it waits for it rather than being refused.
    const marked = seq !== undefined && (await ctx.deps.store.set(inFlightKey(id, seq), '1', { nx: true, ttl: CHUNK_LOCK_SECONDS }))
    try {
      // Read before the lock: chunks sent together are read at once, on the table writer's threads.
      let chunk = await readRows(ctx, seen, rows)
      for (;;) {
        if (seq !== undefined) await awaitTurn(access, id, seq, ctx.signal)
        const done = await withLockedUpload(access, id, CHUNK_LOCK_SECONDS, ctx.signal, async (state) => {
          if (seq !== undefined && seq <= state.chunks) return { upload: id, rows: state.rows, chunks: state.chunks, duplicate: true }
          // Another chunk took the turn between awaitTurn and the lock: wait again.
          if (seq !== undefined && seq !== state.chunks + 1) return null
          // The chunk was read for the columns as they were; an earlier chunk may have settled them since.
          if (!sameReading(chunk.cols, readingCols(state))) chunk = await readRows(ctx, state, rows)
          const dir = uploadDir(ctx.deps.config.dataDir, id)
          // What an earlier chunk's failure or lost answer left is settled from the state (we hold the lock).
          await discardUnapplied(dir, state.columns)
          let next: UploadState
          try {
            next = await applyChunk(ctx, state, chunk.read)
          } catch (err) {
            // This process's dictionaries may hold values of the chunk that was not applied.
            dropTextCache(id)
            // "Nothing was saved" must be true on disk too: a chunk cut short by a full volume
            // had already written megabytes, and may have rewritten an int column as floats.
            await discardUnapplied(dir, state.columns).catch(() => undefined)
            throw err
          }
          try {
            await writeState(access, next)
          } catch (err) {
            // The files stay: a store that failed to answer may have recorded the new state after all.
            dropTextCache(id)
            throw err
          }
          // Recorded: a widened column's int copy is no longer needed.
          await discardUnapplied(dir, next.columns).catch(() => undefined)
          return { upload: id, rows: next.rows, chunks: next.chunks }
        })
        if (done) return done
      }
    } finally {
      if (marked) await ctx.deps.store.del(inFlightKey(id, seq)).catch(() => undefined)
    }
  },
})

/** A chunk's rows as sent: CSV (text, or the request's bytes), JSON data, or a decoded Parquet or Arrow file. */
interface ChunkRows {
  readonly csv?: string | Uint8Array
  readonly data?: unknown
  readonly binary?: DecodedUpload | null
}

type ReadingCols = { name: string; type?: ColumnType }[] | undefined

/** The columns a chunk is read against: names in order, and the types it must take. */
function readingCols(state: UploadState): ReadingCols {
  return state.columns?.map((c) => ({
    name: c.name,
    // Text accepts every value as it is written, so a text column is read as text from then on.
    ...(c.type !== null && (c.declared || c.type === 'text') ? { type: c.type } : {}),
  }))
}

const sameReading = (a: ReadingCols, b: ReadingCols): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * A chunk's rows read and typed against the upload's columns as `state` has them, with the cell
 * limits checked: CSV on a table writer's thread, JSON data here.
 */
async function readRows(ctx: DbmContext, state: UploadState, rows: ChunkRows): Promise<{ cols: ReadingCols; read: ReadChunk }> {
  const cols = readingCols(state)
  const limits = { maxCellBytes: ctx.deps.config.maxCellBytes, maxRowBytes: ctx.deps.config.maxRowBytes }
  if (rows.csv !== undefined) return { cols, read: await readChunkOffThread({ csv: rows.csv, cols, limits }) }
  // A Parquet or Arrow file types its columns where the upload has not settled them yet.
  const input = rows.binary ? uploadInput({ cols: withFileTypes(rows.binary, cols), data: rows.binary.data }) : uploadInput({ cols, data: rows.data })
  checkCellLimits(input.columns, input.data, limits)
  const data = input.data.map((values, i) =>
    input.columns[i].type === 'text' ? encodeText(values as readonly string[]) : (values as Int32Array | Float64Array),
  )
  return { cols, read: { columns: input.columns, data, rows: input.data[0]?.length ?? 0 } }
}

/**
 * Waits until chunk `seq` is the next to apply, while every chunk before it is on its way (marked
 * in flight by the request carrying it, on any gateway). A chunk before it that is neither applied
 * nor on its way is refused at once: the client skipped it.
 */
async function awaitTurn(access: UploadAccess, id: string, seq: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    const state = await readState(access, id)
    if (seq <= state.chunks + 1) return
    for (let before = state.chunks + 1; before < seq; before++) {
      if ((await access.store.get(inFlightKey(id, before))) !== null) continue
      // Applied meanwhile? Then look again from the new state.
      if ((await readState(access, id)).chunks >= before) break
      throw new AppError(
        'INVALID_PARAMETER',
        `Chunk ${seq} of upload "${id}" came before chunk ${before}, which was not sent or was refused; send the chunks in order.`,
        { parameter: 'seq' },
      )
    }
    if (Date.now() > deadline || signal.aborted) {
      throw new AppError('TOO_MANY_REQUESTS', `Upload "${id}" is busy with the chunks before chunk ${seq}; send fewer chunks at once.`, {
        upload: id,
        retryAfter: 1,
      })
    }
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Writes one chunk's values after the rows so far; returns the new state (not yet stored). */
function applyChunk(ctx: DbmContext, state: UploadState, input: ReadChunk): Promise<UploadState> {
  // A full volume while appending answers 507, as a full volume at commit does.
  return mapVolumeFull(() => appendChunk(ctx, state, input))
}

async function appendChunk(ctx: DbmContext, state: UploadState, input: ReadChunk): Promise<UploadState> {
  const n = input.rows
  const dir = uploadDir(ctx.deps.config.dataDir, state.id)
  const before = state.columns ?? input.columns.map((c): ColumnState => ({ ...emptyColumnState(null), name: c.name, declared: false }))
  // Every value is checked before any byte is written, so a refused chunk writes nothing.
  const values = before.map((col, i) => reconcile(state, col, input.columns[i], input.data[i]))
  // Columns are separate files: written at once, their fsyncs overlap instead of queueing.
  const after = await Promise.all(before.map((col, i) => appendColumnChunk(dir, state, i, col, values[i], n)))
  return { ...state, columns: after, rows: state.rows + n, chunks: state.chunks + 1 }
}

/** One column's part of a chunk: its values (null: only N/A, for a column that may have no type yet). */
async function appendColumnChunk(
  dir: string,
  state: UploadState,
  i: number,
  before: ColumnState,
  values: { type: ColumnType; values: ChunkValues } | null,
  n: number,
): Promise<ColumnState> {
  let col = before
  if (values === null) {
    // Only N/A so far: written once a chunk decides the type.
    return col.type === null ? col : { ...col, ...(await appendNa(dir, state.id, i, col, n)) }
  }
  if (col.type === null) {
    col = { ...col, type: values.type }
    if (state.rows > 0) col = { ...col, ...(await appendNa(dir, state.id, i, col, state.rows)) }
  } else if (col.type !== values.type && (col.type === 'int' || col.type === 'bigint') && isFloat64Type(values.type)) {
    col = { ...col, ...(await widenToFloat(dir, i, col, values.type)) }
  }
  return { ...col, ...(await appendColumn(dir, state.id, i, col, values.values)) }
}

/**
 * The chunk's values of one column in the column's type, deciding or widening the type where the
 * values allow it; null when the chunk has only N/A for a column that has no type yet (or for
 * which N/A is all it has). Throws when the values do not fit.
 */
function reconcile(state: UploadState, col: ColumnState, spec: ColumnSpec, values: ChunkValues): { type: ColumnType; values: ChunkValues } | null {
  const allNa = isAllNa(spec.type, values)
  if (allNa && (col.type === null || spec.type !== col.type)) return null
  if (col.type === null || col.type === spec.type) return { type: spec.type, values }
  // Numbers widen: int to bigint to float, the column's file rewritten (or relabelled) once.
  if ((col.type === 'int' && isFloat64Type(spec.type)) || (col.type === 'bigint' && spec.type === 'float')) return { type: spec.type, values }
  if (col.type === 'float' && spec.type === 'bigint') return { type: 'float', values }
  if (isFloat64Type(col.type) && spec.type === 'int')
    return { type: col.type, values: Float64Array.from(values as Int32Array, (x) => (x === NA_INT ? NaN : x)) }
  if (col.type === 'date' && spec.type === 'int' && (values as Int32Array).every((x) => x === NA_INT || isYmd(x))) return { type: 'date', values }
  throw new AppError(
    'INVALID_PARAMETER',
    `Column "${col.name}" was read as ${col.type} from the first ${state.rows} rows, but chunk ${state.chunks + 1} has ${spec.type} values in it; declare the column's type in "cols" of upload_begin (for example {"name": "${col.name}", "type": "text"}) and upload again.`,
    { parameter: 'cols', column: col.name },
  )
}

function isAllNa(type: ColumnType, values: ChunkValues): boolean {
  if (type === 'text') return (values as EncodedText).values.length === 0
  if (isFloat64Type(type)) return (values as Float64Array).every((x) => Number.isNaN(x))
  return (values as Int32Array).every((x) => x === NA_INT)
}

// ---------------------------------------------------------------------------------------------
// upload_commit, upload_abort

const UPLOAD_COMMIT = defineTransaction({
  name: 'upload_commit',
  summary: 'Saves the rows of an upload as the table, in one atomic step as upload_table does; answers the table.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it (checked again now)',
  params: { upload: UPLOAD_PARAM },
  async handler(ctx, p) {
    const id = p.upload
    const { store, config } = ctx.deps
    return withLockedUpload(accessOf(ctx), id, COMMIT_LOCK_SECONDS, ctx.signal, async (state, held) => {
      // A large commit (copying and renumbering millions of rows) takes a while: keep the lock and the
      // upload alive meanwhile.
      const keepAlive = setInterval(() => {
        void held.refresh().catch(() => undefined)
        void store.expire(stateKey(id), config.sessionTtl).catch(() => undefined)
      }, 10_000)
      try {
        // Appends to one table take turns on this gateway (see catalog/races.ts).
        const saved = await (state.mode === 'append' ? inTurn(state.path, () => commitUpload(ctx, state)) : commitUpload(ctx, state))
        await forgetUpload(store, config.dataDir, id)
        return tableView(saved, { cols: true })
      } finally {
        clearInterval(keepAlive)
      }
    })
  },
})

async function commitUpload(ctx: DbmContext, state: UploadState): Promise<TableRecord> {
  if (!state.columns) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Upload "${state.id}" has no columns: send at least one chunk (or declare "cols" in upload_begin) before committing.`,
      { upload: state.id },
    )
  }
  const columns = state.columns
  // A column that never had a value is text, as upload_table infers it.
  const specs: ColumnSpec[] = columns.map((c) => ({
    name: c.name,
    type: c.type ?? 'text',
    ...(c.label !== undefined && { label: c.label }),
    ...(c.format !== undefined && { format: c.format }),
    ...(c.desc !== undefined && { desc: c.desc }),
    ...(c.width !== undefined && { width: c.width }),
    ...(c.fixed && { fixed: true }),
  }))
  const dir = uploadDir(ctx.deps.config.dataDir, state.id)
  await discardUnapplied(dir, columns)
  const states = await Promise.all(columns.map((c, i) => (c.type === null ? appendNa(dir, state.id, i, { ...c, type: 'text' }, state.rows) : c)))
  const owner: Principal = ctx.user
  for (let attempt = 1; ; attempt++) {
    const existing = await checkTarget(ctx, state.path, state.mode)
    const base = state.mode === 'append' && existing ? existing : null
    if (base) checkSameColumns(state.path, base.columns, specs)
    const meta = await writeChunkedVersion(
      ctx.deps.config.dataDir,
      { dir, rows: state.rows, columns: specs, states },
      base ? { meta: await ctx.deps.tables.meta(base.version) } : null,
      ctx.deps.config.tableSegmentRows,
    )
    try {
      const init = {
        path: state.path,
        owner: owner.uid,
        title: state.title,
        sdesc: state.sdesc,
        ldesc: state.ldesc,
        users: state.users,
        inherit: state.inherit,
      }
      // A replacement takes whatever the table became meanwhile (its owner checked again); an
      // append was built from `existing` and must find it still there.
      const opts =
        state.mode === 'replace'
          ? { replacing: (now: TableRecord | null) => void (now && checkOwner(ctx, state.path, state.mode, now)) }
          : existing
            ? { expectVersion: existing.version }
            : { mustNotExist: true }
      return await commitTable(ctx.deps.store, init, meta, opts)
    } catch (err) {
      // When the Store cannot say whether the commit landed, the version may be live: keep it.
      if (!isOutcomeUnknown(err)) await removeTableVersion(ctx.deps.config.dataDir, meta.version).catch(() => undefined)
      if (isOutcomeUnknown(err) || !lostCommitRace(err)) throw err
      if (state.mode === 'noreplace') {
        throw new AppError(
          'TABLE_EXISTS',
          `Table already exists: "${state.path}" (it was created while this upload was sent); begin a new upload with "mode": "replace", or choose another name.`,
          { table: state.path },
        )
      }
      if (attempt === COMMIT_ATTEMPTS) throw await keptChanging(ctx.deps.store, state.path, existing, 'send upload_commit again')
      await raceBackoff(attempt)
    }
  }
}

const UPLOAD_ABORT = defineTransaction({
  name: 'upload_abort',
  summary: 'Abandons an upload: its rows are deleted and nothing is saved.',
  requires: 'the user who began the upload',
  params: { upload: UPLOAD_PARAM },
  async handler(ctx, p) {
    const id = p.upload
    return withLockedUpload(accessOf(ctx), id, CHUNK_LOCK_SECONDS, ctx.signal, async () => {
      await forgetUpload(ctx.deps.store, ctx.deps.config.dataDir, id)
      return { upload: id, aborted: true }
    })
  },
})

export const UPLOAD_CHUNK_TRANSACTIONS: readonly Transaction[] = [UPLOAD_BEGIN, UPLOAD_CHUNK, UPLOAD_COMMIT, UPLOAD_ABORT]
