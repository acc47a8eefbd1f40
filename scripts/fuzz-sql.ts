/**
 * `npm run fuzz:sql -- --count N [--seed S]`: the differential test of compiled SQL
 * (test/engine/sql-differential.test.ts) at any size. Random queries of the compiled subset over
 * random tables, each answered on the columnar engine and on sql.js and compared; prints how many
 * compiled, how many differed (with the first few), and why the others were not compiled.
 * Exits 1 on any difference.
 */
import { SqlQueries } from '../test/helpers/sql-queries.js'
import { compiledAnswer, difference, sqliteAnswer, sqlTableOf, type SqlTable } from '../test/helpers/sql-answers.js'
import type { TableInput } from '../shared/protocol.js'

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
  const gen = new SqlQueries(seed)
  const started = performance.now()
  let table: { input: TableInput; sql: SqlTable } | null = null
  let compiled = 0
  let sqliteErrors = 0
  const differences: string[] = []
  for (let q = 0; q < count; q++) {
    if (q % 40 === 0) {
      const { input, data } = gen.table()
      table = { input, sql: await sqlTableOf(input, data) }
    }
    const sql = gen.query()
    const want = sqliteAnswer(sql, table!.input.path, table!.sql)
    if ('error' in want) {
      sqliteErrors++
      continue
    }
    const got = await compiledAnswer(sql, table!.input)
    if (got === null) continue
    compiled++
    const diff = difference(got, want.result)
    if (diff !== '') differences.push(`query ${q} over ${table!.input.rows} rows: ${sql}\n  ${diff}`)
  }
  const seconds = (performance.now() - started) / 1000
  console.log(
    `fuzz:sql seed ${seed}: ${count} queries in ${seconds.toFixed(0)} s; ${compiled} compiled and compared, ${differences.length} differences; ${sqliteErrors} refused by SQLite, the rest outside the subset`,
  )
  for (const d of differences.slice(0, 10)) console.log(d)
  return differences.length === 0 ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(2)
  },
)
