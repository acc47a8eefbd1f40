/** The whole-column kernel of an accumulating summary: its parts over the groups, then its finish. */
import { foldGroups, settled } from './fold.js'
import type { Accumulation, SummaryInput } from './types.js'
import type { Column } from '../columns/types.js'

export function accumulatedKernel(a: Accumulation): (input: SummaryInput) => Column {
  return ({ groups, source, weight }) => {
    const view = source === null ? null : { source, index: null }
    const weighted = weight === null ? null : { source: weight, index: null }
    const [states] = foldGroups(groups, [{ parts: a.parts, view, weight: weighted }], Int32Array.of(0, groups.ids.length), false)
    return a.finish(states.map(settled))
  }
}

/** A definition whose kernel comes from how it accumulates. */
export const accumulating = <T extends { readonly accumulates: Accumulation }>(def: T): T & { kernel: (input: SummaryInput) => Column } => ({
  ...def,
  kernel: accumulatedKernel(def.accumulates),
})
