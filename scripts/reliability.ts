/**
 * `npm run reliability`: the reliability report. Runs, and prints side by side:
 *  - every fuzz target of test/fuzz/targets.ts (the parsers fed with client text), with
 *    `--fuzz-scale` times the cases the test suite tries: cases tried and contract failures;
 *  - the fault scenarios of test/faults/ (worker crashes and out-of-memory, Redis going away,
 *    SIGKILL during writes, lost commit answers), run as the tests they are: survived or not;
 *  - the security scenarios of test/security/ (cross-site requests, reused principal names, one
 *    user starving the others, resource denial by one request, login lockout, commit races),
 *    run the same way: held or not;
 *  - a soak (scripts/soak.ts) of `--soak-seconds` on the memory store: requests served, 5xx,
 *    latency, memory, threads and descriptors before and after, problems found;
 *  - a soak of distinct query texts (`--distinct`): memory must level off under the bound of the
 *    caches' budgets;
 *  - fair sharing held for `--hog-seconds` (scripts/hog-share.ts): two users keep both workers
 *    busy with never-ending queries while two others loop small queries, which must each answer
 *    within 1 s all along.
 *
 *   node dist/scripts/reliability.js [--fuzz-scale 5] [--soak-seconds 30] [--distinct-seconds 600] [--distinct-clients 64] [--hog-seconds 600] [--skip fuzz,faults,security,soak,distinct,hogs]
 *
 * Exits 1 if any part found a problem.
 */
import { spawn } from 'node:child_process'
import { availableParallelism, cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { FUZZ_TARGETS, runFuzzTarget } from '../test/fuzz/targets.js'
import type { HogShareReport } from './hog-share.js'

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback
}
const FUZZ_SCALE = Number(arg('fuzz-scale', '5'))
const SOAK_SECONDS = arg('soak-seconds', '30')
const DISTINCT_SECONDS = arg('distinct-seconds', '600')
const DISTINCT_CLIENTS = arg('distinct-clients', '64')
const HOG_SECONDS = arg('hog-seconds', '600')
const SKIP = new Set(arg('skip', '').split(',').filter(Boolean))

const log = (s = ''): void => {
  process.stdout.write(`${s}\n`)
}

/** Runs a compiled script of this project; resolves its exit code and output. */
function runNode(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const path = fileURLToPath(new URL(script, import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out }))
  })
}

function fuzz(): boolean {
  log(`## Fuzzing (fast-check, fixed seeds, ${FUZZ_SCALE}x the cases of the test suite)`)
  log()
  log('| target | cases tried | failures | seconds |')
  log('|---|---:|---:|---:|')
  let ok = true
  let total = 0
  for (const t of FUZZ_TARGETS) {
    const started = performance.now()
    const r = runFuzzTarget({ ...t, numRuns: t.numRuns * FUZZ_SCALE })
    total += r.casesTried
    log(`| ${r.name} | ${r.casesTried.toLocaleString('en-US')} | ${r.failed ? 1 : 0} | ${((performance.now() - started) / 1000).toFixed(1)} |`)
    if (r.failed) {
      ok = false
      log(`\n${r.message}\n`)
    }
  }
  log()
  log(`${total.toLocaleString('en-US')} cases over ${FUZZ_TARGETS.length} targets; contract: a result or a 4xx AppError, within the time bound`)
  return ok
}

/** Runs the test files whose paths contain one of `paths` and lists each scenario as `passed` or FAILED. */
async function scenarios(title: string, paths: readonly string[], passed: string): Promise<boolean> {
  log()
  log(`## ${title} (${paths.map((p) => `test/${p}`).join(', ')}, run as tests)`)
  log()
  const { code, out } = await runNode('../test/run-tests.js', [...paths])
  // eslint-disable-next-line no-control-regex -- strips the test reporter's ANSI colour codes (ESC [ … m)
  const clean = out.replace(/\u001b\[[0-9;]*m/g, '')
  const lines = clean
    .split('\n')
    .filter((l) => /^\s+(✔|\d+\))/.test(l))
    .map((l) => l.trim())
  for (const s of lines) log(`- ${s.startsWith('✔') ? passed : 'FAILED'}: ${s.replace(/^(✔|\d+\))\s*/, '')}`)
  const summary = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(clean)
  log()
  log(
    summary
      ? `${summary[1]} scenarios ${passed}, ${summary[2]} failed, ${summary[3]} skipped`
      : `the tests did not report (exit ${code}):\n${clean.slice(-3000)}`,
  )
  return code === 0 && summary !== null && summary[2] === '0'
}

