/**
 * The gateway's end of a query's progress cell (layout in shared/protocol.ts): one per tracked
 * query, handed to the worker inside the task, read here while the query runs. Reading is two
 * atomic loads, so the running record can sample it as often as it likes.
 */
import { PROGRESS_LENGTH, PROGRESS_SCALE, PROGRESS_SLOTS } from '../../../shared/protocol.js'

/** How far a query got, in top-level operations; `done` may be fractional (inside an operation). */
export interface Progress {
  readonly done: number
  readonly total: number
}

export class ProgressCell {
  /** What goes into the task (RunTask.progress); shared memory, so the worker writes what we read. */
  readonly buffer = new SharedArrayBuffer(PROGRESS_LENGTH * Int32Array.BYTES_PER_ELEMENT)
  private readonly view = new Int32Array(this.buffer)
  /** Which engine runs an SQL query, once the gateway has chosen (null for macro queries and until then). */
  engine: 'columnar' | 'sqlite' | null = null

  /** The engine's latest report; null until it knows how many steps there are (always, for SQL). */
  read(): Progress | null {
    const total = Atomics.load(this.view, PROGRESS_SLOTS.total)
    if (total <= 0) return null
    const done = Atomics.load(this.view, PROGRESS_SLOTS.done) / PROGRESS_SCALE
    return { done: Math.min(done, total), total }
  }
}
