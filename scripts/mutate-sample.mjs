/**
 * A random sample of a folder's mutants (scripts/mutate.mjs --sample P): a whole folder has
 * thousands of mutants at seconds each, and a score measured on a uniform sample of them estimates
 * the folder's score within a known margin, in a fraction of the time.
 *
 * Stryker numbers the mutants of a run and tells the test command which one is active in the
 * environment. Whether a mutant is in the sample is a hash of its id and a seed, so the test
 * command (scripts/mutate-sample.sh, a wrapper around the real one) and the scoring after the run
 * agree without sharing state. A mutant outside the sample is not tested: the wrapper passes it at
 * once, and the scoring marks it Ignored.
 */
import { execFileSync } from 'node:child_process'

/** The sample in hundredths of a percent, as the shell wrapper reads it. */
export function sampleBasisPoints(percent) {
  return Math.round(percent * 100)
}

/** The hash of scripts/mutate-sample.sh, in 32-bit arithmetic. */
export function inSample(id, basisPoints, seed) {
  let h = (Number(id) + seed * 7919) >>> 0
  h = Math.imul((h >>> 16) ^ h, 0x45d9f3b) >>> 0
  h = Math.imul((h >>> 16) ^ h, 0x45d9f3b) >>> 0
  h = ((h >>> 16) ^ h) >>> 0
  return h % 10_000 < basisPoints
}

/** Refuses to run when the shell wrapper and inSample would disagree on any of the first ids. */
export function checkWrapperAgrees(basisPoints, seed, ids = 3000) {
  const env = { ...process.env, MUTATE_LIST: String(ids), MUTATE_SAMPLE_BP: String(basisPoints), MUTATE_SEED: String(seed) }
  const fromShell = execFileSync('sh', ['scripts/mutate-sample.sh'], { env, encoding: 'utf8' }).split('\n').filter(Boolean).join(',')
  const fromNode = Array.from({ length: ids }, (_, i) => i)
    .filter((i) => inSample(i, basisPoints, seed))
    .join(',')
  if (fromShell !== fromNode) throw new Error('mutate: scripts/mutate-sample.sh and inSample pick different mutants; make them the same hash.')
}

/**
 * The 95 % margin of a score measured on n of N mutants (normal approximation with the finite
 * population correction), in percentage points.
 */
export function sampleMargin(score, n, population) {
  if (n === 0 || score === null) return null
  const p = score / 100
  const correction = population > 1 ? Math.sqrt((population - n) / (population - 1)) : 0
  return Math.round(1000 * 1.96 * Math.sqrt((p * (1 - p)) / n) * correction) / 10
}
