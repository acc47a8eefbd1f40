/** The registry of `<tcol fun=…>` summaries, with the aliases found in saved queries. */
import { COUNTING } from './counting.js'
import { MOMENTS } from './moments.js'
import { POSITIONAL } from './positional.js'
import type { Accumulator, SummaryDef } from './types.js'

export type { Accumulator, SummaryDef, SummaryInput } from './types.js'

const ALIASES: Readonly<Record<string, string>> = { count: 'cnt', nna: 'cntnna', mean: 'avg', med: 'median', dev: 'stdev', std: 'stdev' }

export const SUMMARIES: Readonly<Record<string, SummaryDef>> = Object.fromEntries([...COUNTING, ...MOMENTS, ...POSITIONAL].map((d) => [d.name, d]))

export function lookupSummary(fun: string): SummaryDef | undefined {
  const name = fun.toLowerCase()
  return SUMMARIES[ALIASES[name] ?? name]
}

export const SUMMARY_NAMES: readonly string[] = [...Object.keys(SUMMARIES), ...Object.keys(ALIASES)]

/**
 * The accumulator that computes `<tcol>` t on the fast paths (slot tabulation, split-run
 * partials), or null when only the general path can: an unknown or weighted summary, or one
 * whose required source is missing (the general path then reports the error).
 */
export function accumulatorOf(t: { readonly fun: string; readonly source: unknown; readonly weight: unknown }): Accumulator | null {
  const acc = lookupSummary(t.fun)?.accumulator
  if (acc === undefined || t.weight !== null) return null
  return acc === 'cnt' || t.source !== null ? acc : null
}
