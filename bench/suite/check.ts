/**
 * Answers are checked before anything is timed: each target runs the question once, and every
 * answer's digest must equal the reference's (DuckDB with one thread). A question whose answers
 * differ, or that fails somewhere, is reported with what each side gave and is not timed.
 */
import { compareSuiteDigests, describeDigest, type SuiteDigest } from './digest.js'
import type { SuiteQuestion } from './questions/index.js'
import type { SuiteTarget } from './target.js'

export type Check = { readonly kind: 'agree'; readonly reference: SuiteDigest } | { readonly kind: 'differ' | 'error'; readonly lines: readonly string[] }

async function answer(t: SuiteTarget, q: SuiteQuestion): Promise<SuiteDigest | { error: string }> {
  try {
    await t.before?.()
    await t.run(q)
    const d = await t.digest(q)
    await t.release()
    return d
  } catch (e) {
    await t.release().catch(() => undefined)
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

/** Runs `q` once on the reference, then on each other target, comparing each answer with the reference's. */
export async function checkAnswers(q: SuiteQuestion, reference: SuiteTarget, others: readonly SuiteTarget[]): Promise<Check> {
  const expected = await answer(reference, q)
  if ('error' in expected) return { kind: 'error', lines: [`${reference.label} failed: ${expected.error}`, `sql: ${q.sql}`] }
  const lines: string[] = []
  let failed = false
  for (const t of others) {
    const got = await answer(t, q)
    if ('error' in got) {
      failed = true
      lines.push(`${t.label} failed: ${got.error}`)
      continue
    }
    const diffs = compareSuiteDigests(expected, got)
    if (diffs.length > 0) lines.push(`${t.label} differs from ${reference.label}: ${diffs.join('; ')}`, `  ${t.label}: ${describeDigest(got)}`)
  }
  if (lines.length === 0) return { kind: 'agree', reference: expected }
  lines.push(`  ${reference.label}: ${describeDigest(expected)}`, `xml: ${q.xml}`, `sql: ${q.sql}`)
  return { kind: failed ? 'error' : 'differ', lines }
}
