/**
 * Parallel scans (issue 9): a macro query over a large base table runs as one row range per
 * worker at once, since every worker reads the same shared column memory. engine/parallel/plan.ts
 * decides which queries split and driver.ts what each phase asks of the workers: the parts, and
 * the merge of their partials, which is a worker task too (issue 18: a merge, and the operations
 * after a split `<tabu>`, used to run on this thread, where nothing could stop them and every other
 * request waited). This file runs each phase's tasks on the pool together under the
 * query's one signal (query-signal.ts): a stop, a disconnect or the time limit stops every task,
 * and one failing fails the query and stops the others. Progress (`!status`) is the phase's average.
 */
import { PROGRESS_LENGTH, PROGRESS_SCALE, PROGRESS_SLOTS, type ResultSet, type RunTask } from '../../shared/protocol.js'
import { currentBlockRows, driveSplitRun, partRanges, planOf, splitRows } from '../../engine/index.js'
import { followFallbacks, goesOnWhole } from './fallbacks.js'
import type { PoolServices } from './deps.js'
import type { RunControl } from './run-control.js'
import type { QuerySignal } from './query-signal.js'

/** How often the parts' progress is summed into the query's cell. */
const PROGRESS_EVERY_MS = 100

/** The parts the query would run in, or 0 when it runs whole on one worker. */
function partsFor(deps: PoolServices, rows: number): number {
  const parts = deps.config.parallelParts ?? deps.config.workers
  if (parts <= 1 || deps.config.workers <= 1 || rows < deps.config.parallelMinRows) return 0
  return parts
}

/** Sums the parts' progress cells into the query's, as an average over the parts. */
export function followProgress(target: SharedArrayBuffer | undefined, cells: readonly SharedArrayBuffer[]): () => void {
  if (target === undefined) return () => undefined
  const out = new Int32Array(target)
  const views = cells.map((c) => new Int32Array(c))
  const tick = () => {
    let done = 0
    let total = 0
    for (const v of views) {
      done += Atomics.load(v, PROGRESS_SLOTS.done)
      total = Math.max(total, Atomics.load(v, PROGRESS_SLOTS.total))
    }
    if (total === 0) return
    Atomics.store(out, PROGRESS_SLOTS.total, total)
    Atomics.store(out, PROGRESS_SLOTS.done, Math.min(Math.round(done / views.length), total * PROGRESS_SCALE))
  }
  const timer = setInterval(tick, PROGRESS_EVERY_MS)
  return () => {
    clearInterval(timer)
    tick()
  }
}

/**
 * Runs the query split over the workers, or answers null when it is not one to split (no plan, a
 * small table, one worker, PARALLEL_PARTS=1, or data the plan declines): the caller then runs it
 * whole as before.
 */
export async function runParallel(deps: PoolServices, task: RunTask, query: QuerySignal, control: RunControl): Promise<ResultSet | null> {
  if (task.part !== undefined || task.merge !== undefined) return null
  const plan = planOf(task)
  if (plan === null || !task.tables.some((t) => t.path === plan.table)) return null
  const parts = partsFor(deps, splitRows(plan, task))
  if (parts === 0) return null
  const sumBlockRows = currentBlockRows()
  const ranges = partRanges(plan, task, parts, sumBlockRows)
  if (ranges.length < 2) return null
  return followFallbacks(() => driveSplitRun(plan, task, ranges, sumBlockRows, (tasks) => runPhase(deps, tasks, query, control)), {
    // The data declined the split: null, and the caller runs the task whole.
    whole: async () => null,
  })
}

async function runPhase(deps: PoolServices, tasks: readonly RunTask[], query: QuerySignal, control: RunControl): Promise<ResultSet[]> {
  const cells = tasks.map(() => new SharedArrayBuffer(PROGRESS_LENGTH * Int32Array.BYTES_PER_ELEMENT))
  const stopFollowing = followProgress(control.progress?.buffer, cells)
  try {
    return await Promise.all(
      tasks.map((t, i) =>
        deps.runner.run({ ...t, progress: cells[i] }, { signal: query.signal, maxQueue: deps.config.maxQueue, user: control.user }).catch((e: unknown) => {
          // The first failure is the query's answer (Promise.all keeps the first); the other parts
          // are stopped. Not so when the data decline the plan: the query then runs whole under the
          // same signal, and the other parts, which decline alike or finish, are left to end.
          if (!goesOnWhole(e)) query.abort(e)
          throw e
        }),
      ),
    )
  } finally {
    stopFollowing()
  }
}
