/**
 * `npm run bench`: every benchmark, one after another, each in a process of its own (so one's
 * data and garbage never slow the next), then one table of the headline figures, each beside the
 * reference measured in the same run and the target it must meet.
 *
 *   node dist/bench/all.js [--only engine,http,...] [--skip upload,...] [--quick] [--markdown]
 *
 * --quick runs the smaller sizes (1M rows for the engine, parallel scans and uploads); the
 * targets are judged at 10M rows, so a quick run says less. Each benchmark also has its own
 * `npm run bench:<name>` with more options.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readSummary, summaryMarkdown, summaryText, SUMMARY_FILE_VARIABLE } from './summary.js'

interface Bench {
  readonly name: string
  readonly script: string
  readonly nodeFlags: readonly string[]
  readonly args: readonly string[]
  readonly quickArgs: readonly string[]
}

const BIG_HEAP = ['--expose-gc', '--max-old-space-size=8192']

const BENCHES: readonly Bench[] = [
  { name: 'engine', script: 'run.js', nodeFlags: BIG_HEAP, args: [], quickArgs: ['--rows', '1000000'] },
  { name: 'parallel', script: 'parallel.js', nodeFlags: BIG_HEAP, args: [], quickArgs: ['--rows', '1000000'] },
  { name: 'http', script: 'http.js', nodeFlags: [], args: [], quickArgs: ['--seconds', '2'] },
  { name: 'startup', script: 'startup.js', nodeFlags: BIG_HEAP, args: [], quickArgs: [] },
  { name: 'instances', script: 'instances.js', nodeFlags: ['--max-old-space-size=8192'], args: [], quickArgs: [] },
  { name: 'cluster', script: 'cluster.js', nodeFlags: [], args: [], quickArgs: ['--seconds', '3'] },
  { name: 'upload', script: 'upload.js', nodeFlags: [], args: [], quickArgs: ['--rows', '1000000'] },
  { name: 'sql', script: 'sql.js', nodeFlags: BIG_HEAP, args: [], quickArgs: ['--reps', '3'] },
]

function parseArgs(argv: readonly string[]): { only: Set<string> | null; skip: Set<string>; quick: boolean; markdown: boolean } {
  const known = new Set(BENCHES.map((b) => b.name))
  const names = (v: string | undefined, flag: string): Set<string> => {
    if (v === undefined) throw new Error(`${flag} needs a list of benchmarks (${[...known].join(', ')})`)
    const set = new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    for (const n of set) if (!known.has(n)) throw new Error(`${flag}: unknown benchmark "${n}"; known: ${[...known].join(', ')}`)
    return set
  }
  let only: Set<string> | null = null
  let skip = new Set<string>()
  let quick = false
  let markdown = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--only') only = names(argv[++i], a)
    else if (a === '--skip') skip = names(argv[++i], a)
    else if (a === '--quick') quick = true
    else if (a === '--markdown') markdown = true
    else throw new Error(`unknown option ${a} (use --only a,b, --skip a,b, --quick, --markdown)`)
  }
  return { only, skip, quick, markdown }
}

function runBench(b: Bench, quick: boolean, summaryFile: string): Promise<number | null> {
  const script = fileURLToPath(new URL(`./${b.script}`, import.meta.url))
  const args = [...b.nodeFlags, script, ...(quick ? b.quickArgs : b.args)]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, [SUMMARY_FILE_VARIABLE]: summaryFile } })
    child.on('error', reject)
    child.on('exit', (code) => resolve(code))
  })
}

async function main(): Promise<void> {
  let opts: ReturnType<typeof parseArgs>
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    process.exit(2)
  }
  const dir = mkdtempSync(join(tmpdir(), 'tabula-bench-'))
  const summaryFile = join(dir, 'summary.jsonl')
  const started = Date.now()
  const machine = `${availableParallelism()} cores (${cpus()[0]?.model?.trim() ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`
  const failed: string[] = []
  try {
    for (const b of BENCHES) {
      if ((opts.only && !opts.only.has(b.name)) || opts.skip.has(b.name)) continue
      process.stdout.write(`\n==================== bench: ${b.name} ====================\n`)
      const code = await runBench(b, opts.quick, summaryFile)
      if (code !== 0) failed.push(`${b.name} (exit ${code})`)
    }
    const rows = readSummary(summaryFile)
    const loadEnd = loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')
    process.stdout.write(`\n==================== summary ====================\n`)
    process.stdout.write(
      `${new Date().toISOString()}; ${machine}; ${((Date.now() - started) / 60000).toFixed(1)} min; load average at end ${loadEnd}${opts.quick ? '; QUICK run (smaller sizes)' : ''}\n\n`,
    )
    process.stdout.write(`${summaryText(rows)}\n`)
    if (opts.markdown) process.stdout.write(`\n${summaryMarkdown(rows)}\n`)
    const missed = rows.filter((r) => r.ok === false)
    process.stdout.write(
      `\n${rows.length} figures; targets held: ${rows.filter((r) => r.ok === true).length}, missed: ${missed.length}${failed.length ? `; benchmarks that failed: ${failed.join(', ')}` : ''}\n`,
    )
    process.exitCode = failed.length > 0 ? 1 : 0
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
