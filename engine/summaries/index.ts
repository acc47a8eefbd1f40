/** The registry of `<tcol fun=…>` summaries, with the aliases found in saved queries. */
import { COUNTING } from './counting.js'
import { MOMENTS } from './moments.js'
import { POSITIONAL } from './positional.js'
import type { SummaryDef } from './types.js'

export type { SummaryDef, SummaryInput } from './types.js'

const ALIASES: Readonly<Record<string, string>> = { count: 'cnt', nna: 'cntnna', mean: 'avg', med: 'median', dev: 'stdev', std: 'stdev' }

export const SUMMARIES: Readonly<Record<string, SummaryDef>> = Object.fromEntries([...COUNTING, ...MOMENTS, ...POSITIONAL].map((d) => [d.name, d]))

export function lookupSummary(fun: string): SummaryDef | undefined {
  const name = fun.toLowerCase()
  return SUMMARIES[ALIASES[name] ?? name]
}

export const SUMMARY_NAMES: readonly string[] = [...Object.keys(SUMMARIES), ...Object.keys(ALIASES)]
