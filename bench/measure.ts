/**
 * Timing one query on one target: a first run that is checked against the reference answer (and
 * warms up caches and the JIT), then the median of at least MIN_RUNS timed runs, more while they
 * are quick, so the whole benchmark stays bounded.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { compareDigests, type Digest } from './digest.js'
import type { BenchQuery } from './queries.js'
import type { Target } from './target.js'

export const MIN_RUNS = 3
export const MAX_RUNS = 7
/** Keep adding runs (up to MAX_RUNS) while the timed runs so far took less than this. */
const QUICK_MS = 1500
/**
 * Untimed warm-up runs after the checked one, while they take less than this in all (at most
 * MAX_WARMUPS): a query of a few milliseconds is otherwise timed before V8 has optimised the
 * code it runs, which measures the JIT rather than the steady state a server sees. Every target
 * gets the same warm-up.
 */
export const WARMUP_MS = 500
export const MAX_WARMUPS = 50

export type Outcome =
  | { readonly kind: 'ok'; readonly ms: number; readonly runs: number; readonly all: readonly number[] }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'mismatch'; readonly diffs: readonly string[] }

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A full collection, then a pause: V8 sweeps and unmaps freed pages on helper threads after a
 * collection, and on a two-core machine that work competes with a query of a few milliseconds
 * timed right after it.
 */
export async function settle(ms = 20): Promise<void> {
  gc?.()
  await pause(ms)
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code
    const detail = (e as { detail?: unknown }).detail
    const extra = [code !== undefined ? `code=${String(code)}` : '', detail !== undefined ? `detail=${JSON.stringify(detail)}` : ''].filter(Boolean).join(' ')
    return `${e.name}: ${e.message}${extra ? ` (${extra})` : ''}`
  }
  return String(e)
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * The first (checked) run: its digest, or the error. When `reference` is given the digest must
 * agree with it.
 */
export async function checkedRun(t: Target, q: BenchQuery, reference: Digest | null): Promise<{ digest: Digest } | { outcome: Outcome }> {
  try {
    await t.before?.()
    await t.run(q)
    const digest = await t.digest(q)
    await t.release()
    if (reference) {
      const diffs = compareDigests(reference, digest)
      if (diffs.length > 0) return { outcome: { kind: 'mismatch', diffs } }
    }
    return { digest }
  } catch (e) {
    await t.release().catch(() => undefined)
    return { outcome: { kind: 'error', message: describe(e) } }
  }
}

/** Timed runs after a successful checked run. */
export async function timedRuns(t: Target, q: BenchQuery): Promise<Outcome> {
  const times: number[] = []
  try {
    let warm = 0
    for (let i = 0; i < MAX_WARMUPS && warm < WARMUP_MS; i++) {
      await t.before?.()
      const start = performance.now()
      await t.run(q)
      warm += performance.now() - start
      await t.release()
    }
    let spent = 0
    while (times.length < MIN_RUNS || (times.length < MAX_RUNS && spent < QUICK_MS)) {
      await t.before?.()
      await settle()
      const start = performance.now()
      await t.run(q)
      const ms = performance.now() - start
      await t.release()
      times.push(ms)
      spent += ms
    }
  } catch (e) {
    await t.release().catch(() => undefined)
    return { kind: 'error', message: describe(e) }
  }
  return { kind: 'ok', ms: median(times), runs: times.length, all: times }
}

/** One line of a benchmark's report, on stdout. */
export const log = (s = ''): void => {
  process.stdout.write(`${s}\n`)
}

/** The machine's load averages (1, 5, 15 minutes), printed beside figures measured on it. */
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')
