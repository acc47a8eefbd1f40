/**
 * Writes table versions on a thread beside the gateway's (engine/storage/write-task.ts), so that
 * saving a large table never stalls other requests: the event loop only hands the rows over
 * (a structured copy) and waits. One thread per gateway, started on first use and ended after a
 * few idle seconds, which also returns the memory sql.js grew to while building a large SQLite
 * image (WASM memory never shrinks while its thread lives).
 */
import { Piscina } from 'piscina'
import { AppError, fromPayload } from '../../shared/errors.js'
import type { TableMeta } from '../../shared/table.js'
import type { CellLimits } from '../../engine/storage/cell-limits.js'
import type { TableInput } from '../../engine/storage/index.js'
import type { WriteOutcome, WriteTask } from '../../engine/storage/write-task.js'

const TASK_FILE = new URL('../../engine/storage/write-task.js', import.meta.url)
/** A writer thread idle this long ends (and gives its memory back); the next save starts one. */
const IDLE_MS = 5_000

let pool: Piscina | null = null

function writerPool(): Piscina {
  // Two threads: one large save does not hold up every other save of this gateway.
  pool ??= new Piscina({ filename: TASK_FILE.href, minThreads: 0, maxThreads: 2, idleTimeout: IDLE_MS, atomics: 'disabled' })
  return pool
}

/** writeTableVersion, off the event loop. */
export async function writeTableOffThread(dataDir: string, input: TableInput, limits: CellLimits): Promise<TableMeta> {
  let outcome: WriteOutcome
  try {
    outcome = (await writerPool().run({ dataDir, input, limits } satisfies WriteTask)) as WriteOutcome
  } catch (err) {
    throw new AppError('INTERNAL', 'The table writer failed while writing the table.', {}, { cause: err })
  }
  if (!outcome.ok) throw fromPayload(outcome.error)
  return outcome.meta
}

export async function closeTableWriter(): Promise<void> {
  const p = pool
  pool = null
  await p?.destroy()
}
