/** `<merge>`: the archive's rows appended below the orders (columns by name; shipped is N/A there). */
import { PATHS } from '../schema.js'
import { ORDERS, sum, type SuiteQuestion } from './question.js'

export const MERGE: readonly SuiteQuestion[] = [
  {
    name: 'merge_tabu',
    family: 'merge',
    title: 'merge archive (N/5 rows), tabu by region: cnt, sum, avg',
    xml: `${ORDERS}<merge table2="${PATHS.archive}"/><tabu breaks="region"><break col="region" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/><tcol source="qty" fun="avg"/></tabu>`,
    sql: `SELECT region, count(*) AS t0, ${sum('amount')} AS t1, avg(qty) AS t2 FROM (SELECT region, amount, qty FROM orders UNION ALL SELECT region, amount, qty FROM archive) GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
  {
    name: 'merge_nested',
    family: 'merge',
    title: 'merge archive after its own qty>10, then store<=50, 6 columns',
    xml: `${ORDERS}<merge table2="${PATHS.archive}"><sel value="qty>10"/></merge><sel value="store&lt;=50"/><colord cols="id,placed,shipped,region,qty,amount"/>`,
    sql: 'SELECT id, placed, shipped, region, qty, amount FROM orders WHERE store <= 50 UNION ALL SELECT id, placed, NULL::INTEGER AS shipped, region, qty, amount FROM archive WHERE qty > 10 AND store <= 50',
    orderKeys: [],
  },
]
