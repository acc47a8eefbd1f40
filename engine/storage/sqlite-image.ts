/**
 * The SQLite image of a table version: the file that api/sql attaches. One table named `data`
 * whose columns carry the table's column names; N/A is stored as NULL so SQL's own NULL rules
 * (aggregates skip it, comparisons are unknown) apply.
 */
import type { SqlValue } from 'sql.js'
import type { ColumnSpec, ColumnType } from '../../shared/table.js'
import { NA_BIGINT, NA_INT } from '../../shared/table.js'
import { quoteIdent } from '../sql/table-refs.js'
import { sqlJs } from './sqljs.js'
import type { ColumnValues } from './types.js'

/** Name of the one table in every SQLite image. */
export const SQLITE_TABLE = 'data'

const DECLARED: Record<ColumnType, string> = { int: 'INTEGER', bigint: 'INTEGER', date: 'INTEGER', float: 'REAL', text: 'TEXT' }

/** The image's column definitions, `"name" TYPE, …`: what SQLite sees of a table's columns. */
export const sqliteColumnDefs = (columns: readonly ColumnSpec[]): string => columns.map((c) => `${quoteIdent(c.name)} ${DECLARED[c.type]}`).join(', ')

/**
 * Build the SQLite image (the bytes of a database file) of a validated table. Rows go in through
 * prepared statements with bound parameters inside one transaction, which is what makes a million
 * rows take seconds rather than minutes.
 */
export async function buildSqliteImage(columns: readonly ColumnSpec[], data: readonly ColumnValues[]): Promise<Uint8Array> {
  const SQL = await sqlJs()
  const db = new SQL.Database()
  try {
    // The database lives in WebAssembly memory and is exported at the end: a rollback journal
    // would only cost time.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;')
    db.exec(`CREATE TABLE ${quoteIdent(SQLITE_TABLE)} (${sqliteColumnDefs(columns)})`)
    insertRows(db, columns, data)
    return db.export()
  } finally {
    db.close()
  }
}

type Db = InstanceType<Awaited<ReturnType<typeof sqlJs>>['Database']>
type Stmt = ReturnType<Db['prepare']>

// Rows per INSERT statement. Each statement execution is several calls into WebAssembly, so
// inserting many rows per execution is about twice as fast as one row at a time; aiming at about
// 500 bound values per execution measured best (more makes the parameter array slower again).
const VALUES_PER_INSERT = 500
const MAX_ROWS_PER_INSERT = 50

function insertRows(db: Db, columns: readonly ColumnSpec[], data: readonly ColumnValues[]): void {
  const rows = data.length === 0 ? 0 : data[0].length
  const batch = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(VALUES_PER_INSERT / columns.length)))
  const full = Math.floor(rows / batch) * batch
  db.exec('BEGIN')
  // All full batches go through one prepared statement; the remainder (fewer than `batch` rows)
  // through a second one sized for it.
  insertRange(db, columns, data, 0, full, batch)
  insertRange(db, columns, data, full, rows, rows - full)
  db.exec('COMMIT')
}

/** Insert rows [from, to) with a prepared statement of `batch` rows; (to - from) % batch === 0. */
function insertRange(db: Db, columns: readonly ColumnSpec[], data: readonly ColumnValues[], from: number, to: number, batch: number): void {
  if (to <= from) return
  const ncols = columns.length
  const row = `(${columns.map(() => '?').join(', ')})`
  const stmt: Stmt = db.prepare(`INSERT INTO ${quoteIdent(SQLITE_TABLE)} VALUES ${new Array<string>(batch).fill(row).join(', ')}`)
  // One parameter array reused for every execution, filled column by column so each inner loop
  // reads one typed array of one kind.
  const params: SqlValue[] = new Array<SqlValue>(ncols * batch).fill(null)
  try {
    for (let r0 = from; r0 < to; r0 += batch) {
      for (let c = 0; c < ncols; c++) fillColumn(params, columns[c].type, data[c], c, ncols, r0, batch)
      stmt.run(params)
    }
  } finally {
    stmt.free()
  }
}

/**
 * A big integer as sql.js binds it: NULL for N/A, a number while one holds it exactly, else the
 * bigint (sql.js binds it as its digits, which the INTEGER column's affinity stores as the integer).
 */
export function sqlBigint(v: bigint): SqlValue {
  if (v === NA_BIGINT) return null
  const n = Number(v)
  // sql.js (1.16) binds a bigint; its type declarations do not list one.
  return Number.isSafeInteger(n) ? n : (v as unknown as SqlValue)
}

/** Put rows [r0, r0 + batch) of one column into `params` at c, c + stride, …; N/A becomes NULL. */
function fillColumn(params: SqlValue[], type: ColumnType, values: ColumnValues, c: number, stride: number, r0: number, batch: number): void {
  if (type === 'text') {
    const v = values as readonly string[]
    for (let k = 0, p = c; k < batch; k++, p += stride) {
      const s = v[r0 + k]
      params[p] = s === '' ? null : s
    }
  } else if (type === 'float') {
    const v = values as Float64Array
    for (let k = 0, p = c; k < batch; k++, p += stride) {
      const x = v[r0 + k]
      params[p] = Number.isNaN(x) ? null : x
    }
  } else if (type === 'bigint') {
    const v = values as BigInt64Array
    for (let k = 0, p = c; k < batch; k++, p += stride) params[p] = sqlBigint(v[r0 + k])
  } else {
    const v = values as Int32Array
    for (let k = 0, p = c; k < batch; k++, p += stride) {
      const x = v[r0 + k]
      params[p] = x === NA_INT ? null : x
    }
  }
}