const faults = (): Promise<boolean> => scenarios('Fault scenarios', ['faults/'], 'survived')
// The login throttle's tests live beside the login's; they are the lockout scenario of issue 16.
const security = (): Promise<boolean> => scenarios('Security scenarios', ['security/', 'gateway/login-throttle'], 'held')

/** The mixed soak, or with `distinct` the one where every query text is new (memory must level off). */
async function soak(distinct = false): Promise<boolean> {
  log()
  log(distinct ? `## Soak of distinct queries (${DISTINCT_SECONDS} s, ${DISTINCT_CLIENTS} clients, memory store)` : `## Soak (${SOAK_SECONDS} s, memory store)`)
  log()
  const args = distinct ? ['--seconds', DISTINCT_SECONDS, '--clients', DISTINCT_CLIENTS, '--distinct', '--json'] : ['--seconds', SOAK_SECONDS, '--json']
  const { code, out } = await runNode('./soak.js', args)
  const line = out.split('\n').find((l) => l.startsWith('{'))
  if (!line) {
    log(`the soak did not report (exit ${code}):\n${out.slice(-3000)}`)
    return false
  }
  const r = JSON.parse(line) as Record<string, unknown> & { problems: string[] }
  log('| requests | per second | 5xx | p50 ms | p99 ms | RSS after warm-up → end | threads | fds | tables checked |')
  log('|---:|---:|---:|---:|---:|---|---|---|---:|')
  log(
    `| ${r.requests} | ${r.perSecond} | ${r.errors5xx} | ${r.p50Ms} | ${r.p99Ms} | ${r.rssBeforeMb} → ${r.rssAfterMb} MB | ${r.threadsBefore} → ${r.threadsAfter} | ${r.fdsBefore} → ${r.fdsAfter} | ${r.committedTablesChecked} + ${r.droppedTablesChecked} dropped |`,
  )
  if (distinct)
    log(
      `\nRSS every 2 s: ${(r.rssSamplesMb as number[]).join(' ')} MB; peak ${r.rssPeakMb} MB under the bound ${r.rssBoundMb} MB (warm-up level + the caches' budgets)`,
    )
  log()
  log(`by status: ${JSON.stringify(r.byStatus)}`)
  log(r.problems.length === 0 ? 'no problems' : `problems:\n  ${r.problems.join('\n  ')}`)
  return code === 0 && r.problems.length === 0
}

/** Two hogs and two light users for HOG_SECONDS (scripts/hog-share.ts): every light query within the bound. */
async function hogs(): Promise<boolean> {
  log()
  log(`## Fair sharing under two hogs (${HOG_SECONDS} s, WORKERS=2, defaults otherwise, memory store)`)
  log()
  const { code, out } = await runNode('./hog-share.js', ['--seconds', HOG_SECONDS, '--json'])
  const line = out.split('\n').find((l) => l.startsWith('{'))
  if (!line) {
    log(`the scenario did not report (exit ${code}):\n${out.slice(-3000)}`)
    return false
  }
  const r = JSON.parse(line) as HogShareReport
  log('| light queries | p50 ms | p99 ms | max ms | bound ms | hog queries ended | preemptions | worker restarts |')
  log('|---:|---:|---:|---:|---:|---|---:|---:|')
  log(
    `| ${r.lightQueries} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${r.boundMs} | ${r.hogQueriesEnded} ${JSON.stringify(r.hogStatuses)} | ${r.preemptions} | ${r.workerRestarts} |`,
  )
  log()
  log(`per minute (light queries / p99 / max ms): ${r.minutes.map((m) => `${m.n}/${m.p99}/${m.max}`).join(', ')}`)
  log(r.problems.length === 0 ? 'no problems' : `problems:\n  ${r.problems.join('\n  ')}`)
  return code === 0 && r.problems.length === 0
}

async function main(): Promise<void> {
  log('# tabula reliability report')
  log(`date: ${new Date().toISOString()}; machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}`)
  log()
  const results: [string, boolean][] = []
  if (!SKIP.has('fuzz')) results.push(['fuzz', fuzz()])
  if (!SKIP.has('faults')) results.push(['faults', await faults()])
  if (!SKIP.has('security')) results.push(['security', await security()])
  if (!SKIP.has('soak')) results.push(['soak', await soak()])
  if (!SKIP.has('distinct')) results.push(['distinct soak', await soak(true)])
  if (!SKIP.has('hogs')) results.push(['fair sharing under hogs', await hogs()])
  log()
  log(`## Verdict: ${results.map(([name, ok]) => `${name} ${ok ? 'holds' : 'FAILED'}`).join(', ')}`)
  process.exitCode = results.every(([, ok]) => ok) ? 0 : 1
}

await main()
