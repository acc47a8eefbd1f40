/**
 * One SQL query answered both ways for the differential tests: compiled to the columnar engine
 * (as the gateway compiles it, run as a worker runs a task) and on sql.js over the table's SQLite
 * image (the fallback path itself, SqlExecutor).
 */
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import type { ColumnValues } from '../../engine/storage/types.js'
import { buildSqliteImage } from '../../engine/storage/sqlite-image.js'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { SqlExecutor } from '../../engine/sql/execute.js'
import { rewriteTableRefs } from '../../engine/sql/table-refs.js'
import { compileSql, ordersAsSqlite, sqlShaped } from '../../engine/sql/compile/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { execute } from '../../engine/parallel/execute.js'
import { withPlan } from '../../engine/parallel/plan.js'
import { fromWire } from '../../engine/parallel/wire.js'
import { isSqlDeclined } from '../../engine/functions/sql.js'
import { AppError } from '../../shared/errors.js'

export interface SqlTable {
  readonly version: string
  readonly image: SharedArrayBuffer
}

let executor: SqlExecutor | null = null
let versions = 0

/** The SQLite image of a test table, as an upload would build it. */
export async function sqlTableOf(input: TableInput, data: readonly ColumnValues[]): Promise<SqlTable> {
  executor ??= new SqlExecutor(await sqlJs())
  const bytes = await buildSqliteImage(
    input.columns.map((c) => c.spec),
    data,
  )
  const image = new SharedArrayBuffer(bytes.byteLength)
  new Uint8Array(image).set(bytes)
  return { version: `diff-${versions++}`, image }
}

const rewritten = (sql: string, path: string): string => rewriteTableRefs(sql, new Map([[path, 't0']]))

/** sql.js's answer, or its error. */
export function sqliteAnswer(sql: string, path: string, table: SqlTable): { result: ResultSet } | { error: string } {
  try {
    return {
      result: executor!.run({ kind: 'sql', sql: rewritten(sql, path), tables: [{ alias: 't0', version: table.version, image: table.image }], maxRows: 1e9 }),
    }
  } catch (e) {
    if (e instanceof AppError) return { error: e.message }
    throw e
  }
}

/** The columnar engine's answer, or null when the query is not compiled (or declined while running). */
export async function compiledAnswer(sql: string, input: TableInput): Promise<ResultSet | null> {
  const c = await compileSql(sql, rewritten(sql, input.path), [{ path: input.path, alias: 't0', columns: input.columns.map((col) => col.spec) }])
  if (!('compiled' in c)) return null
  // As the gateway: text whose UTF-16 and UTF-8 orders differ is not ordered by the engine.
  if (c.compiled.textOrder && !input.columns.every((col) => col.dict === undefined || ordersAsSqlite(col.dict))) return null
  const checked = checkQuery(c.compiled.ops, new Map([[input.path, input.columns.map((col) => col.spec)]]))
  try {
    const answer = execute(withPlan({ kind: 'run', ops: checked.ops, tables: [input], maxRows: 1e9 }))
    return sqlShaped(fromWire(answer), c.compiled.names)
  } catch (e) {
    if (isSqlDeclined(e)) return null
    throw e
  }
}

function cells(r: ResultSet): unknown[][] {
  return r.columns.map((c) => {
    if (c.kind === 'coded') return Array.from(c.codes.subarray(0, r.rowCount), (k) => c.dict[k])
    if (c.kind === 'text') return c.data.slice(0, r.rowCount)
    return Array.from(c.data.subarray(0, r.rowCount))
  })
}

const close = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'number' || typeof b !== 'number') return false
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))
}

/**
 * The first difference between two answers ('' when none): column names, labels, types and
 * widths, row counts, then every cell in order; floats may differ by 1e-12 relative (SQLite sums
 * reals with compensation, the engine in fixed blocks).
 */
export function difference(got: ResultSet, want: ResultSet): string {
  const gotMeta = got.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  const wantMeta = want.cols.map((c) => `${c.name}/${c.label}/${c.type}/${c.width}`)
  if (JSON.stringify(gotMeta) !== JSON.stringify(wantMeta)) return `columns ${JSON.stringify(gotMeta)} vs ${JSON.stringify(wantMeta)}`
  if (got.rowCount !== want.rowCount) return `rows ${got.rowCount} vs ${want.rowCount}`
  const a = cells(got)
  const b = cells(want)
  for (let c = 0; c < a.length; c++)
    for (let r = 0; r < got.rowCount; r++) if (!close(a[c][r], b[c][r])) return `column ${got.cols[c].name} row ${r}: ${String(a[c][r])} vs ${String(b[c][r])}`
  return ''
}
