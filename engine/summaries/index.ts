/** The registry of `<tcol fun=…>` summaries, with the aliases found in saved queries. */
import { CONCATENATING } from './concat.js'
import { COUNTING } from './counting.js'
import { MOMENTS } from './moments.js'
import { POSITIONAL } from './positional.js'
import type { Accumulation, SummaryDef } from './types.js'

export type { Accumulation, SummaryDef, SummaryInput } from './types.js'

const ALIASES: Readonly<Record<string, string>> = { count: 'cnt', nna: 'cntnna', mean: 'avg', med: 'median', dev: 'stdev', std: 'stdev' }

export const SUMMARIES: Readonly<Record<string, SummaryDef>> = Object.fromEntries(
  [...COUNTING, ...MOMENTS, ...POSITIONAL, ...CONCATENATING].map((d) => [d.name, d]),
)

export function lookupSummary(fun: string): SummaryDef | undefined {
  const name = fun.toLowerCase()
  return SUMMARIES[ALIASES[name] ?? name]
}

export const SUMMARY_NAMES: readonly string[] = [...Object.keys(SUMMARIES), ...Object.keys(ALIASES)]

/**
 * The name of the accumulating summary that computes `<tcol>` t on the fast paths (direct slots,
 * split-run partials), or null when only the general path can: an unknown or non-accumulating
 * summary, one whose required source or weight is missing (the general path then reports the
 * error), or a weight on a summary that takes none.
 */
export function accumulatorOf(t: { readonly fun: string; readonly source: unknown; readonly weight: unknown }): string | null {
  const def = lookupSummary(t.fun)
  if (def?.accumulates === undefined || def.needsWeight !== (t.weight !== null)) return null
  return !def.needsSource || t.source !== null ? def.name : null
}

/** How the accumulating summary `name` (an accumulatorOf answer) accumulates. */
export function accumulationOf(name: string): Accumulation {
  const a = SUMMARIES[name]?.accumulates
  if (a === undefined) throw new Error(`${name} is not an accumulating summary`)
  return a
}
