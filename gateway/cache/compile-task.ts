/**
 * Parsing and checking a macro query, parsing a dynamic query's XML, and guarding and compiling an
 * SQL text, on a compiler thread (compile-thread.ts) rather than the gateway's: all cost time in proportion to the query's text
 * and operations, up to about a second for a query of MAX_QUERY_BYTES (0.6 MB of <willbe> took
 * 0.4 s to parse and 0.08 s to check; parseDynamic of 8,000 <willbe> 0.6 s, on every api/new and
 * every request to a dynamic instance), and on the gateway's thread that time was every other
 * request's wait (an SQL select of 3,000 expressions, 67 KB, took 0.19 s to guard).
 *
 * What crosses back is plain data: the parsed or checked operations (structured clone), or a
 * refusal as an error payload with the message the gateway would have given.
 */
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import {
  checkMacro,
  compileSql,
  guardSql,
  loadSqlParser,
  markWide,
  parseDynamic,
  parseMacro,
  type CheckedOps,
  type Compiled,
  type DynamicApp,
  type ParsedQuery,
  type SqlTableSchema,
} from '../../engine/index.js'

// The SQL parser loads before the thread reports ready (compile-task-door.cts): every SQL query
// is guarded before it starts, so none waits for it.
await loadSqlParser()

/** Parse a query: its operations and the tables they name. */
export interface ParseTask {
  readonly kind: 'parse'
  readonly xml: string
  readonly vars: Readonly<Record<string, string>>
}

/** Parse and check a query against the columns of the tables it reads, with these int operators wide. */
export interface CheckTask {
  readonly kind: 'check'
  readonly xml: string
  readonly vars: Readonly<Record<string, string>>
  readonly tables: readonly { readonly path: string; readonly columns: readonly ColumnSpec[] }[]
  readonly wide: readonly string[]
}

/** Parse a dynamic query's XML: its variables, widgets and dos, or null when it has no <dynamic>. */
export interface DynamicTask {
  readonly kind: 'dynamic'
  readonly xml: string
}

/** Check an SQL text against the read-only guard: the distinct dotted names it uses. */
export interface GuardTask {
  readonly kind: 'guard'
  readonly sql: string
}

/** Compile and check an SQL text against these tables (see CompiledQueries.compileSql). */
export interface SqlTask {
  readonly kind: 'sql'
  readonly sql: string
  readonly tables: readonly SqlTableSchema[]
}

export type CompileTask = ParseTask | CheckTask | DynamicTask | GuardTask | SqlTask

export type CompileOutcome =
  | { readonly ok: true; readonly parsed: ParsedQuery }
  | { readonly ok: true; readonly app: DynamicApp | null }
  | { readonly ok: true; readonly names: readonly string[] }
  | { readonly ok: true; readonly sql: Compiled }
  | { readonly ok: true; readonly checked: CheckedOps }
  | { readonly ok: false; readonly error: ErrorPayload }

async function compile(task: CompileTask): Promise<CompileOutcome> {
  if (task.kind === 'dynamic') return { ok: true, app: parseDynamic(task.xml) }
  if (task.kind === 'guard') return { ok: true, names: guardSql(task.sql) }
  if (task.kind === 'sql') return { ok: true, sql: await compileSql(task.sql, task.tables) }
  const { ops, tables } = parseMacro(task.xml, task.vars)
  if (task.kind === 'parse') return { ok: true, parsed: { ops, tables } }
  const wide = new Set(task.wide)
  const schemas = new Map(task.tables.map((t) => [t.path, t.columns]))
  return { ok: true, checked: checkMacro(wide.size > 0 ? markWide(ops, wide) : ops, schemas) }
}

export default async function compileTask(task: CompileTask): Promise<CompileOutcome> {
  try {
    return await compile(task)
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('INTERNAL', 'The query could not be compiled.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
