/**
 * `npm run fuzz:sql -- --count N [--seed S]`: the differential test of compiled SQL
 * (test/engine/sql-differential.test.ts) at any size. Random queries of the compiled subset over
 * random tables, each answered on the columnar engine and on sql.js and compared; prints how many
 * compiled, how many differed (with the first few), how many ran on each engine (in all, and of
 * those reading a big-integer column, j), and the value refusals of SQLite the engine answered.
 * Exits 1 on any difference.
 */
import { compareRandomQueries } from '../test/helpers/sql-answers.js'

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return fallback
  const v = Number(process.argv[at + 1])
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`--${name} takes a positive whole number`)
  return v
}

async function main(): Promise<number> {
  const count = option('count', 10_000)
  const seed = option('seed', Date.now() % 1_000_000_007)
  const started = performance.now()
  const run = await compareRandomQueries(seed, count)
  const seconds = (performance.now() - started) / 1000
  console.log(
    `fuzz:sql seed ${seed}: ${count} queries in ${seconds.toFixed(0)} s; ${run.compiled} compiled and compared, ${run.differences.length} differences; ${run.sqliteErrors} refused by SQLite, the rest outside the subset or declined`,
  )
  const answered = count - run.sqliteErrors
  const pct = (n: number, of: number): string => `${of === 0 ? 0 : ((100 * n) / of).toFixed(1)}%`
  console.log(
    `of the ${answered} SQLite answered: columnar ${run.compiled} (${pct(run.compiled, answered)}), sql.js ${answered - run.compiled}; ` +
      `reading a j (bigint) column: ${run.bigQueries} (${pct(run.bigQueries, answered)}), columnar ${run.bigCompiled} (${pct(run.bigCompiled, run.bigQueries)} of them), sql.js ${run.bigQueries - run.bigCompiled}`,
  )
  console.log(
    `value refusals of SQLite (integer overflow, unanswerable values): the engine refused too ${run.bothRefused}, answered ${run.refusedAnswered.length}`,
  )
  for (const d of run.refusedAnswered.slice(0, 5)) console.log(d)
  console.log(
    `compiled queries using each scalar feature: ${Object.entries(run.features)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ')}`,
  )
  for (const d of run.differences.slice(0, 50)) console.log(d)
  return run.differences.length === 0 ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(2)
  },
)
