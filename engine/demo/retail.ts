/**
 * A deterministic synthetic retail data set: line items of store transactions, the products they
 * sell and the stores they happen in, in the shape of 1010data's `pub.demo.retail` tables. The
 * same options always give byte-identical data. Columns are generated straight into typed arrays
 * (no per-row objects) so that millions of rows take seconds.
 */
import { AppError } from '../../shared/errors.js'
import { Rng, subSeed } from './random.js'
import { makeItems } from './retail-items.js'
import { makeProducts } from './retail-products.js'
import { makeStores } from './retail-stores.js'
import type { DemoTable } from './table.js'

export type { DemoTable } from './table.js'
export { STORE_COUNT } from './retail-stores.js'
export { FIRST_DAY, LAST_DAY } from './retail-items.js'

/** Options of makeRetailDemo: the number of line items and the random seed. */
export interface RetailOptions {
  readonly rows: number
  readonly seed?: number
}

/** Seed used when none is given. */
export const DEFAULT_SEED = 1010

/** Largest item table: transaction ids and row numbers must stay within Int32. */
export const MAX_DEMO_ROWS = 200_000_000

/**
 * Generate `pub.demo.retail.item` (opts.rows line items), `pub.demo.retail.products` (10,000
 * products, fewer for small item tables but at least 50) and `pub.demo.retail.stores` (100 stores),
 * in that order. Every item's sku and store exist in the other two tables.
 */
export function makeRetailDemo(opts: RetailOptions): DemoTable[] {
  const { rows, seed = DEFAULT_SEED } = opts
  if (!Number.isSafeInteger(rows) || rows < 0 || rows > MAX_DEMO_ROWS) {
    throw new AppError('INVALID_PARAMETER', `The demo row count must be an integer from 0 to ${MAX_DEMO_ROWS}.`, { rows })
  }
  if (!Number.isSafeInteger(seed)) throw new AppError('INVALID_PARAMETER', 'The demo seed must be an integer.', { seed })
  // Each table has its own random stream, so e.g. the stores do not change with the row count.
  const stores = makeStores(new Rng(subSeed(seed, 1)))
  const products = makeProducts(new Rng(subSeed(seed, 2)), productCount(rows))
  const items = makeItems(new Rng(subSeed(seed, 3)), rows, stores, products)
  return [items, products.table, stores.table]
}

/** About one product per ten line items, between 50 and 10,000. */
function productCount(rows: number): number {
  return Math.min(10_000, Math.max(50, Math.floor(rows / 10)))
}
