/**
 * `npm run slt [-- --file <part of a name>] [--limit N] [--show N]`: runs the vendored
 * sqllogictest corpus (test/slt/corpus/, SQLite's own tests) against an in-process gateway and
 * prints, per script, how many queries passed, were answered wrong, refused (under a documented
 * limit, or not), failed with a 5xx or were skipped, and how many ran on each engine; then the
 * failures (the first `--show`, 5 by default, per script). `--file` runs the scripts whose name
 * contains it; `--limit` runs each script's first N queries only. Exits 1 on any wrong answer,
 * 5xx or refusal outside the documented limits (test/slt/limits.ts).
 */
import { corpusScripts, readScript, startSltService } from '../test/slt/corpus.js'
import { KNOWN_LIMITS } from '../test/slt/limits.js'
import { runScript } from '../test/slt/runner.js'
import { addCounts, countsOf, describeFailure, emptyCounts, failuresOf, type Counts } from '../test/slt/summary.js'

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return undefined
  const v = process.argv[at + 1]
  if (v === undefined) throw new Error(`--${name} needs a value`)
  return v
}

function wholeOption(name: string): number | undefined {
  const v = option(name)
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} takes a whole number`)
  return n
}

const HEADER = ['script', 'queries', 'passed', 'wrong', 'refused', '(limits)', 'error', 'skipped', 'columnar', 'sqlite', 'seconds']

function row(name: string, c: Counts, seconds: number): string[] {
  return [
    name,
    c.queries,
    c.passed,
    c.wrong,
    c.refusedKnown + c.refusedOther,
    c.refusedKnown,
    c.error,
    c.skipped,
    c.columnar,
    c.sqlite,
    seconds.toFixed(0),
  ].map(String)
}

function printTable(rows: string[][]): void {
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  for (const r of rows) console.log(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
}

async function main(): Promise<number> {
  const filter = option('file')
  const limit = wholeOption('limit')
  const show = wholeOption('show') ?? 5
  const scripts = (await corpusScripts()).filter((s) => filter === undefined || s.includes(filter))
  if (scripts.length === 0) {
    console.error(`No script of the corpus matches ${filter}.`)
    return 2
  }
  const service = await startSltService()
  const rows: string[][] = [HEADER]
  const total = emptyCounts()
  const failures: string[] = []
  const skipReasons = new Map<string, number>()
  const started = performance.now()
  try {
    for (const name of scripts) {
      const report = await runScript(service.gateway, name, await readScript(name), { folder: await service.newFolder(), maxQueries: limit })
      const counts = countsOf(report.queries)
      addCounts(total, counts)
      rows.push(row(name, counts, report.seconds))
      console.log(rows[rows.length - 1].join(' '))
      for (const f of failuresOf(report).slice(0, show)) failures.push(describeFailure(name, f))
      for (const q of report.queries) if (q.outcome === 'skipped') skipReasons.set(q.detail ?? '', (skipReasons.get(q.detail ?? '') ?? 0) + 1)
    }
  } finally {
    await service.close()
  }
  rows.push(row('total', total, (performance.now() - started) / 1000))
  console.log('')
  printTable(rows)
  if (skipReasons.size > 0) {
    console.log('\nskipped queries by reason:')
    for (const [reason, n] of [...skipReasons].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${n}  ${reason}`)
  }
  console.log(`\nrefusals under documented limits: ${KNOWN_LIMITS.map((l) => l.kind).join(', ')}`)
  if (failures.length > 0) {
    console.log('\nfailures:')
    for (const f of failures) console.log(`  ${f}`)
  }
  return total.wrong + total.error + total.refusedOther > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(2)
  },
)
