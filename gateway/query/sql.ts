/**
 * api/sql: checks that the text is one read-only statement, resolves the dotted table paths it
 * names through the catalog (only tables the caller may read), and builds the task, with those
 * paths rewritten to the schemas the worker attaches. The recipe (SQL + table versions) is what the session keeps; the query
 * service (service.ts) runs it.
 */
import { AppError } from '../../shared/errors.js'
import type { SqlTask } from '../../shared/protocol.js'
import { rewriteTableRefs } from '../../engine/index.js'
import { readableTable } from '../catalog/tables.js'
import type { Principal } from '../catalog/principal.js'
import type { RecipeServices } from './services.js'
import type { RecipeOptions } from './limits.js'

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
  const paths = deps.caches.queries.sqlTableNames(sql)
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

/** The task that computes the recipe's result on a worker: the SQL over the tables' SQLite images. */
export async function sqlTask(deps: RecipeServices, recipe: SqlRecipe): Promise<SqlTask> {
  const aliases = new Map(recipe.tables.map((t, i) => [t.path, `t${i}`]))
  const tables = await Promise.all(recipe.tables.map(async (t, i) => ({ alias: `t${i}`, version: t.version, image: await deps.tables.sqliteImage(t.version) })))
  return {
    kind: 'sql',
    sql: rewriteTableRefs(recipe.sql, aliases),
    tables,
    maxRows: deps.config.maxResultRows,
    ...(recipe.truncate ? { truncate: true } : {}),
  }
}
