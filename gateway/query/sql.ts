/**
 * api/sql: checks that the text is one read-only statement, resolves the dotted table paths it
 * names through the catalog (only tables the caller may read), and builds the task, with those
 * paths rewritten to the schemas the worker attaches. The recipe (SQL + table versions) is what the session keeps; the query
 * service (service.ts) runs it.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultSet, RunTask, SqlTask } from '../../shared/protocol.js'
import { checkTableCount } from '../../shared/sql-table-limit.js'
import { oneRowTable, ordersAsSqlite, rewriteTableRefs, sqlShaped, type Compiled } from '../../engine/index.js'
import { readableTable } from '../catalog/tables.js'
import type { Principal } from '../catalog/principal.js'
import type { QueryServices, RecipeServices } from './deps.js'
import { followFallbacks } from './fallbacks.js'
import type { RecipeOptions } from './limits.js'
import { runOnPool } from './pool.js'
import type { RunControl } from './run-control.js'
import { buildRunTask } from './task.js'

/** What a session keeps of its last SQL query. */
export interface SqlRecipe {
  readonly kind: 'sql'
  readonly sql: string
  readonly tables: readonly { readonly path: string; readonly version: string }[]
  /** truncate_=1, as RunRecipe.truncate. */
  readonly truncate?: true
}

/** Resolves the tables a query names; paths that are not tables are left for SQLite to judge. */
export async function prepareSql(deps: RecipeServices, user: Principal, sql: string, opts: RecipeOptions = {}): Promise<SqlRecipe> {
  // The guard and the name scan depend on the text alone, so they are cached by it.
  const paths = await deps.caches.queries.sqlTableNames(sql)
  const tables: { path: string; version: string }[] = []
  for (const path of paths) {
    try {
      const t = await readableTable(deps.store, user, path)
      tables.push({ path, version: t.version })
    } catch (err) {
      // A two-part name may be alias.column (`i.store`); only longer names must be tables.
      if (!(err instanceof AppError && err.code === 'UNKNOWN_TABLE') || path.split('.').length > 2) throw err
    }
  }
  return { kind: 'sql', sql, tables, ...(opts.truncate ? { truncate: true } : {}) }
}

/**
 * The recipe's result: compiled to the columnar engine when the query is in the compiled subset
 * (engine/sql/compile) and the data let it answer exactly as SQLite would, else on sql.js. The
 * result says which (`engine`, the X-Tabula-Engine header).
 */
export async function runSql(deps: QueryServices, recipe: SqlRecipe, control: RunControl): Promise<ResultSet> {
  const onSqlite = async (): Promise<ResultSet> => {
    if (control.progress) control.progress.engine = 'sqlite'
    return { ...(await runOnPool(deps, await sqlTask(deps, recipe), control)), engine: 'sqlite' }
  }
  const compiled = await compiledSql(deps, recipe)
  if ('compiled' in compiled) {
    const { ops, names, textOrder, oneRow } = compiled.compiled
    // A table has no title of its own here: the SQL names it by its path.
    const tables = recipe.tables.map((t) => ({ ...t, title: t.path }))
    const built = await buildRunTask(deps, ops, tables, { truncate: recipe.truncate, progress: control.progress })
    // A SELECT without FROM reads one row of no table (engine/sql/compile/one-row.ts).
    const task = oneRow ? { ...built, tables: [...built.tables, oneRowTable()] } : built
    // Text with characters that order differently in UTF-8 than in UTF-16 goes to sql.js (text-order.ts).
    if (!textOrder || textOrdersAsSqliteIn(task)) {
      if (control.progress) control.progress.engine = 'columnar'
      const columnar = async (): Promise<ResultSet> => ({ ...sqlShaped(await runOnPool(deps, task, control), names), engine: 'columnar' })
      // Data the compiled plan cannot answer exactly (an integer beyond 2^53, say): sql.js answers.
      return followFallbacks(columnar, { sqlite: onSqlite })
    }
  }
  return onSqlite()
}

const textOrdersAsSqliteIn = (task: RunTask): boolean => task.tables.every((t) => t.columns.every((c) => c.dict === undefined || ordersAsSqlite(c.dict)))

/** Table paths as the worker's sql.js attaches them: t0, t1, … */
const aliasesOf = (recipe: SqlRecipe): Map<string, string> => new Map(recipe.tables.map((t, i) => [t.path, `t${i}`]))

/** The recipe compiled and checked by the engine in one call (through the compiled-query cache), or why it stays on sql.js. */
async function compiledSql(deps: RecipeServices, recipe: SqlRecipe): Promise<Compiled> {
  const aliases = aliasesOf(recipe)
  const tables = await Promise.all(
    recipe.tables.map(async (t) => ({ path: t.path, version: t.version, alias: aliases.get(t.path)!, columns: (await deps.tables.meta(t.version)).columns })),
  )
  return deps.caches.queries.compileSql(recipe.sql, tables)
}

/** The task that computes the recipe's result on a worker: the SQL over the tables' SQLite images. */
export async function sqlTask(deps: RecipeServices, recipe: SqlRecipe): Promise<SqlTask> {
  // Before any table is loaded: past 64 tables the query is refused anyway (shared/sql-table-limit.ts).
  checkTableCount(recipe.tables.length)
  const aliases = aliasesOf(recipe)
  const tables = await Promise.all(
    recipe.tables.map(async (t, i) => ({ alias: `t${i}`, version: t.version, image: await deps.tables.sqliteImage(t.version, t.path) })),
  )
  return {
    kind: 'sql',
    sql: rewriteTableRefs(recipe.sql, aliases),
    tables,
    maxRows: deps.config.maxResultRows,
    ...(recipe.truncate ? { truncate: true } : {}),
  }
}
