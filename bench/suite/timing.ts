/**
 * Timing one question on one target within a time budget: untimed warm-up runs while they are
 * quick (so a query of milliseconds is timed after V8 has optimised it, as on a busy server),
 * then timed runs, each after a full collection, until `reps` runs or the budget is spent (at
 * least one). The figure is the median.
 */
import { performance } from 'node:perf_hooks'
import { median, settle } from '../measure.js'
import type { SuiteQuestion } from './questions/index.js'
import type { SuiteTarget } from './target.js'

export type Timing = { readonly kind: 'ok'; readonly ms: number; readonly runs: readonly number[] } | { readonly kind: 'error'; readonly message: string }

/** Warm-up stops once the warm-up runs took this long in all, or this share of the budget. */
const WARMUP_MS = 500
const WARMUP_SHARE = 0.1
const MAX_WARMUPS = 20

async function once(t: SuiteTarget, q: SuiteQuestion, settleFirst: boolean): Promise<number> {
  await t.before?.()
  if (settleFirst) await settle()
  const start = performance.now()
  await t.run(q)
  const ms = performance.now() - start
  await t.release()
  return ms
}

export async function timeQuestion(t: SuiteTarget, q: SuiteQuestion, reps: number, budgetMs: number): Promise<Timing> {
  const runs: number[] = []
  try {
    let warm = 0
    for (let i = 0; i < MAX_WARMUPS && warm < Math.min(WARMUP_MS, budgetMs * WARMUP_SHARE); i++) warm += await once(t, q, false)
    let spent = 0
    while (runs.length < reps && (runs.length === 0 || spent < budgetMs)) {
      const ms = await once(t, q, true)
      runs.push(ms)
      spent += ms
    }
  } catch (e) {
    await t.release().catch(() => undefined)
    return { kind: 'error', message: e instanceof Error ? e.message : String(e) }
  }
  return { kind: 'ok', ms: median(runs), runs }
}
