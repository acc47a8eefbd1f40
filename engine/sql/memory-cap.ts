/**
 * The memory cap of SQLite in one engine worker (SQL_MEMORY_MB). Two defences, because a WASM
 * memory cannot shrink:
 *  - during a query, SQLite's own hard heap limit (a quarter below the cap, leaving room for
 *    sql.js's buffers and the allocator's fragmentation) makes an allocation past it fail, so a
 *    runaway query stops with SQLITE_NOMEM early instead of growing the heap to gigabytes;
 *  - after a task, a worker whose WASM memory passed the cap, or whose query ran out of memory
 *    (its heap grew to near the limit and stays there), is retired: it answers, then leaves the
 *    pool, and Piscina starts a fresh one, so the process's memory returns to its baseline.
 */
import { AppError } from '../../shared/errors.js'

/** The default when the gateway did not say (tests that build a worker by hand). */
export const DEFAULT_SQL_MEMORY_MB = 512

/** SQLite's hard_heap_limit for a cap: three quarters of it. */
export const sqliteHeapLimitBytes = (capMb: number): number => Math.floor((capMb * 1024 * 1024 * 3) / 4)

/** Whether an error from sql.js is SQLite running out of memory (SQLITE_NOMEM) or the WASM heap failing to grow. */
export function isOutOfMemory(message: string): boolean {
  return /out of memory|Cannot enlarge memory|memory access out of bounds/i.test(message)
}

export function sqlOutOfMemory(capMb: number): AppError {
  return new AppError(
    'SQL_OUT_OF_MEMORY',
    `The SQL query needed more than ${capMb} MB of memory (SQL_MEMORY_MB) and was stopped; narrow it (fewer rows or columns, a LIMIT, less sorting or grouping of large text), or ask the operator to raise the limit.`,
    { limitMb: capMb, limit: 'SQL_MEMORY_MB' },
  )
}
