/**
 * A macro query over a table larger than TABLE_CACHE_MB (docs/large-tables.md). Such a table comes
 * in its task as an empty window (run.ts); here the query runs as the parallel split's phases
 * (engine/parallel/driver.ts) over windows of TABLE_SEGMENT_ROWS rows, each part handed the rows
 * of its own window alone, read from the row segments that hold them just before it runs and let
 * go when it answers. At most as many parts run at once as the split would use (PARALLEL_PARTS,
 * else WORKERS), each reading into a set of buffers of the gateway's window pool (window-pool.ts), so the
 * table's memory is that many windows, reused, whatever its size.
 * Queries that need the whole table at once are refused with a 413 naming TABLE_CACHE_MB.
 */
import type { ResultSet, RunTask, TableInput } from '../../shared/protocol.js'
import { PROGRESS_LENGTH } from '../../shared/protocol.js'
import { currentBlockRows, driveSplitRun, planOf, windowRanges, windowRefusal } from '../../engine/index.js'
import { tableBytes, tableTooLarge } from '../tables/table-cache.js'
import type { PoolServices } from './deps.js'
import type { RunControl, WindowReader } from './run-control.js'
import type { QuerySignal } from './query-signal.js'
import { followProgress } from './parallel.js'
import { followFallbacks } from './fallbacks.js'

/** The tables of a task that come as windows: those larger than TABLE_CACHE_MB. */
export const windowedTables = (task: RunTask): TableInput[] => task.tables.filter((t) => t.firstRow !== undefined)

/** The 413 for a query that needs the whole of a larger-than-cache table, with why. */
function refused(deps: PoolServices, table: TableInput, why: string): Error {
  const meta = { version: table.version, rows: table.rows, columns: table.columns.map((c) => c.spec), createdAt: '' }
  return tableTooLarge(table.path, tableBytes(meta), deps.config.tableCacheBytes, why)
}

/** Runs the query window by window over its larger-than-cache table, or refuses it (413). */
export async function runWindowed(deps: PoolServices, task: RunTask, query: QuerySignal, control: RunControl, read: WindowReader): Promise<ResultSet> {
  const big = windowedTables(task)
  const plan = planOf(task)
  const why = windowRefusal(
    task,
    plan,
    big.map((t) => t.path),
  )
  if (why !== null || plan === null) throw refused(deps, big[0], why ?? 'the query needs all of its rows at once')
  const table = big[0]
  const blockRows = currentBlockRows()
  const ranges = windowRanges(plan, table.rows, deps.config.tableSegmentRows, blockRows)
  return followFallbacks(() => driveSplitRun(plan, task, ranges, blockRows, (tasks) => runPhase(deps, tasks, table, query, control, read)), {
    // The data declined the split; run whole, the query would need the whole table at once.
    whole: (why) => Promise.reject(refused(deps, table, `its data cannot be split (${why})`)),
  })
}

/**
 * One phase's tasks, at most `parts` at once, in range order. A part's window is read just before
 * it runs. A part of the rows phase is asked for no more rows than the parts before it left
 * room for under the row limit (it still counts the rest), so the answer in hand stays within
 * MAX_RESULT_ROWS however many windows match.
 */
async function runPhase(
  deps: PoolServices,
  tasks: readonly RunTask[],
  table: TableInput,
  query: QuerySignal,
  control: RunControl,
  read: WindowReader,
): Promise<ResultSet[]> {
  const parts = Math.max(1, deps.config.parallelParts ?? deps.config.workers)
  const cells = tasks.map(() => new SharedArrayBuffer(PROGRESS_LENGTH * Int32Array.BYTES_PER_ELEMENT))
  const stopFollowing = followProgress(control.progress?.buffer, cells)
  const answers: ResultSet[] = new Array<ResultSet>(tasks.length)
  let next = 0
  const one = async (i: number): Promise<void> => {
    let t: RunTask = tasks[i]
    if (t.part !== undefined) {
      const { start, end } = t.part
      if (t.part.phase === 'rows') {
        const before = answers.slice(0, i).reduce((n, a) => n + (a === undefined ? 0 : (a.totalRows ?? a.rowCount)), 0)
        t = { ...t, maxRows: Math.max(0, t.maxRows - before) }
      }
      // The window goes into a set of buffers of the pool, given back once the part answered (window-pool.ts).
      const buffers = await read.pool.acquire(query.signal)
      try {
        const window = await read.read(table, start, end, buffers)
        query.signal.throwIfAborted()
        t = { ...t, tables: t.tables.map((x) => (x.path === table.path ? window : x)) }
        answers[i] = buffers.detach(await run(t, i))
      } finally {
        read.pool.release(buffers)
      }
      return
    }
    answers[i] = await run(t, i)
  }
  const run = (t: RunTask, i: number) =>
    deps.runner.run({ ...t, progress: cells[i] }, { signal: query.signal, maxQueue: deps.config.maxQueue, user: control.user })
  const lane = async (): Promise<void> => {
    while (next < tasks.length) await one(next++)
  }
  try {
    await Promise.all(
      Array.from({ length: Math.min(parts, tasks.length) }, () =>
        lane().catch((e: unknown) => {
          // The first failure is the query's answer; the other lanes stop with it.
          query.abort(e)
          throw e
        }),
      ),
    )
    return answers
  } finally {
    stopFollowing()
  }
}
