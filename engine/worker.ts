/**
 * The Piscina task entry. sql.js is loaded once per worker thread at module scope; the handler is
 * a function of plain data. Errors never cross the thread boundary as classes: the worker answers
 * `{ ok: false, error }` with a plain payload, and the gateway rebuilds the AppError; a fallback
 * (task/outcome.ts) is answered as `{ ok: false, fallback }`.
 */
import { Piscina } from 'piscina'
import { workerData } from 'node:worker_threads'
import { AppError, toPayload } from '../shared/errors.js'
import type { EngineTask, ResultSet } from '../shared/protocol.js'
import { SqlExecutor } from './sql/execute.js'
import { executeRunTask } from './task/execute.js'
import { FallbackError, type TaskOutcome } from './task/outcome.js'
import { withProgress } from './interpret/run.js'
import { loadMeasuredSqlJs } from './sql/wasm-heap.js'
import { DEFAULT_SQL_MEMORY_MB } from './sql/memory-cap.js'
import { retireThisWorker, type WorkerSetup } from './retire.js'
import { resultForPosting, taskAfterReceiving } from './parallel/wire-dictionaries.js'

const setup = (workerData ?? {}) as Partial<WorkerSetup>
const sqlMemoryMb = setup.sqlMemoryMb ?? DEFAULT_SQL_MEMORY_MB
const sqlJs = await loadMeasuredSqlJs()
const sqlExecutor = new SqlExecutor(sqlJs.sql, sqlMemoryMb)

/**
 * After an SQL task: a worker whose SQLite heap grew past SQL_MEMORY_MB, or ran out of memory,
 * keeps that memory for good (WASM memory never shrinks), so it leaves the pool (memory-cap.ts).
 */
function retireIfSwollen(): void {
  if (sqlExecutor.exhausted || sqlJs.heapBytes() > sqlMemoryMb * 1024 * 1024) retireThisWorker(setup.retiring)
}

/** An SQL task, or a macro query's `run` task: whole, one part or one merge, all one path (engine/task/execute.ts). */
function answer(task: EngineTask): ResultSet {
  switch (task.kind) {
    case 'sql':
      try {
        return sqlExecutor.run(task)
      } finally {
        retireIfSwollen()
      }
    case 'run':
      return withProgress(task.progress, () => executeRunTask(task))
    default: {
      const never: never = task
      throw new AppError('INTERNAL', `Unknown task ${JSON.stringify(never)}`)
    }
  }
}

/** Numeric result columns are moved back to the gateway, not copied. */
function withTransferList(outcome: TaskOutcome): unknown {
  if (!outcome.ok) return outcome
  // Columns read straight from a table live in shared memory, which is shared, not moved.
  const buffers = new Set<ArrayBuffer>()
  for (const c of outcome.result.columns) {
    const data = c.kind === 'coded' ? c.codes : c.kind === 'text' ? null : c.data
    if (data !== null && data.buffer instanceof ArrayBuffer) buffers.add(data.buffer)
  }
  // move() marks the wrapper so Piscina posts `outcome` with the buffers in its transfer list.
  return Piscina.move({ [Piscina.transferableSymbol]: [...buffers], [Piscina.valueSymbol]: outcome } as never)
}

/**
 * Test hook (fault injection) for test/faults/: how the gateway copes with a worker that fails
 * like a bug would. Active only while the worker's environment has TABULA_TEST_FAULTS=1, which no
 * configuration, default or deployment file sets; without it this is one string comparison per
 * task and changes nothing. When active, an SQL query containing the text literal
 * 'tabula-test-fault:<kind>' fails in that way instead of running:
 *  - throw:    the engine throws a plain Error (not an AppError), as a bug in a function would;
 *  - exit:     the worker thread calls process.exit mid-task and is gone;
 *  - uncaught: an exception escapes from a timer while the task is pending, which ends the thread.
 * There is no real way to make the engine do the last two on purpose, which is why the hook exists.
 */
const FAULT_MARK = /'tabula-test-fault:(throw|exit|uncaught)'/

function injectedFault(task: EngineTask): Promise<never> | undefined {
  if (process.env.TABULA_TEST_FAULTS !== '1' || task.kind !== 'sql') return undefined
  const kind = FAULT_MARK.exec(task.sql)?.[1]
  if (kind === undefined) return undefined
  if (kind === 'throw') throw new Error('injected fault: the engine threw a plain Error')
  if (kind === 'exit') process.exit(70)
  setTimeout(() => {
    throw new Error('injected fault: an uncaught exception in the worker')
  }, 10)
  // Never settles: the thread dies first, and Piscina fails the task.
  return new Promise<never>(() => undefined)
}

/** The Piscina entry: one posted task in, its outcome out (never a thrown error): a result, an error or a fallback. */
export default function handleTask(posted: EngineTask): unknown {
  try {
    const task = taskAfterReceiving(posted)
    const fault = injectedFault(task)
    if (fault !== undefined) return fault
    return withTransferList({ ok: true, result: resultForPosting(answer(task)) })
  } catch (err) {
    if (err instanceof FallbackError) return { ok: false, fallback: err.fallback } satisfies TaskOutcome
    const e = err instanceof AppError ? err : new AppError('INTERNAL', 'Internal error in the query engine.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) } satisfies TaskOutcome
  }
}
