/**
 * The services each step of a query's life reads, named as in `Deps`: a route passes its `deps`
 * whole, and a function says (and a test or a benchmark builds) only what it uses.
 */
import type { Deps } from '../deps.js'

/** Handing tasks to the workers: the limits and the pool. */
export type PoolServices = Pick<Deps, 'config' | 'runner'>

/** Preparing a recipe and building its task: the compiled-query cache, the catalog and the loaded tables. */
export type RecipeServices = Pick<Deps, 'config' | 'caches' | 'store' | 'tables'>

/** Running a recipe: preparing it, the pool, and the results it is looked up in and kept as. */
export type QueryServices = PoolServices & RecipeServices & Pick<Deps, 'results'>
