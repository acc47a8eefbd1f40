/** The products of the retail demo: what the line items sell. */
import type { ColumnSpec } from '../../shared/table.js'
import type { ColumnValues } from '../storage/types.js'
import type { Rng } from './random.js'
import { ADJECTIVES, BRANDS, GROUPS } from './retail-words.js'
import type { DemoTable } from './table.js'
import { ID, MONEY, round2 } from './table.js'

/** The products table and what the item generator needs to know about it. */
export interface Products {
  readonly table: DemoTable
  readonly sku: Int32Array
  readonly price: Float64Array
  /** What one unit costs the retailer (not published: the item table's cost column uses it). */
  readonly unitCost: Float64Array
}

const CENTS = [0.29, 0.49, 0.79, 0.99]

/** Generate `n` products with unique, ascending skus, named from the word lists. */
export function makeProducts(rng: Rng, n: number): Products {
  const sku = new Int32Array(n)
  const dept = new Int32Array(n)
  const group = new Int32Array(n)
  const price = new Float64Array(n)
  const unitCost = new Float64Array(n)
  const description: string[] = []
  const deptdesc: string[] = []
  const groupdesc: string[] = []
  const brand: string[] = []
  for (let i = 0; i < n; i++) {
    const g = rng.pick(GROUPS)
    // Ascending but not contiguous, so a sku never doubles as a row number.
    sku[i] = 100_000 + i * 10 + rng.int(1, 9)
    dept[i] = g.dept
    group[i] = g.group
    deptdesc.push(g.deptdesc)
    groupdesc.push(g.groupdesc)
    // The house brand (first) takes a quarter of the shelf.
    const b = rng.chance(0.25) ? BRANDS[0] : BRANDS[rng.int(1, BRANDS.length - 1)]
    brand.push(b)
    const adjective = rng.chance(0.5) ? `${rng.pick(ADJECTIVES)} ` : ''
    description.push(`${b} ${adjective}${rng.pick(g.nouns)} ${rng.pick(g.sizes)}`)
    // Log-uniform within the group's range, then priced like a shelf tag: whole dollars + .29/.49/.79/.99.
    const raw = g.minPrice * Math.pow(g.maxPrice / g.minPrice, rng.next())
    price[i] = round2(Math.floor(raw) + rng.pick(CENTS))
    unitCost[i] = price[i] * (0.5 + 0.3 * rng.next())
  }
  const columns: ColumnSpec[] = [
    { name: 'sku', type: 'int', label: 'SKU', desc: 'Stock keeping unit', format: ID },
    { name: 'description', type: 'text', label: 'Description', width: 40 },
    { name: 'dept', type: 'int', label: 'Department' },
    { name: 'deptdesc', type: 'text', label: 'Department Name' },
    { name: 'group', type: 'int', label: 'Group' },
    { name: 'groupdesc', type: 'text', label: 'Group Name' },
    { name: 'brand', type: 'text', label: 'Brand' },
    { name: 'price', type: 'float', label: 'Price ($)', desc: 'Shelf price of one unit', format: MONEY },
  ]
  const data: ColumnValues[] = [sku, description, dept, deptdesc, group, groupdesc, brand, price]
  return { table: { path: 'pub.demo.retail.products', title: 'Retail Demo: Products', columns, data }, sku, price, unitCost }
}
