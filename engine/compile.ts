/**
 * Compiling a query, the part of the engine the gateway runs on its own thread: a macro query is
 * parsed (blocks expanded, variables substituted) and checked against its tables' columns; an SQL
 * text passes the read-only guard. All three are pure functions of their inputs, which is what
 * lets the gateway answer a bad query with an early 400 before it takes a worker, and cache what
 * it compiled (gateway/cache/compiled-queries.ts). Running the compiled operations is the
 * worker's (engine/worker.ts).
 */
import type { Op } from './ast.js'
import { checkQuery, type CheckedOps, type TableSchemas } from './check/index.js'
import { parseQuery, tableRefs } from './parse/index.js'
import { checkReadOnlySql, findTableRefs } from './sql/index.js'

/** A macro query parsed: its operations and the stored tables they read, in order, once each. */
export interface ParsedQuery {
  readonly ops: readonly Op[]
  readonly tables: readonly string[]
}

/**
 * Parses a macro query; its tables are those to resolve, authorise and check it against.
 * @throws AppError PARSE_ERROR, CHECK_ERROR or EXPR_ERROR, as parseQuery
 */
export function parseMacro(xml: string, vars: Readonly<Record<string, string>>): ParsedQuery {
  const ops = parseQuery(xml, vars)
  return { ops, tables: tableRefs(ops) }
}

/**
 * The parsed operations checked against the columns of every table they read: typed, and ready
 * for a worker, whose interpreter takes nothing else (check/checked.ts).
 * @throws AppError CHECK_ERROR (or EXPR_ERROR), as checkQuery
 */
export function checkMacro(ops: readonly Op[], tables: TableSchemas): CheckedOps {
  return checkQuery(ops, tables).ops
}

/**
 * The distinct dotted table names an SQL text reads, once it passed the read-only guard.
 * @throws AppError when the text is not a single read-only statement, as checkReadOnlySql
 */
export function guardSql(sql: string): readonly string[] {
  checkReadOnlySql(sql)
  return [...new Set(findTableRefs(sql).map((r) => r.path))]
}
