/** The stores of the retail demo: where transactions happen. */
import type { ColumnSpec } from '../../shared/table.js'
import { daysBetween } from './dates.js'
import type { Rng } from './random.js'
import { CITIES } from './retail-words.js'
import type { DemoTable } from './table.js'
import { ID } from './table.js'

/** Number of stores, whatever the size of the item table. */
export const STORE_COUNT = 100

/** The stores table and what the item generator needs to know about it. */
export interface Stores {
  readonly table: DemoTable
  /** Square feet by store index: bigger stores see more transactions. */
  readonly sqft: Int32Array
}

/** Generate the stores table: store numbers 1..STORE_COUNT in cities across the four regions. */
export function makeStores(rng: Rng): Stores {
  const n = STORE_COUNT
  const store = new Int32Array(n)
  const sqft = new Int32Array(n)
  const opened = new Int32Array(n)
  const city: string[] = []
  const state: string[] = []
  const region: string[] = []
  const openDays = daysBetween(19850101, 20231231)
  for (let i = 0; i < n; i++) {
    const [c, s, r] = rng.pick(CITIES)
    store[i] = i + 1
    city.push(c)
    state.push(s)
    region.push(r)
    sqft[i] = rng.int(150, 1200) * 100
    opened[i] = openDays[rng.int(0, openDays.length - 1)]
  }
  const columns: ColumnSpec[] = [
    { name: 'store', type: 'int', label: 'Store', desc: 'Store number', format: ID },
    { name: 'city', type: 'text', label: 'City' },
    { name: 'state', type: 'text', label: 'State', desc: 'Two-letter state code', width: 2 },
    { name: 'region', type: 'text', label: 'Region', desc: 'Census region' },
    { name: 'sqft', type: 'int', label: 'Square Feet', format: 'type:num;dec:0' },
    { name: 'opened', type: 'date', label: 'Opened', desc: 'Date the store opened', format: 'type:date' },
  ]
  return {
    table: { path: 'pub.demo.retail.stores', title: 'Retail Demo: Stores', columns, data: [store, city, state, region, sqft, opened] },
    sqft,
  }
}
