/**
 * The questions of `npm run bench:sql`: each written in SQLite's dialect (as a client sends it to
 * api/sql, tables by path), in the macro language (the same question through api/run), and in
 * DuckDB's SQL over the same tables (named orders, products). All of them are in the compiled
 * subset of docs/sql.md.
 */
import { PATHS } from './suite/schema.js'

export interface SqlQuestion {
  readonly name: string
  /** SQLite's dialect, `{orders}` and `{products}` standing for the tables. */
  readonly sql: string
  readonly xml: string
}

const O = `<base table="${PATHS.orders}"/>`

export const SQL_QUESTIONS: readonly SqlQuestion[] = [
  {
    name: 'tabu_two_keys',
    sql: 'SELECT region, store, count(*), sum(amount), avg(price) FROM {orders} GROUP BY region, store',
    xml: `${O}<tabu breaks="region,store"><break col="region" sort="up"/><break col="store" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/><tcol source="price" fun="avg"/></tabu>`,
  },
  {
    name: 'filter_tabu',
    sql: "SELECT count(*), sum(amount) FROM {orders} WHERE placed BETWEEN 20230101 AND 20230331 AND region = 'North'",
    xml: `${O}<sel value="placed>=20230101 &amp; placed&lt;=20230331 &amp; region='North'"/><tabu><tcol fun="cnt"/><tcol source="amount" fun="sum"/></tabu>`,
  },
  {
    name: 'select_rows',
    sql: 'SELECT id, region, amount FROM {orders} WHERE store = 7',
    xml: `${O}<sel value="store=7"/><colord cols="id,region,amount"/>`,
  },
  {
    name: 'top10',
    sql: 'SELECT id, amount FROM {orders} ORDER BY amount DESC LIMIT 10',
    xml: `${O}<sort col="amount" dir="down"/><sel value="i_()&lt;=10"/><colord cols="id,amount"/>`,
  },
  {
    name: 'calc_onerow',
    sql: 'SELECT avg(amount / qty), count(*) FROM {orders} WHERE amount / qty > 40',
    xml: `${O}<willbe name="unit" value="amount/qty"/><sel value="unit>40"/><tabu><tcol source="unit" fun="avg"/><tcol fun="cnt"/></tabu>`,
  },
  {
    name: 'case_band',
    sql: "SELECT CASE WHEN amount > 500 THEN 'high' WHEN amount > 100 THEN 'mid' ELSE 'low' END AS band, count(*), sum(amount) FROM {orders} GROUP BY 1",
    xml: `${O}<willbe name="band" value="if(amount&gt;500;'high';amount&gt;100;'mid';'low')"/><tabu breaks="band"><break col="band" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/></tabu>`,
  },
  {
    name: 'ucnt_store',
    sql: 'SELECT store, count(DISTINCT customer) FROM {orders} GROUP BY store',
    xml: `${O}<tabu breaks="store"><break col="store" sort="up"/><tcol source="customer" fun="ucnt"/></tabu>`,
  },
  {
    name: 'join_filter_tabu',
    sql: "SELECT p.brand, sum(o.amount), count(*) FROM {orders} o JOIN {products} p ON p.product = o.product WHERE p.category IN ('Toys', 'Games') GROUP BY p.brand",
    xml: `${O}<link table2="${PATHS.products}" col="product" cols="category,brand" type="select"/><sel value="category='Toys' 'Games'"/><tabu breaks="brand"><break col="brand" sort="up"/><tcol source="amount" fun="sum"/><tcol fun="cnt"/></tabu>`,
  },
  {
    name: 'distinct_pairs',
    sql: 'SELECT DISTINCT region, store FROM {orders}',
    xml: `${O}<tabu breaks="region,store"><break col="region" sort="none"/><break col="store" sort="none"/><tcol fun="cnt"/></tabu><colord cols="region,store"/>`,
  },
]

/** The question's SQL for api/sql (tables by path) or for DuckDB (tables by name). */
export function sqlFor(q: SqlQuestion, system: 'sqlite' | 'duckdb'): string {
  return q.sql.replaceAll('{orders}', system === 'sqlite' ? PATHS.orders : 'orders').replaceAll('{products}', system === 'sqlite' ? PATHS.products : 'products')
}
