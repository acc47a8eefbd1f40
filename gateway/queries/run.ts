/**
 * api/run: the gateway parses and expands the query, resolves the tables it names through the
 * catalog (only tables the caller may read: others are reported exactly like missing ones),
 * checks it against their schemas, and hands the worker the checked operations plus the tables'
 * columns in shared memory. The session keeps the recipe (query + versions).
 */
import type { ResultSet, RunTask, TableInput } from '../../shared/protocol.js'
import type { ColumnSpec } from '../../shared/table.js'
import { parseQuery, tableRefs } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import type { Op } from '../../engine/ast.js'
import { readableTable } from '../catalog/tables.js'
import type { Principal } from '../catalog/principal.js'
import type { Deps } from '../deps.js'
import type { RecipeOptions } from './limits.js'
import { runOnPool, type RunControl } from './pool.js'
import { recipeKey } from './result-cache.js'

export interface RunRecipe {
  readonly kind: 'run'
  readonly xml: string
  readonly vars: Readonly<Record<string, string>>
  readonly tables: readonly { readonly path: string; readonly version: string; readonly title: string }[]
  /**
   * truncate_=1: a result over MAX_RESULT_ROWS or MAX_RESULT_BYTES is cut to its first rows
   * instead of refused. Part of the recipe, so a cut result is never served to a request that
   * did not ask for one (the memo's key is the recipe). Absent, not false, when off: the keys of
   * recipes kept before it existed stay the same.
   */
  readonly truncate?: true
}

/** Parses, resolves and checks a query; bad queries fail here, before a worker is involved. */
export async function prepareRun(deps: Deps, user: Principal, xml: string, vars: Readonly<Record<string, string>> = {}, opts: RecipeOptions = {}): Promise<RunRecipe> {
  const ops = parseQuery(xml, vars)
  const tables = []
  for (const path of tableRefs(ops)) {
    const t = await readableTable(deps.store, user, path)
    tables.push({ path, version: t.version, title: t.title, columns: t.columns })
  }
  checkQuery(ops, new Map(tables.map((t) => [t.path, t.columns as readonly ColumnSpec[]])))
  return { kind: 'run', xml, vars, tables: tables.map(({ path, version, title }) => ({ path, version, title })), ...(opts.truncate ? { truncate: true } : {}) }
}

async function tableInput(deps: Deps, t: RunRecipe['tables'][number]): Promise<TableInput> {
  const meta = await deps.tables.meta(t.version)
  const columns = await Promise.all(
    meta.columns.map(async (spec, i) => {
      const loaded = await deps.tables.column(t.version, i)
      return { spec, buffer: loaded.buffer, ...(loaded.dict ? { dict: loaded.dict } : {}) }
    }),
  )
  return { path: t.path, version: t.version, rows: meta.rows, title: t.title, columns }
}

/**
 * Runs a recipe on the pool (or serves it from the memo). `control.progress`, when given, is where
 * the worker reports how far it got (`!status`); a run shared with a concurrent identical request
 * runs under that request's controls.
 */
export async function runRunRecipe(deps: Deps, recipe: RunRecipe, control: RunControl = {}): Promise<ResultSet> {
  return deps.results.getOrLoad(recipeKey(recipe), async () => {
    const ops: Op[] = checkQuery(parseQuery(recipe.xml, recipe.vars), await schemasOf(deps, recipe)).ops
    const tables = await Promise.all(recipe.tables.map((t) => tableInput(deps, t)))
    const task: RunTask = {
      kind: 'run',
      ops,
      tables,
      maxRows: deps.config.maxResultRows,
      ...(recipe.truncate ? { truncate: true } : {}),
      ...(control.progress ? { progress: control.progress.buffer } : {}),
    }
    return runOnPool(deps, task, control)
  })
}

async function schemasOf(deps: Deps, recipe: RunRecipe): Promise<Map<string, readonly ColumnSpec[]>> {
  const metas = await Promise.all(recipe.tables.map((t) => deps.tables.meta(t.version)))
  return new Map(recipe.tables.map((t, i) => [t.path, metas[i].columns]))
}
