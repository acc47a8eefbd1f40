/**
 * Links on one key (int and text) and on two, then use of the linked columns; link types select
 * and exclude. Dimension keys are unique and never N/A, so link's "first matching row, N/A
 * matching N/A" is a plain equality join; 0.5% of orders name a product that does not exist.
 */
import { PATHS } from '../schema.js'
import { ORDERS, sum, type SuiteQuestion } from './question.js'

export const LINK: readonly SuiteQuestion[] = [
  {
    name: 'link_filter_tabu',
    family: 'link',
    issueShape: true,
    title: "link products, category='Toys' 'Games' (a linked column), tabu by brand (linked text)",
    xml: `${ORDERS}<link table2="${PATHS.products}" col="product" cols="category,brand,weight"/><sel value="category='Toys' 'Games'"/><tabu breaks="brand"><break col="brand" sort="up"/><tcol source="amount" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT p.brand, ${sum('o.amount')} AS t0, count(*) AS t1 FROM orders o JOIN products p ON p.product = o.product WHERE p.category IN ('Toys', 'Games') GROUP BY p.brand ORDER BY p.brand NULLS FIRST`,
    orderKeys: ['brand'],
  },
  {
    name: 'link_int_calc',
    family: 'link',
    title: 'link products (int key), willbe qty*weight, tabu by category (N/A for no product)',
    xml: `${ORDERS}<link table2="${PATHS.products}" col="product" cols="category,weight"/><willbe name="load" value="qty*weight"/><tabu breaks="category"><break col="category" sort="up"/><tcol fun="cnt"/><tcol source="load" fun="sum"/><tcol source="weight" fun="cntnna"/></tabu>`,
    sql: `SELECT p.category, count(*) AS t0, ${sum('o.qty * p.weight')} AS t1, count(p.weight) AS t2 FROM orders o LEFT JOIN products p ON p.product = o.product GROUP BY p.category ORDER BY p.category NULLS FIRST`,
    orderKeys: ['category'],
  },
  {
    name: 'link_text',
    family: 'link',
    title: 'link customers (text key, 100,000 rows), joined<placed, tabu by segment: cnt, sum, ucnt',
    xml: `${ORDERS}<link table2="${PATHS.customers}" col="customer" cols="segment,joined"/><sel value="joined&lt;placed"/><tabu breaks="segment"><break col="segment" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/><tcol source="customer" fun="ucnt"/></tabu>`,
    sql: `SELECT c.segment, count(*) AS t0, ${sum('o.amount')} AS t1, count(DISTINCT o.customer) AS t2 FROM orders o LEFT JOIN customers c ON c.customer = o.customer WHERE c.joined < o.placed GROUP BY c.segment ORDER BY c.segment NULLS FIRST`,
    orderKeys: ['segment'],
  },
  {
    name: 'link_two_keys',
    family: 'link',
    title: 'link targets on (store, yrmo(placed)), amount/target, tabu by manager (linked text)',
    xml: `${ORDERS}<willbe name="ym" value="yrmo(placed)"/><link table2="${PATHS.targets}" col="store,ym" col2="store,yrmo" cols="target,manager"/><willbe name="share" value="amount/target"/><tabu breaks="manager"><break col="manager" sort="up"/><tcol source="share" fun="sum"/><tcol source="target" fun="max"/><tcol fun="cnt"/></tabu>`,
    sql: `SELECT t.manager, ${sum('o.amount / t.target')} AS t0, max(t.target) AS t1, count(*) AS t2 FROM orders o LEFT JOIN targets t ON t.store = o.store AND t.yrmo = o.placed // 100 GROUP BY t.manager ORDER BY t.manager NULLS FIRST`,
    orderKeys: ['manager'],
  },
  {
    name: 'link_select',
    family: 'link',
    title: 'link products type="select" (matched rows only), 4 columns',
    xml: `${ORDERS}<link table2="${PATHS.products}" col="product" cols="brand" type="select"/><colord cols="id,product,brand,amount"/>`,
    sql: 'SELECT o.id, o.product, p.brand, o.amount FROM orders o JOIN products p ON p.product = o.product',
    orderKeys: [],
  },
  {
    name: 'link_exclude',
    family: 'link',
    title: 'link products type="exclude" (orders of no product), all columns',
    xml: `${ORDERS}<link table2="${PATHS.products}" col="product" type="exclude"/>`,
    sql: 'SELECT * FROM orders o WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.product = o.product)',
    orderKeys: [],
  },
]
