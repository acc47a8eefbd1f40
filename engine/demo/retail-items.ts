/** The line items of the retail demo: one row per product in a store transaction. */
import type { ColumnSpec } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import type { ColumnValues } from '../storage/types.js'
import { daysBetween } from './dates.js'
import type { Rng } from './random.js'
import { weights } from './random.js'
import type { Products } from './retail-products.js'
import type { Stores } from './retail-stores.js'
import { PAYMENT_WEIGHTS, PAYMENTS } from './retail-words.js'
import type { DemoTable } from './table.js'
import { ID, MONEY, round2 } from './table.js'

/** Items are dated from the first to the last day of this range (yyyymmdd). */
export const FIRST_DAY = 20240101
export const LAST_DAY = 20251231

/** Lines per transaction, 1..8: most baskets are small. */
const LINES = weights([30, 22, 16, 11, 8, 6, 4, 3])
/** Quantity per line, 1..10, skewed towards 1. */
const QTY = weights([45, 22, 12, 7, 5, 3, 2, 2, 1, 1])
const PAYMENT = weights(PAYMENT_WEIGHTS)
const DISCOUNTS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5]

/**
 * Generate `rows` line items. Transactions follow each other in time; every sku and store
 * exists in `products` and `stores`.
 */
export function makeItems(rng: Rng, rows: number, stores: Stores, products: Products): DemoTable {
  const trans = new Int32Array(rows)
  const date = new Int32Array(rows)
  const store = new Int32Array(rows)
  const sku = new Int32Array(rows)
  const customer = new Int32Array(rows)
  const qty = new Int32Array(rows)
  const sales = new Float64Array(rows)
  const cost = new Float64Array(rows)
  // Pushed, not preallocated: V8 keeps a pushed array packed, whereas new Array(10M) is sparse.
  const payment: string[] = []

  const days = daysBetween(FIRST_DAY, LAST_DAY)
  const storeWeights = weights(Array.from(stores.sqft))
  const customers = Math.min(200_000, Math.max(100, Math.floor(rows / 8)))
  // Popularity is a shuffled rank, so best sellers are spread over departments and sku numbers.
  const n = products.sku.length
  const byRank = shuffled(rng, n)
  const { price, unitCost } = products

  let r = 0
  let t = 0
  while (r < rows) {
    t++
    const lines = Math.min(rows - r, 1 + rng.weighted(LINES))
    // Transactions are in time order, so dates rise with the transaction id across the range.
    const day = days[Math.floor((r * days.length) / rows)]
    const st = 1 + rng.weighted(storeWeights)
    // One in five shoppers is anonymous; loyal customers (low ids) come more often.
    const cust = rng.chance(0.2) ? NA_INT : 1 + Math.floor(customers * rng.next() * rng.next())
    const pay = rng.chance(0.015) ? '' : PAYMENTS[rng.weighted(PAYMENT)]
    for (const end = r + lines; r < end; r++) {
      const u = rng.next()
      const p = byRank[Math.floor(n * u * u)]
      const q = 1 + rng.weighted(QTY)
      const discount = rng.chance(0.7) ? 0 : rng.pick(DISCOUNTS)
      trans[r] = t
      date[r] = day
      store[r] = st
      sku[r] = products.sku[p]
      customer[r] = cust
      qty[r] = q
      sales[r] = round2(q * price[p] * (1 - discount))
      cost[r] = round2(q * unitCost[p])
      payment.push(pay)
    }
  }

  const columns: ColumnSpec[] = [
    { name: 'trans', type: 'int', label: 'Transaction ID', format: ID },
    { name: 'date', type: 'date', label: 'Date', format: 'type:date' },
    { name: 'store', type: 'int', label: 'Store', desc: 'Store number (pub.demo.retail.stores)', format: ID },
    { name: 'sku', type: 'int', label: 'SKU', desc: 'Product (pub.demo.retail.products)', format: ID },
    { name: 'customer', type: 'int', label: 'Customer ID', desc: 'Loyalty card number; N/A if anonymous', format: ID },
    { name: 'qty', type: 'int', label: 'Quantity' },
    { name: 'sales', type: 'float', label: 'Sales ($)', desc: 'Amount paid, after discounts', format: MONEY },
    { name: 'cost', type: 'float', label: 'Cost ($)', desc: 'Cost of the goods sold', format: MONEY },
    { name: 'payment', type: 'text', label: 'Payment Type' },
  ]
  const data: ColumnValues[] = [trans, date, store, sku, customer, qty, sales, cost, payment]
  return { path: 'pub.demo.retail.item', title: 'Retail Demo: Line Items', columns, data }
}

/** A seeded random permutation of 0..n-1 (Fisher–Yates). */
function shuffled(rng: Rng, n: number): Int32Array {
  const a = new Int32Array(n)
  for (let i = 0; i < n; i++) a[i] = i
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i)
    const x = a[i]
    a[i] = a[j]
    a[j] = x
  }
  return a
}
