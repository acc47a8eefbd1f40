/**
 * The worker side of a merge task (RunMerge): the parts' partials of one phase put together. For a
 * group step the answer is the merged group values that the next phase's parts read; for the
 * tabulation it is the query's answer, the operations after `<tabu>` included (finish.ts).
 */
import type { ResultSet, RunMerge, RunTask } from '../../shared/protocol.js'
import { keyName, valueName } from './aggregate.js'
import { encodeColumns } from './codec.js'
import { finishTabu } from './finish.js'
import { mergePartials } from './merge.js'
import { tablesOf } from './part.js'
import { batchEnd, type ParallelPlan } from './plan.js'

/** Executes a merge task: merges the partials of the step it names, or finishes the tabulation. */
export function executeMerge(task: RunTask, m: RunMerge, plan: ParallelPlan | null): ResultSet {
  if (plan === null) throw new Error('executeMerge: the query has no parallel plan')
  if (m.step < plan.groupSteps.length) {
    const batch = plan.groupSteps.slice(m.step, batchEnd(plan, m.step))
    const merged = mergePartials(
      m.partials,
      batch[0].keys.length,
      batch.map((s) => s.agg),
    )
    const keys = merged.keys.map((column, i) => ({ name: keyName(i), column }))
    const values = merged.values.map((column, j) => ({ name: valueName(j), column }))
    return encodeColumns([...keys, ...values], merged.count)
  }
  if (plan.tail.kind !== 'tabu') throw new Error('executeMerge: a merge asked of a plan without a tabulation')
  const merged = mergePartials(m.partials, plan.tail.op.breaks.length, plan.tail.aggs)
  return finishTabu(plan, merged, tablesOf(task), m.groupValues, task)
}
