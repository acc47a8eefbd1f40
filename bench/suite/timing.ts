/**
 * Timing one question on one target within a time budget: timed runs, each after a full
 * collection, until `reps` runs or the budget is spent (at least one); the figure is their
 * median. A question that runs in under WARMUP_MS first gets untimed warm-up runs (its first run
 * is one of them), so a query of milliseconds is timed after V8 has optimised it, as on a busy
 * server; a slow one is warm after its checked run and spends its budget on timed runs.
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
    const first = await once(t, q, true)
    let spent = 0
    if (first < WARMUP_MS) {
      let warm = first
      for (let i = 1; i < MAX_WARMUPS && warm < Math.min(WARMUP_MS, budgetMs * WARMUP_SHARE); i++) warm += await once(t, q, false)
    } else {
      runs.push(first)
      spent = first
    }
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
