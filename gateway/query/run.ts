/**
 * api/run: the gateway parses and expands the query, resolves the tables it names through the
 * catalog (only tables the caller may read: others are reported exactly like missing ones),
 * checks it against their schemas, and hands the worker the checked operations plus the tables'
 * columns in shared memory. The session (or instance) keeps the recipe (query + versions); the
 * query service (service.ts) runs it.
 */
import type { RunTask } from '../../shared/protocol.js'
import type { CheckedTable } from '../cache/compiled-queries.js'
import { readableTable } from '../catalog/tables.js'
import type { Principal } from '../catalog/principal.js'
import type { RecipeServices } from './deps.js'
import type { RecipeOptions } from './limits.js'
import type { ProgressCell } from './running/index.js'
import { buildRunTask } from './task.js'

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

/**
 * Parses, resolves and checks a query; bad queries fail here, before a worker is involved. The
 * parse and the check come from the gateway's compiled-query cache (keyed by text, variables and
 * table versions, so never stale); the tables are resolved through the catalog every time.
 */
export async function prepareRun(
  deps: RecipeServices,
  user: Principal,
  xml: string,
  vars: Readonly<Record<string, string>> = {},
  opts: RecipeOptions = {},
): Promise<RunRecipe> {
  const parsed = await deps.caches.queries.parseRun(xml, vars)
  const tables = []
  for (const path of parsed.tables) {
    const t = await readableTable(deps.store, user, path)
    tables.push({ path, version: t.version, title: t.title, columns: t.columns })
  }
  await deps.caches.queries.checkRun(xml, vars, tables)
  return { kind: 'run', xml, vars, tables: tables.map(({ path, version, title }) => ({ path, version, title })), ...(opts.truncate ? { truncate: true } : {}) }
}

/**
 * The task that computes the recipe's result on a worker (task.ts): the checked operations and the
 * tables' columns in shared memory. `progress`, when given, is where the worker reports how far it
 * got (`!status`).
 */
export async function runTaskOf(deps: RecipeServices, recipe: RunRecipe, progress?: ProgressCell): Promise<RunTask> {
  // Usually a cache hit: prepareRun checked the same text against the same versions.
  const ops = await deps.caches.queries.checkRun(recipe.xml, recipe.vars, await schemasOf(deps, recipe))
  return buildRunTask(deps, ops, recipe.tables, { truncate: recipe.truncate, progress })
}

/**
 * After a run overflowed an int operator (engine/expr/widening.ts; `operator` its key): whether the
 * recipe's query is now checked with that operator wide, so that running it again can succeed.
 */
export async function widenRecipe(deps: RecipeServices, recipe: RunRecipe, operator: string): Promise<boolean> {
  return deps.caches.queries.widenRun(recipe.xml, recipe.vars, await schemasOf(deps, recipe), operator)
}

async function schemasOf(deps: RecipeServices, recipe: RunRecipe): Promise<CheckedTable[]> {
  const metas = await Promise.all(recipe.tables.map((t) => deps.tables.meta(t.version)))
  return recipe.tables.map((t, i) => ({ path: t.path, version: t.version, columns: metas[i].columns }))
}
