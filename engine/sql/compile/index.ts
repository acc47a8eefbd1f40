/**
 * SQL compiled to the columnar engine: one SELECT over a table and those joined to it, read by sqlparser-rs
 * (parse.ts), planned into the macro language's operations (plan.ts, expr.ts), its result named
 * by SQLite (names.ts) and shaped as sql.js shapes its own (shape.ts). A query outside the
 * subset, or one whose reading is not certainly SQLite's, is not compiled: it runs on sql.js.
 */
import type { Op } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import { checkQuery, type CheckedOps, type TableSchemas } from '../../check/index.js'
import { MAX_QUERY_TABLES } from '../../../shared/sql-table-limit.js'
import { MAX_SQL_NAME_CHARS, namesLength } from '../../../shared/name-limits.js'
import { rewriteTableRefs } from '../table-refs.js'
import { NotCompiled } from './ir.js'
import { sqliteColumnNames } from './names.js'
import { loadSqlParser, readStatement } from './parse.js'
import { ONE_ROW_COLUMNS, ONE_ROW_PATH } from './one-row.js'
import { planQuery } from './plan.js'
import { textOrdersAsSqlite } from './text-order.js'

export { sqlShaped } from './shape.js'
export { loadSqlParser } from './parse.js'
export { oneRowTable } from './one-row.js'
export { ordersAsSqlite } from './text-order.js'

/** A table an SQL text reads: its catalog path, the schema sql.js attaches it as (`t0`), its columns. */
export interface SqlTableSchema {
  readonly path: string
  readonly alias: string
  readonly columns: readonly ColumnSpec[]
}

export interface CompiledSql {
  /** Operations checked against the tables, as a macro query's: what a RunTask carries to a worker. */
  readonly ops: CheckedOps
  /** The names SQLite gives the result's columns (sqlShaped renames the engine's answer to them). */
  readonly names: readonly string[]
  /** The plan orders text: the caller runs it only over text that orders as in SQLite (ordersAsSqlite). */
  readonly textOrder: boolean
  /** A SELECT without FROM: the caller adds oneRowTable() to the tables it runs the plan over. */
  readonly oneRow: boolean
}

/** The query compiled, or why it runs on sql.js instead. */
export type Compiled = { readonly compiled: CompiledSql } | { readonly reason: string }

/**
 * Compiles and checks an SQL text in one go, as the gateway caches it: a pure function of the text
 * and the tables' columns and aliases. The text is rewritten to the aliases here, the same way the
 * gateway rewrites it for sql.js, so that SQLite names the result's columns as its fallback would.
 */
export async function compileSql(sql: string, tables: readonly SqlTableSchema[]): Promise<Compiled> {
  // sql.js refuses it with a clear message (many-tables.ts), which the engine must not answer instead.
  if (tables.length > MAX_QUERY_TABLES) return { reason: `more than ${MAX_QUERY_TABLES} tables` }
  await loadSqlParser()
  const schemas = new Map([...tables.map((t): [string, readonly ColumnSpec[]] => [t.path, t.columns]), [ONE_ROW_PATH, ONE_ROW_COLUMNS]])
  try {
    const select = readStatement(sql)
    const plan = planQuery(select, schemas)
    if (plan.textOrder && !textOrdersAsSqlite(sql)) return { reason: 'text ordered by characters whose order differs between UTF-16 and UTF-8' }
    const names = await sqliteColumnNames(rewriteTableRefs(sql, new Map(tables.map((t) => [t.path, t.alias]))), tables)
    if (names === null) return { reason: 'SQLite does not accept it' }
    // sql.js's answer is refused with a message saying so (shared/name-limits.ts); the engine's must not answer instead.
    if (namesLength(names) > MAX_SQL_NAME_CHARS) return { reason: 'result column names longer than allowed together' }
    // The reading must be SQLite's: as many columns, aliases where SQLite has them.
    if (names.length !== plan.columns.length) return { reason: 'not SQLite’s reading of the select list' }
    for (let i = 0; i < names.length; i++) {
      const alias = plan.aliases[i]
      if (alias !== null && alias !== names[i]) return { reason: 'not SQLite’s reading of the select list' }
    }
    return { compiled: { ops: checkedPlan(plan.ops, schemas), names, textOrder: plan.textOrder, oneRow: plan.oneRow } }
  } catch (e) {
    if (e instanceof NotCompiled) return { reason: e.message }
    throw e
  }
}

/** The plan's operations checked like a macro query's; a plan the checker refuses runs on sql.js. */
function checkedPlan(ops: readonly Op[], schemas: TableSchemas): CheckedOps {
  try {
    return checkQuery(ops, schemas).ops
  } catch (e) {
    throw new NotCompiled(`the plan does not check: ${e instanceof Error ? e.message : String(e)}`)
  }
}
