/**
 * The names SQLite gives a query's result columns, asked of SQLite itself: the query is prepared
 * (not run) against empty tables of the same columns, so the names (an alias, a column's name,
 * or the expression's text as written) and whether SQLite reads the query at all are SQLite's
 * own answer, not a re-implementation of its rules.
 */
import type { ColumnSpec } from '../../../shared/table.js'
import { ATTACH_DIRECT, COPIES, needsCopies, pointAtCopies } from '../many-tables.js'
import { quoteIdent } from '../table-refs.js'
import { sqliteColumnDefs, SQLITE_TABLE } from '../../storage/sqlite-image.js'
import { sqlJs } from '../../storage/sqljs.js'

/**
 * The result column names of `sql` (table paths already rewritten to `"tN"."data"`), or null
 * when SQLite does not accept it (the query then runs on sql.js, which reports why).
 */
export async function sqliteColumnNames(
  sql: string,
  tables: readonly { readonly alias: string; readonly columns: readonly ColumnSpec[] }[],
): Promise<string[] | null> {
  const SQL = await sqlJs()
  const db = new SQL.Database()
  try {
    // Past the databases sql.js attaches, the rest are tables of one database, as the sql.js path
    // has them (many-tables.ts), and the query reads them there.
    const direct = needsCopies(tables.length) ? tables.slice(0, ATTACH_DIRECT) : tables
    const copied = tables.slice(direct.length)
    for (const t of direct) {
      db.exec(`ATTACH ':memory:' AS ${quoteIdent(t.alias)}`)
      db.exec(`CREATE TABLE ${quoteIdent(t.alias)}.${quoteIdent(SQLITE_TABLE)} (${sqliteColumnDefs(t.columns)})`)
    }
    if (copied.length > 0) db.exec(`ATTACH ':memory:' AS ${quoteIdent(COPIES)}`)
    for (const t of copied) db.exec(`CREATE TABLE ${quoteIdent(COPIES)}.${quoteIdent(t.alias)} (${sqliteColumnDefs(t.columns)})`)
    const stmt = db.prepare(copied.length === 0 ? sql : pointAtCopies(sql, new Set(copied.map((t) => t.alias))))
    try {
      return stmt.getColumnNames()
    } finally {
      stmt.free()
    }
  } catch {
    return null
  } finally {
    db.close()
  }
}
