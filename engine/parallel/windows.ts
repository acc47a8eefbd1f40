/**
 * Queries over a table larger than TABLE_CACHE_MB (docs/large-tables.md): which ones can run a
 * window of rows at a time, and the windows. The gateway never holds such a table whole; each part
 * of the split run (plan.ts) gets the rows of its range alone (TableInput.firstRow), and the
 * parts' partials are merged as in any split run, so the answer is the one a whole run gives.
 */
import type { RunTask } from '../../shared/protocol.js'
import type { Op } from '../ast.js'
import { checkedOpsOf } from '../check/index.js'
import type { RowRange } from './blocks.js'
import { summarises, type ParallelPlan } from './plan.js'

/** Whether `path` is read by any operation other than the `<base>` (links, merges, at any depth). */
function readsElsewhere(ops: readonly Op[], path: string): boolean {
  return ops.some((op) => (op.kind === 'Link' || op.kind === 'Merge') && (op.table2 === path || readsElsewhere(op.ops, path)))
}

/**
 * Why the query cannot run window by window over the larger-than-cache tables `paths`, in words
 * for the 413 that names TABLE_CACHE_MB; null when it can.
 */
export function windowRefusal(task: RunTask, plan: ParallelPlan | null, paths: readonly string[]): string | null {
  if (paths.length > 1) return `the query reads ${paths.length} such tables (${paths.join(', ')}), and only one can be read in segments`
  const [path] = paths
  if (readsElsewhere(checkedOpsOf(task), path)) return 'the query links or merges it into another table, which needs all of its rows at once'
  if (plan === null) {
    return 'the query needs all of its rows at once (a sort, a cross-tabulation or rollup, an expanding link, a g_ function that is not a sum, count, average, minimum, maximum, first or last, …)'
  }
  if (plan.table !== path) return 'it is not the base table of the query'
  if (plan.merge !== null) return 'the query merges tables, which is not run in segments'
  if (plan.partitionSteps.length > 0)
    return 'a g_ function of the query needs each group whole (only g_sum, g_cnt, g_avg, g_min, g_max, g_first and g_last run in segments)'
  return null
}

/**
 * The windows of a table of `rows` rows: `segmentRows` rows each, rounded up to whole summing
 * blocks when the plan sums, so that every sum is added in the same blocks as a whole run's.
 */
export function windowRanges(plan: ParallelPlan, rows: number, segmentRows: number, blockRows: number): RowRange[] {
  const size = summarises(plan) ? Math.ceil(segmentRows / blockRows) * blockRows : segmentRows
  const out: RowRange[] = []
  for (let start = 0; start < rows; start += size) out.push({ start, end: Math.min(rows, start + size) })
  return out.length > 0 ? out : [{ start: 0, end: 0 }]
}
