/** Public API of the demo data generators. */
export type { DemoTable } from './table.js'
export type { RetailOptions } from './retail.js'
export { DEFAULT_SEED, FIRST_DAY, LAST_DAY, makeRetailDemo, MAX_DEMO_ROWS, STORE_COUNT } from './retail.js'
export type { WeightTable } from './random.js'
export { Rng, subSeed, weights } from './random.js'
