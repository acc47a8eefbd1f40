/**
 * api/sql: checks that the text is one read-only statement, resolves the dotted table paths it
 * names through the catalog (only tables the caller may read), rewrites them to the schemas the
 * worker attaches, and runs it in the pool. The recipe (SQL + table versions) is what the
 * session keeps; the result itself is memoised per gateway.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultSet, SqlTask } from '../../shared/protocol.js'
import { checkReadOnlySql, findTableRefs, rewriteTableRefs } from '../../engine/sql/index.js'
import { readableTable } from '../catalog/tables.js'
import type { Principal } from '../catalog/principal.js'
import type { Deps } from '../deps.js'
import { recipeKey } from './result-cache.js'

/** What a session keeps of its last SQL query. */
export interface SqlRecipe {
  readonly kind: 'sql'
  readonly sql: string
  readonly tables: readonly { readonly path: string; readonly version: string }[]
}

/** Resolves the tables a query names; paths that are not tables are left for SQLite to judge. */
export async function prepareSql(deps: Deps, user: Principal, sql: string): Promise<SqlRecipe> {
  checkReadOnlySql(sql)
  const paths = [...new Set(findTableRefs(sql).map((r) => r.path))]
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
  return { kind: 'sql', sql, tables }
}

/** Runs a recipe (or serves it from the memo) with the given abort signal. */
export async function runSqlRecipe(deps: Deps, recipe: SqlRecipe, signal?: AbortSignal): Promise<ResultSet> {
  return deps.results.getOrLoad(recipeKey(recipe), async () => {
    const aliases = new Map(recipe.tables.map((t, i) => [t.path, `t${i}`]))
    const tables = await Promise.all(
      recipe.tables.map(async (t, i) => ({ alias: `t${i}`, version: t.version, image: await deps.tables.sqliteImage(t.version) })),
    )
    const task: SqlTask = { kind: 'sql', sql: rewriteTableRefs(recipe.sql, aliases), tables, maxRows: deps.config.maxResultRows }
    return deps.runner.run(task, { signal, timeoutMs: deps.config.queryTimeoutMs })
  })
}
