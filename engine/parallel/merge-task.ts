/**
 * The worker side of a merge task (RunMerge): the parts' partials of one phase put together. For a
 * group step the answer is the merged group values that the next phase's parts read; for the
 * tabulation it is the query's answer, the operations after `<tabu>` included (finish.ts).
 */
import type { ResultSet, RunMerge, RunTask } from '../../shared/protocol.js'
import { keyName } from './aggregate.js'
import { encodeColumns } from './codec.js'
import { finishTabu } from './finish.js'
import { mergePartials } from './merge.js'
import { tablesOf } from './part.js'
import type { ParallelPlan } from './plan.js'

export function runMerge(task: RunTask, m: RunMerge, plan: ParallelPlan | null): ResultSet {
  if (plan === null) throw new Error('runMerge: the query has no parallel plan')
  if (m.step < plan.groupSteps.length) {
    const step = plan.groupSteps[m.step]
    const merged = mergePartials(m.partials, step.keys.length, [step.agg])
    const keys = merged.keys.map((column, i) => ({ name: keyName(i), column }))
    return encodeColumns([...keys, { name: 'value', column: merged.values[0] }], merged.count)
  }
  if (plan.tail.kind !== 'tabu') throw new Error('runMerge: a merge asked of a plan without a tabulation')
  const merged = mergePartials(m.partials, plan.tail.op.breaks.length, plan.tail.aggs)
  return finishTabu(plan, merged, tablesOf(task), m.groupValues, task)
}
