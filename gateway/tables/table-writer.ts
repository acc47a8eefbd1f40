/**
 * Writes table versions on a thread beside the gateway's (engine/storage/write-task.ts), so that
 * saving a large table never stalls other requests. The gateway's thread only hands the rows
 * over: numbers in one message (a memory copy), text in slices of about SLICE_CHARS characters
 * with a turn of the event loop between them, since copying hundreds of megabytes of strings in
 * one message took over a second. One pool per gateway process, its threads started on first use
 * and ended after a few idle seconds. The same threads build the SQLite image of a version when
 * an sql.js fallback query first needs it (buildSqliteImageOffThread): ending idle threads
 * returns the memory sql.js grew to meanwhile (WebAssembly memory never shrinks while its thread
 * lives), which a query worker would keep for good. And they read the CSV of upload chunks
 * (readChunkOffThread), two chunks at once.
 */
import { Piscina } from 'piscina'
import { MessageChannel } from 'node:worker_threads'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { AppError, fromPayload } from '../../shared/errors.js'
import type { TableMeta } from '../../shared/table.js'
import type { ChunkReadOutcome, ChunkReadTask, ReadChunk } from '../ingest/chunk-read-task.js'
import type { CellLimits, SqliteImageOutcome, SqliteImageTask, TableInput, TextSlice, WriteOutcome, WriteTask } from '../../engine/index.js'

const TASK_FILE = new URL('../../engine/storage/write-task-door.cjs', import.meta.url)
const IMAGE_TASK_FILE = new URL('../../engine/storage/sqlite-image-task-door.cjs', import.meta.url)
const CHUNK_TASK_FILE = new URL('../ingest/chunk-read-task-door.cjs', import.meta.url)
/** A writer thread idle this long ends (and gives its memory back); the next save starts one. */
const IDLE_MS = 5_000
/** Characters of text per message: copying 4 M characters takes a few milliseconds. */
const SLICE_CHARS = 4 * 1024 * 1024

let pool: Piscina | null = null

function writerPool(): Piscina {
  // Two threads: one large save does not hold up every other save of this gateway. Atomics off:
  // a task waits for its text slices on a port, which needs the thread's event loop running.
  pool ??= new Piscina({ filename: TASK_FILE.href, minThreads: 0, maxThreads: 2, idleTimeout: IDLE_MS, atomics: 'disabled' })
  return pool
}

/** Sends the text columns in slices, yielding to the event loop between them. */
async function sendText(port: MessageChannel['port1'], input: TableInput): Promise<void> {
  for (let c = 0; c < input.columns.length; c++) {
    if (input.columns[c].type !== 'text') continue
    const values = input.data[c] as readonly string[]
    let from = 0
    while (from < values.length) {
      let to = from
      let chars = 0
      while (to < values.length && (to === from || chars + values[to].length <= SLICE_CHARS)) chars += values[to++].length
      port.postMessage({ column: c, values: values.slice(from, to) } satisfies TextSlice)
      from = to
      await nextTurn()
    }
  }
  port.postMessage({ done: true } satisfies TextSlice)
}

/** writeTableVersion, off the event loop. */
export async function writeTableOffThread(dataDir: string, input: TableInput, limits: CellLimits, segmentRows?: number): Promise<TableMeta> {
  const { port1, port2 } = new MessageChannel()
  const data = input.columns.map((c, i) => (c.type === 'text' ? null : (input.data[i] as Int32Array | Float64Array)))
  let outcome: WriteOutcome
  try {
    const running = writerPool().run({ dataDir, columns: input.columns, data, limits, segmentRows, port: port2 } satisfies WriteTask, {
      transferList: [port2] as never,
    })
    const sent = sendText(port1, input)
    outcome = (await running) as WriteOutcome
    await sent
  } catch (err) {
    throw err instanceof AppError ? err : new AppError('INTERNAL', 'The table writer failed while writing the table.', {}, { cause: err })
  } finally {
    port1.close()
  }
  if (!outcome.ok) throw fromPayload(outcome.error)
  return outcome.meta
}

/** addSqliteImage, off the event loop: answers whether this call built the image (false: it was there). */
export async function buildSqliteImageOffThread(dataDir: string, version: string): Promise<boolean> {
  let outcome: SqliteImageOutcome
  try {
    outcome = (await writerPool().run({ dataDir, version } satisfies SqliteImageTask, { filename: IMAGE_TASK_FILE.href })) as SqliteImageOutcome
  } catch (err) {
    throw err instanceof AppError ? err : new AppError('INTERNAL', 'The table writer failed while building an SQLite image.', {}, { cause: err })
  }
  if (!outcome.ok) throw fromPayload(outcome.error)
  return outcome.built
}

/** readChunk (ingest/chunk-read-task.ts), off the event loop: two chunks are read at once, one a thread. */
export async function readChunkOffThread(task: ChunkReadTask): Promise<ReadChunk> {
  let outcome: ChunkReadOutcome
  try {
    outcome = (await writerPool().run(task, { filename: CHUNK_TASK_FILE.href })) as ChunkReadOutcome
  } catch (err) {
    throw err instanceof AppError ? err : new AppError('INTERNAL', 'The table writer failed while reading an upload chunk.', {}, { cause: err })
  }
  if (!outcome.ok) throw fromPayload(outcome.error)
  return outcome.chunk
}

export async function closeTableWriter(): Promise<void> {
  const p = pool
  pool = null
  await p?.destroy()
}
