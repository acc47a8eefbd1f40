/**
 * The suite's synthetic schema, wider than the retail demo:
 *
 * - `orders` (the fact table, N rows): id (1…N, the load order), placed and shipped (dates;
 *   shipped 5% N/A), region (text, 10 values), city (text, 1,000 values, 5% N/A), customer
 *   (text, 100,000 values), store (int, 500 values), product (int key into products; 0.5% of
 *   rows name no product), qty (int 1–20, 5% N/A), price (float), amount (float, 5% N/A);
 * - `archive` (N/5 rows): older orders with the same columns but shipped, for `<merge>`;
 * - `products` (100,000 rows, int key product) and `customers` (100,000 rows, text key
 *   customer): dimensions to link on one key;
 * - `targets` (store × month, 18,000 rows): a dimension to link on two keys.
 *
 * Every value is a hash of (seed, column, row): the same seed gives the same tables at any size.
 */
import type { BenchTable } from '../data.js'
import { cents, fillColumn, specOf, type GeneratedColumn } from './columns.js'
import { dayTable } from './calendar.js'
import { brandName, CATEGORIES, cityName, customerName, managerName, REGIONS, SEGMENTS } from './pools.js'
import { below, unit } from './random.js'

export const DEFAULT_SEED = 20_261_127
export const DIMENSION_ROWS = 100_000
export const STORES = 500
const PRODUCT_KEYS = 100_500
const ORDER_DAYS = dayTable(20220101, 1096 + 10)
const LAUNCH_DAYS = dayTable(20150101, 3650)
const MONTHS = 36

/** The macro-language path of each table; its DuckDB name is the last part. */
export const PATHS = {
  orders: 'pub.suite.orders',
  archive: 'pub.suite.archive',
  products: 'pub.suite.products',
  customers: 'pub.suite.customers',
  targets: 'pub.suite.targets',
} as const

export type SuiteTableName = keyof typeof PATHS

export type SuiteData = Readonly<Record<SuiteTableName, BenchTable>>

/** The order columns; `withShipped` false for the archive, which lacks shipped. */
function orderColumns(seed: number, idBase: number, withShipped: boolean): GeneratedColumn[] {
  const dayIndex = (r: number) => below(seed, 1, r, 1096)
  return [
    { name: 'id', type: 'int', na: 0, value: (r) => idBase + r + 1 },
    { name: 'placed', type: 'date', na: 0, value: (r) => ORDER_DAYS[dayIndex(r)] },
    ...(withShipped ? [{ name: 'shipped', type: 'date', na: 0.05, value: (r: number) => ORDER_DAYS[dayIndex(r) + below(seed, 2, r, 10)] } as const] : []),
    { name: 'region', type: 'text', na: 0, value: (r) => REGIONS[below(seed, 3, r, REGIONS.length)] },
    { name: 'city', type: 'text', na: 0.05, value: (r) => cityName(below(seed, 4, r, 1000)) },
    { name: 'customer', type: 'text', na: 0, value: (r) => customerName(below(seed, 5, r, DIMENSION_ROWS)) },
    { name: 'store', type: 'int', na: 0, value: (r) => 1 + below(seed, 6, r, STORES) },
    { name: 'product', type: 'int', na: 0, value: (r) => 1 + below(seed, 7, r, PRODUCT_KEYS) },
    { name: 'qty', type: 'int', na: 0.05, value: (r) => 1 + below(seed, 8, r, 20) },
    { name: 'price', type: 'float', na: 0, value: (r) => cents(0.5 + unit(seed, 9, r) * 499.5) },
    { name: 'amount', type: 'float', na: 0.05, value: (r) => cents(unit(seed, 10, r) * 1000) },
  ]
}

const productColumns = (seed: number): GeneratedColumn[] => [
  { name: 'product', type: 'int', na: 0, value: (r) => r + 1 },
  { name: 'category', type: 'text', na: 0, value: (r) => CATEGORIES[below(seed, 1, r, CATEGORIES.length)] },
  { name: 'brand', type: 'text', na: 0, value: (r) => brandName(below(seed, 2, r, 1000)) },
  { name: 'weight', type: 'float', na: 0.05, value: (r) => cents(0.1 + unit(seed, 3, r) * 20) },
  { name: 'launch', type: 'date', na: 0, value: (r) => LAUNCH_DAYS[below(seed, 4, r, LAUNCH_DAYS.length)] },
]

const customerColumns = (seed: number): GeneratedColumn[] => [
  { name: 'customer', type: 'text', na: 0, value: (r) => customerName(r) },
  { name: 'segment', type: 'text', na: 0, value: (r) => SEGMENTS[below(seed, 1, r, SEGMENTS.length)] },
  { name: 'joined', type: 'date', na: 0, value: (r) => LAUNCH_DAYS[below(seed, 2, r, LAUNCH_DAYS.length)] },
  { name: 'credit', type: 'float', na: 0.05, value: (r) => cents(unit(seed, 3, r) * 10_000) },
]

const targetColumns = (seed: number): GeneratedColumn[] => [
  { name: 'store', type: 'int', na: 0, value: (r) => 1 + Math.floor(r / MONTHS) },
  { name: 'yrmo', type: 'int', na: 0, value: (r) => (2022 + Math.floor((r % MONTHS) / 12)) * 100 + (r % 12) + 1 },
  { name: 'target', type: 'float', na: 0, value: (r) => cents(1000 + unit(seed, 1, r) * 49_000) },
  { name: 'manager', type: 'text', na: 0, value: (r) => managerName(below(seed, 2, Math.floor(r / MONTHS), 50)) },
]

function table(name: SuiteTableName, title: string, rows: number, seed: number, columns: readonly GeneratedColumn[]): BenchTable {
  return { name, path: PATHS[name], title, rows, columns: columns.map(specOf), data: columns.map((c, i) => fillColumn(c, rows, seed, i)) }
}

/** Every table of the suite, with `rows` orders. */
export function makeSuiteData(rows: number, seed = DEFAULT_SEED): SuiteData {
  return {
    orders: table('orders', 'Orders', rows, seed, orderColumns(seed, 0, true)),
    archive: table('archive', 'Archived orders', Math.max(1, Math.floor(rows / 5)), seed + 1, orderColumns(seed + 1, 100_000_000, false)),
    products: table('products', 'Products', DIMENSION_ROWS, seed + 2, productColumns(seed + 2)),
    customers: table('customers', 'Customers', DIMENSION_ROWS, seed + 3, customerColumns(seed + 3)),
    targets: table('targets', 'Monthly store targets', STORES * MONTHS, seed + 4, targetColumns(seed + 4)),
  }
}
