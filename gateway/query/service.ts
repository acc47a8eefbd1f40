/**
 * The query service: the life of one query once its recipe is prepared (run.ts, sql.ts,
 * dynamic-run.ts: tables resolved through the catalog, the query compiled through the
 * compiled-query cache). Its result comes from the memo (Results), or its task is built and run
 * on the pool under the query's one signal and one time limit (pool.ts, parallel.ts), bounded
 * (limits.ts) and left in the memo; concurrent identical queries share one run.
 * Keeping the result in the Store for other gateways is Results.keep, called by the routes that
 * answer a result (and by Results.readable).
 */
import type { ResultSet } from '../../shared/protocol.js'
import type { QueryServices } from './deps.js'
import { followFallbacks } from './fallbacks.js'
import { runOnPool } from './pool.js'
import type { RunControl } from './run-control.js'
import { runTaskOf, widenRecipe, type RunRecipe } from './run.js'
import { runSql, type SqlRecipe } from './sql.js'
import { windowReader } from './task.js'

/** What is kept of a query between requests, and what its result is a pure function of. */
export type Recipe = RunRecipe | SqlRecipe

/**
 * The recipe's result: from the memo, or run on the pool under the request's controls (`control`:
 * its stop signals, its time limit, its progress cell for `!status`, its user). A run shared with
 * a concurrent identical request runs under that request's controls.
 */
export function runRecipe(deps: QueryServices, recipe: Recipe, control: RunControl = {}): Promise<ResultSet> {
  return deps.results.memo.getOrLoad(deps.results.key(recipe), async () => {
    // Either kind's task may carry a table larger than TABLE_CACHE_MB, read a window at a time (windowed.ts).
    const withWindows = { ...control, windows: windowReader(deps) }
    switch (recipe.kind) {
      case 'run':
        return runWidening(deps, recipe, withWindows)
      case 'sql':
        return runSql(deps, recipe, withWindows)
    }
  })
}

/**
 * Runs a macro query; when an int operator overflows, runs it again with that operator computing
 * in big integers (engine/expr/widening.ts), once per operator at most.
 */
function runWidening(deps: QueryServices, recipe: RunRecipe, control: RunControl): Promise<ResultSet> {
  return followFallbacks(async () => runOnPool(deps, await runTaskOf(deps, recipe, control.progress), control), {
    widen: (operator) => widenRecipe(deps, recipe, operator),
  })
}
