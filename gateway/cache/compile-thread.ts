/**
 * The compiler threads: macro queries are parsed and checked here (compile-task.ts), beside the
 * gateway's thread, whose event loop serves every request. Two threads, so one large query does
 * not hold up every other; one is kept started so that a query does not wait for the engine's
 * parser to load, and the other ends after a while idle.
 */
import { Piscina } from 'piscina'
import { AppError, fromPayload } from '../../shared/errors.js'
import type { CheckedOps, Compiled, DynamicApp, ParsedQuery } from '../../engine/index.js'
import type { CheckTask, CompileOutcome, CompileTask, ParseTask, SqlTask } from './compile-task.js'

const TASK_FILE = new URL('./compile-task-door.cjs', import.meta.url)

/** A second compiler thread idle this long ends. */
const IDLE_MS = 30_000

let pool: Piscina | null = null

function compilerPool(): Piscina {
  pool ??= new Piscina({ filename: TASK_FILE.href, minThreads: 1, maxThreads: 2, idleTimeout: IDLE_MS })
  return pool
}

/**
 * Starts the compiler threads and resolves once one has answered, so that a gateway serves only
 * once it can guard and parse queries (the gateway awaits it at start): the first query of a
 * fresh gateway otherwise waited for the thread to load the engine and the SQL parser.
 */
export async function startCompiler(): Promise<void> {
  await guardOffThread('select 1 as n')
}

async function compile(task: CompileTask): Promise<CompileOutcome & { ok: true }> {
  let outcome: CompileOutcome
  try {
    outcome = (await compilerPool().run(task)) as CompileOutcome
  } catch (err) {
    throw err instanceof AppError ? err : new AppError('INTERNAL', 'The query compiler failed.', {}, { cause: err })
  }
  if (!outcome.ok) throw fromPayload(outcome.error)
  return outcome
}

/** parseMacro, off the event loop. */
export async function parseOffThread(xml: string, vars: ParseTask['vars']): Promise<ParsedQuery> {
  const outcome = await compile({ kind: 'parse', xml, vars })
  if (!('parsed' in outcome)) throw new AppError('INTERNAL', 'The query compiler answered a parse with something else.')
  return outcome.parsed
}

/** parseMacro then checkMacro (with the int operators `wide` widened), off the event loop. */
export async function checkOffThread(xml: string, vars: CheckTask['vars'], tables: CheckTask['tables'], wide: readonly string[]): Promise<CheckedOps> {
  const outcome = await compile({ kind: 'check', xml, vars, tables, wide })
  if (!('checked' in outcome)) throw new AppError('INTERNAL', 'The query compiler answered a check with something else.')
  return outcome.checked
}

/** parseDynamic, off the event loop. */
export async function parseDynamicOffThread(xml: string): Promise<DynamicApp | null> {
  const outcome = await compile({ kind: 'dynamic', xml })
  if (!('app' in outcome)) throw new AppError('INTERNAL', 'The query compiler answered a dynamic parse with something else.')
  return outcome.app
}

/** guardSql (the read-only guard and the names an SQL text uses), off the event loop. */
export async function guardOffThread(sql: string): Promise<readonly string[]> {
  const outcome = await compile({ kind: 'guard', sql })
  if (!('names' in outcome)) throw new AppError('INTERNAL', 'The query compiler answered a guard with something else.')
  return outcome.names
}

/** compileSql (compiled and checked, or why it runs on sql.js), off the event loop. */
export async function compileSqlOffThread(sql: string, tables: SqlTask['tables']): Promise<Compiled> {
  const outcome = await compile({ kind: 'sql', sql, tables })
  if (!('sql' in outcome)) throw new AppError('INTERNAL', 'The query compiler answered an SQL compile with something else.')
  return outcome.sql
}

/** Ends the compiler threads (the next query starts them again). */
export async function closeCompiler(): Promise<void> {
  const p = pool
  pool = null
  await p?.destroy()
}
