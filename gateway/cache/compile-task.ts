/**
 * Parsing and checking a macro query on a compiler thread (compile-thread.ts) rather than the
 * gateway's: both cost time in proportion to the query's text and operations, up to about a second
 * for a query of MAX_QUERY_BYTES (0.6 MB of <willbe> took 0.4 s to parse and 0.08 s to check),
 * and on the gateway's thread that time was every other request's wait.
 *
 * What crosses back is plain data: the parsed or checked operations (structured clone), or a
 * refusal as an error payload with the message the gateway would have given.
 */
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { checkMacro, markWide, parseMacro, type CheckedOps, type ParsedQuery } from '../../engine/index.js'

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

export type CompileTask = ParseTask | CheckTask

export type CompileOutcome =
  | { readonly ok: true; readonly parsed: ParsedQuery }
  | { readonly ok: true; readonly checked: CheckedOps }
  | { readonly ok: false; readonly error: ErrorPayload }

function compile(task: CompileTask): CompileOutcome {
  const { ops, tables } = parseMacro(task.xml, task.vars)
  if (task.kind === 'parse') return { ok: true, parsed: { ops, tables } }
  const wide = new Set(task.wide)
  const schemas = new Map(task.tables.map((t) => [t.path, t.columns]))
  return { ok: true, checked: checkMacro(wide.size > 0 ? markWide(ops, wide) : ops, schemas) }
}

export default function compileTask(task: CompileTask): CompileOutcome {
  try {
    return compile(task)
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('INTERNAL', 'The query could not be compiled.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
