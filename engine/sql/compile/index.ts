/**
 * SQL compiled to the columnar engine: one SELECT over a table and those joined to it, read by sqlparser-rs
 * (parse.ts), planned into the macro language's operations (plan.ts, expr.ts), its result named
 * by SQLite (names.ts) and shaped as sql.js shapes its own (shape.ts). A query outside the
 * subset, or one whose reading is not certainly SQLite's, is not compiled: it runs on sql.js.
 */
import type { Op } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import { NotCompiled } from './ir.js'
import { sqliteColumnNames } from './names.js'
import { loadSqlParser, readStatement } from './parse.js'
import { planQuery } from './plan.js'
import { textOrdersAsSqlite } from './text-order.js'

export { sqlShaped } from './shape.js'
export { loadSqlParser } from './parse.js'
export { ordersAsSqlite } from './text-order.js'

export interface CompiledSql {
  /** Operations after parsing (the caller checks them against the table, as for api/run). */
  readonly ops: Op[]
  /** The result's columns by engine name, and the names SQLite gives them. */
  readonly columns: readonly string[]
  readonly names: readonly string[]
  /** The plan orders text: the caller runs it only over text that orders as in SQLite (ordersAsSqlite). */
  readonly textOrder: boolean
}

export type Compiled = { readonly compiled: CompiledSql } | { readonly reason: string }

/**
 * @param rewritten the query with its table paths rewritten (`"t0"."data"`), as sql.js runs it
 * @param tables the tables the query names, with their aliases in `rewritten`
 */
export async function compileSql(
  sql: string,
  rewritten: string,
  tables: readonly { readonly path: string; readonly alias: string; readonly columns: readonly ColumnSpec[] }[],
): Promise<Compiled> {
  await loadSqlParser()
  try {
    const select = readStatement(sql)
    const plan = planQuery(select, new Map(tables.map((t) => [t.path, t.columns])))
    if (plan.textOrder && !textOrdersAsSqlite(sql)) return { reason: 'text ordered by characters whose order differs between UTF-16 and UTF-8' }
    const names = await sqliteColumnNames(rewritten, tables)
    if (names === null) return { reason: 'SQLite does not accept it' }
    // The reading must be SQLite's: as many columns, aliases where SQLite has them.
    if (names.length !== plan.columns.length) return { reason: 'not SQLite’s reading of the select list' }
    for (let i = 0; i < names.length; i++) {
      const alias = plan.aliases[i]
      if (alias !== null && alias !== names[i]) return { reason: 'not SQLite’s reading of the select list' }
    }
    return { compiled: { ops: plan.ops, columns: plan.columns, names, textOrder: plan.textOrder } }
  } catch (e) {
    if (e instanceof NotCompiled) return { reason: e.message }
    throw e
  }
}
