/**
 * Tabulations by one, two and three keys of each type (text of 10, 1,000 and 100,000 values,
 * int, date), with every common summary, and a cross-tabulation. Breaks are sorted up so the
 * order of the groups is part of the answer on both sides (N/A first, as `<break>` puts it).
 */
import { REGIONS } from '../pools.js'
import { ORDERS, sum, type SuiteQuestion } from './question.js'

const by = (keys: readonly string[]): string => keys.map((k) => `<break col="${k}" sort="up"/>`).join('')
const orderBy = (keys: readonly string[]): string => keys.map((k) => `${k} NULLS FIRST`).join(', ')

/** One cross-tab cell column: N/A where the (row, column) combination has no rows, else the sum. */
const cell = (region: string, i: number): string =>
  `CASE WHEN count(*) FILTER (WHERE region = '${region}') = 0 THEN NULL ELSE coalesce(sum(amount) FILTER (WHERE region = '${region}'), 0) END::DOUBLE AS m${i}`

export const TABULATE: readonly SuiteQuestion[] = [
  {
    name: 'tabu_two_keys',
    family: 'tabulate',
    issueShape: true,
    title: 'tabu by region (text) and store (int): sum, avg, cnt',
    xml: `${ORDERS}<tabu breaks="region,store">${by(['region', 'store'])}<tcol source="amount" fun="sum"/><tcol source="amount" fun="avg"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT region, store, ${sum('amount')} AS t0, avg(amount) AS t1, count(*) AS t2 FROM orders GROUP BY region, store ORDER BY ${orderBy(['region', 'store'])}`,
    orderKeys: ['region', 'store'],
  },
  {
    name: 'filter_tabu',
    family: 'tabulate',
    issueShape: true,
    title: "a date range and region='North', then tabu by store: sum, cnt",
    xml: `${ORDERS}<sel value="between(placed;20230101;20230630) &amp; region='North'"/><tabu breaks="store">${by(['store'])}<tcol source="amount" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT store, ${sum('amount')} AS t0, count(*) AS t1 FROM orders WHERE placed BETWEEN 20230101 AND 20230630 AND region = 'North' GROUP BY store ORDER BY store NULLS FIRST`,
    orderKeys: ['store'],
  },
  {
    name: 'ucnt_store',
    family: 'tabulate',
    issueShape: true,
    title: 'distinct customers (100,000 values) per store: ucnt',
    xml: `${ORDERS}<tabu breaks="store">${by(['store'])}<tcol source="customer" fun="ucnt"/></tabu>`,
    sql: 'SELECT store, count(DISTINCT customer) AS t0 FROM orders GROUP BY store ORDER BY store NULLS FIRST',
    orderKeys: ['store'],
  },
  {
    name: 'calc_onerow',
    family: 'tabulate',
    issueShape: true,
    title: 'willbe amount/qty, a filter on it, a one-row tabu: avg, cnt',
    xml: `${ORDERS}<willbe name="unit" value="amount/qty"/><sel value="unit>40"/><tabu><tcol source="unit" fun="avg"/><tcol fun="cnt"/></tabu>`,
    sql: 'SELECT avg(amount / qty) AS t0, count(*) AS t1 FROM orders WHERE amount / qty > 40',
    orderKeys: [],
  },
  {
    name: 'tabu_region_all',
    family: 'tabulate',
    title: 'tabu by region: cnt, cntnna, sum (int), avg, min (date), max, stdev, var, min (text)',
    xml: `${ORDERS}<tabu breaks="region">${by(['region'])}<tcol fun="cnt"/><tcol source="qty" fun="cntnna"/><tcol source="qty" fun="sum"/><tcol source="price" fun="avg"/><tcol source="placed" fun="min"/><tcol source="amount" fun="max"/><tcol source="price" fun="stdev"/><tcol source="amount" fun="var"/><tcol source="city" fun="min"/></tabu>`,
    sql: `SELECT region, count(*) AS t0, count(qty) AS t1, ${sum('qty')} AS t2, avg(price) AS t3, min(placed) AS t4, max(amount) AS t5, stddev_samp(price) AS t6, var_samp(amount) AS t7, min(city) AS t8 FROM orders GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
  {
    name: 'tabu_city_median',
    family: 'tabulate',
    title: 'tabu by city (1,000 values, N/A a group): median (float, int), ucnt',
    xml: `${ORDERS}<tabu breaks="city">${by(['city'])}<tcol source="amount" fun="median"/><tcol source="qty" fun="median"/><tcol source="customer" fun="ucnt"/></tabu>`,
    sql: 'SELECT city, median(amount) AS t0, median(qty::DOUBLE) AS t1, count(DISTINCT customer) AS t2 FROM orders GROUP BY city ORDER BY city NULLS FIRST',
    orderKeys: ['city'],
  },
  {
    name: 'tabu_customer_firstlast',
    family: 'tabulate',
    title: 'tabu by customer (100,000 values): first (date, text), last (float), cnt',
    xml: `${ORDERS}<tabu breaks="customer">${by(['customer'])}<tcol source="placed" fun="first"/><tcol source="amount" fun="last"/><tcol source="city" fun="first"/><tcol fun="cnt"/></tabu>`,
    // first/last take the first/last row in worksheet order, N/A or not: DuckDB's first/last keep NULLs.
    sql: 'SELECT customer, first(placed ORDER BY id) AS t0, last(amount ORDER BY id) AS t1, first(city ORDER BY id) AS t2, count(*) AS t3 FROM orders GROUP BY customer ORDER BY customer NULLS FIRST',
    orderKeys: ['customer'],
  },
  {
    name: 'tabu_weighted',
    family: 'tabulate',
    title: 'tabu by city: wsum and wavg of amount weighted by qty (both with N/A)',
    xml: `${ORDERS}<tabu breaks="city">${by(['city'])}<tcol source="amount" fun="wsum" weight="qty"/><tcol source="amount" fun="wavg" weight="qty"/></tabu>`,
    // Rows where the value or the weight is N/A take no part; a weighted average of nothing is N/A.
    sql: `SELECT city, ${sum('amount * qty')} AS t0, sum(amount * qty) / nullif(sum(CASE WHEN amount IS NOT NULL THEN qty END), 0) AS t1 FROM orders GROUP BY city ORDER BY city NULLS FIRST`,
    orderKeys: ['city'],
  },
  {
    name: 'tabu_date',
    family: 'tabulate',
    title: 'tabu by placed (date, 1,096 values): sum, cnt',
    xml: `${ORDERS}<tabu breaks="placed">${by(['placed'])}<tcol source="amount" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT placed, ${sum('amount')} AS t0, count(*) AS t1 FROM orders GROUP BY placed ORDER BY placed NULLS FIRST`,
    orderKeys: ['placed'],
  },
  {
    name: 'tabu_product',
    family: 'tabulate',
    title: 'tabu by product (int, 100,500 values): max, sum',
    xml: `${ORDERS}<tabu breaks="product">${by(['product'])}<tcol source="price" fun="max"/><tcol source="qty" fun="sum"/></tabu>`,
    sql: `SELECT product, max(price) AS t0, ${sum('qty')} AS t1 FROM orders GROUP BY product ORDER BY product NULLS FIRST`,
    orderKeys: ['product'],
  },
  {
    name: 'tabu_store_date',
    family: 'tabulate',
    title: 'tabu by store (int) and placed (date): up to 548,000 groups; sum, cnt',
    xml: `${ORDERS}<tabu breaks="store,placed">${by(['store', 'placed'])}<tcol source="amount" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT store, placed, ${sum('amount')} AS t0, count(*) AS t1 FROM orders GROUP BY store, placed ORDER BY ${orderBy(['store', 'placed'])}`,
    orderKeys: ['store', 'placed'],
  },
  {
    name: 'tabu_two_text',
    family: 'tabulate',
    title: 'tabu by region and city (two text keys, 10,000 groups): cnt, avg',
    xml: `${ORDERS}<tabu breaks="region,city">${by(['region', 'city'])}<tcol fun="cnt"/><tcol source="price" fun="avg"/></tabu>`,
    sql: `SELECT region, city, count(*) AS t0, avg(price) AS t1 FROM orders GROUP BY region, city ORDER BY ${orderBy(['region', 'city'])}`,
    orderKeys: ['region', 'city'],
  },
  {
    name: 'tabu_three_keys',
    family: 'tabulate',
    title: 'tabu by region (text), qty (int with N/A) and yrmo(placed): cnt, sum',
    xml: `${ORDERS}<willbe name="ym" value="yrmo(placed)"/><tabu breaks="region,qty,ym">${by(['region', 'qty', 'ym'])}<tcol fun="cnt"/><tcol source="amount" fun="sum"/></tabu>`,
    sql: `SELECT region, qty, placed // 100 AS ym, count(*) AS t0, ${sum('amount')} AS t1 FROM orders GROUP BY region, qty, ym ORDER BY ${orderBy(['region', 'qty', 'ym'])}`,
    orderKeys: ['region', 'qty', 'ym'],
  },
  {
    name: 'crosstab',
    family: 'tabulate',
    title: 'cross-tab: rows by store, a column per region (cbreaks): sum',
    xml: `${ORDERS}<tabu breaks="store" cbreaks="region">${by(['store'])}<tcol source="amount" fun="sum"/></tabu>`,
    // The row total is t0; the cells m0… follow the regions in ascending order.
    sql: `SELECT store, ${sum('amount')} AS t0, ${[...REGIONS]
      .sort()
      .map((r, i) => cell(r, i))
      .join(', ')} FROM orders GROUP BY store ORDER BY store NULLS FIRST`,
    orderKeys: ['store'],
  },
]
