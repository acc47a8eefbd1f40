/**
 * The SQLite image of a stored version, built from its column files a slice of rows at a time
 * rather than from arrays of every value (sqlite-image.ts): a table of ten million rows never has
 * its rows as JavaScript values at once. The database itself lives in sql.js's memory until it is
 * exported: that is the image's size, twice, at the end — which is why this runs on the table
 * writer's threads (sqlite-image-task.ts), whose memory goes back when they end.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SqlValue } from 'sql.js'
import { NA_INT, type ColumnType, type TableMeta } from '../../shared/table.js'
import { quoteIdent } from '../sql/table-refs.js'
import { dictFile, versionDir } from './layout.js'
import { readRowsInto } from './segments.js'
import { SQLITE_TABLE, sqlBigint, sqliteColumnDefs } from './sqlite-image.js'
import { sqlJs } from './sqljs.js'

const WIDTH: Record<ColumnType, number> = { int: 4, bigint: 8, date: 4, text: 4, float: 8 }

// The same batching as sqlite-image.ts: about 500 bound values per INSERT execution.
const VALUES_PER_INSERT = 500
const MAX_ROWS_PER_INSERT = 50
/** Rows read from the column files at a time: a few megabytes per column. */
const SLICE_ROWS = 1 << 18

/** Builds the image (the bytes of a database file) of the version `meta` describes, from its files. */
export async function buildSqliteImageFromFiles(dataDir: string, meta: TableMeta): Promise<Uint8Array> {
  const dir = versionDir(dataDir, meta.version)
  const { columns, rows } = meta
  const dicts = await Promise.all(
    columns.map((c, i) => (c.type === 'text' ? readFile(join(dir, dictFile(i)), 'utf8').then((s) => JSON.parse(s) as string[]) : undefined)),
  )
  const SQL = await sqlJs()
  const db = new SQL.Database()
  try {
    // The database lives in WebAssembly memory and is exported at the end: a journal would only cost time.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;')
    db.exec(`CREATE TABLE ${quoteIdent(SQLITE_TABLE)} (${sqliteColumnDefs(columns)})`)
    const ncols = columns.length
    const batch = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(VALUES_PER_INSERT / ncols)))
    // A slice is a whole number of batches, so only the last slice has a remainder.
    const slice = Math.max(batch, Math.floor(SLICE_ROWS / batch) * batch)
    const row = `(${columns.map(() => '?').join(', ')})`
    const insert = (n: number) => db.prepare(`INSERT INTO ${quoteIdent(SQLITE_TABLE)} VALUES ${new Array<string>(n).fill(row).join(', ')}`)
    const full = insert(batch)
    const params: SqlValue[] = new Array<SqlValue>(ncols * batch).fill(null)
    db.exec('BEGIN')
    try {
      for (let r0 = 0; r0 < rows; r0 += slice) {
        const n = Math.min(slice, rows - r0)
        const values = await Promise.all(columns.map((c, i) => readSlice(dataDir, meta, i, r0, n)))
        const whole = Math.floor(n / batch) * batch
        for (let k = 0; k < whole; k += batch) {
          for (let c = 0; c < ncols; c++) fill(params, columns[c].type, values[c], dicts[c], c, ncols, k, batch)
          full.run(params)
        }
        if (whole < n) {
          const rest = n - whole
          const last = insert(rest)
          const p: SqlValue[] = new Array<SqlValue>(ncols * rest).fill(null)
          for (let c = 0; c < ncols; c++) fill(p, columns[c].type, values[c], dicts[c], c, ncols, whole, rest)
          last.run(p)
          last.free()
        }
      }
    } finally {
      full.free()
    }
    db.exec('COMMIT')
    return db.export()
  } finally {
    db.close()
  }
}

/** Rows r0 … r0+n-1 of column i, from whichever files (row segments) hold them. */
async function readSlice(dataDir: string, meta: TableMeta, i: number, r0: number, n: number): Promise<Int32Array | Float64Array | BigInt64Array> {
  const type = meta.columns[i].type
  const buf = new ArrayBuffer(n * WIDTH[type])
  await readRowsInto(dataDir, meta, i, r0, r0 + n, new Uint8Array(buf))
  return type === 'float' ? new Float64Array(buf) : type === 'bigint' ? new BigInt64Array(buf) : new Int32Array(buf)
}

/** Rows [k, k + n) of a slice into `params` at c, c + stride, …; N/A becomes NULL. */
function fill(
  params: SqlValue[],
  type: ColumnType,
  values: Int32Array | Float64Array | BigInt64Array,
  dict: string[] | undefined,
  c: number,
  stride: number,
  k: number,
  n: number,
): void {
  if (type === 'text') {
    for (let j = 0, p = c; j < n; j++, p += stride) {
      const code = values[k + j] as number
      params[p] = code === 0 ? null : dict![code]
    }
  } else if (type === 'float') {
    for (let j = 0, p = c; j < n; j++, p += stride) {
      const x = values[k + j] as number
      params[p] = Number.isNaN(x) ? null : x
    }
  } else if (type === 'bigint') {
    for (let j = 0, p = c; j < n; j++, p += stride) params[p] = sqlBigint((values as BigInt64Array)[k + j])
  } else {
    for (let j = 0, p = c; j < n; j++, p += stride) {
      const x = values[k + j] as number
      params[p] = x === NA_INT ? null : x
    }
  }
}
