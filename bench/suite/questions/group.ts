/**
 * g_ functions with and without an ordering argument. Without O the group's order is the
 * worksheet's (load order, `id`); with O, ties in O keep worksheet order. Rows where S is 0 get
 * N/A; g_cumsum counts N/A as 0; g_rank gives the largest value 1 and N/A values no rank.
 */
import { ORDERS, sum, type SuiteQuestion } from './question.js'

const byRegion = '<break col="region" sort="up"/>'

export const GROUP: readonly SuiteQuestion[] = [
  {
    name: 'gsum_filter',
    family: 'group',
    issueShape: true,
    title: 'g_sum and g_cnt by store, rows over 1.5x their store average, tabu by region',
    xml: `${ORDERS}<willbe name="st" value="g_sum(store;;amount)"/><willbe name="sc" value="g_cnt(store;)"/><sel value="amount*sc>st*1.5"/><tabu breaks="region">${byRegion}<tcol fun="cnt"/><tcol source="amount" fun="sum"/></tabu>`,
    sql: `SELECT region, count(*) AS t0, ${sum('amount')} AS t1 FROM (SELECT region, amount, coalesce(sum(amount) OVER (PARTITION BY store), 0) AS st, count(*) OVER (PARTITION BY store) AS sc FROM orders) WHERE amount * sc > st * 1.5 GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
  {
    name: 'gcnt_sizes',
    family: 'group',
    title: 'g_cnt and g_sum by customer (100,000 groups), tabulated by group size',
    xml: `${ORDERS}<willbe name="n" value="g_cnt(customer;)"/><willbe name="s" value="g_sum(customer;;amount)"/><tabu breaks="n"><break col="n" sort="up"/><tcol fun="cnt"/><tcol source="s" fun="sum"/></tabu>`,
    sql: `SELECT n, count(*) AS t0, ${sum('s')} AS t1 FROM (SELECT count(*) OVER (PARTITION BY customer) AS n, coalesce(sum(amount) OVER (PARTITION BY customer), 0) AS s FROM orders) GROUP BY n ORDER BY n NULLS FIRST`,
    orderKeys: ['n'],
  },
  {
    name: 'grank_top3',
    family: 'group',
    title: 'g_rank(store;;;amount) <= 3 (ties in load order), all columns',
    xml: `${ORDERS}<willbe name="r" value="g_rank(store;;;amount)"/><sel value="r&lt;=3"/>`,
    sql: 'SELECT * FROM (SELECT *, CASE WHEN amount IS NULL THEN NULL ELSE row_number() OVER (PARTITION BY store ORDER BY amount DESC NULLS LAST, id) END AS r FROM orders) WHERE r <= 3',
    orderKeys: [],
  },
  {
    name: 'grank_ordered',
    family: 'group',
    title: 'g_rank(region;;placed;price) <= 5 (ties by placed), 5 columns',
    xml: `${ORDERS}<willbe name="r" value="g_rank(region;;placed;price)"/><sel value="r&lt;=5"/><colord cols="id,region,placed,price,r"/>`,
    sql: 'SELECT id, region, placed, price, r FROM (SELECT *, row_number() OVER (PARTITION BY region ORDER BY price DESC, placed, id) AS r FROM orders) WHERE r <= 5',
    orderKeys: [],
  },
  {
    name: 'gcumsum_ordered',
    family: 'group',
    title: 'g_cumsum(customer;;placed;amount), 5 columns, all rows',
    xml: `${ORDERS}<willbe name="cs" value="g_cumsum(customer;;placed;amount)"/><colord cols="id,customer,placed,amount,cs"/>`,
    sql: 'SELECT id, customer, placed, amount, sum(coalesce(amount, 0)) OVER (PARTITION BY customer ORDER BY placed, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cs FROM orders',
    orderKeys: [],
  },
  {
    name: 'gcumsum_plain',
    family: 'group',
    title: 'g_cumsum(store;;;qty) and g_cumcnt(store;;) in load order, first 5 rows per store',
    xml: `${ORDERS}<willbe name="cq" value="g_cumsum(store;;;qty)"/><willbe name="cc" value="g_cumcnt(store;;)"/><sel value="cc&lt;=5"/><colord cols="id,store,qty,cq,cc"/>`,
    sql: 'SELECT id, store, qty, cq, cc FROM (SELECT id, store, qty, sum(coalesce(qty, 0)) OVER (PARTITION BY store ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)::DOUBLE AS cq, row_number() OVER (PARTITION BY store ORDER BY id) AS cc FROM orders) WHERE cc <= 5',
    orderKeys: [],
  },
  {
    name: 'gfirst_ordered',
    family: 'group',
    title: 'g_first(customer;;placed;amount) and g_last(customer;;placed;city), 3 columns, all rows',
    xml: `${ORDERS}<willbe name="f" value="g_first(customer;;placed;amount)"/><willbe name="l" value="g_last(customer;;placed;city)"/><colord cols="id,f,l"/>`,
    sql: 'SELECT id, first_value(amount) OVER w AS f, last_value(city) OVER w AS l FROM orders WINDOW w AS (PARTITION BY customer ORDER BY placed, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
    orderKeys: [],
  },
  {
    name: 'grshift_diff',
    family: 'group',
    title: 'g_rshift(customer;;placed;amount;-1), amount minus it, tabu by region',
    xml: `${ORDERS}<willbe name="prev" value="g_rshift(customer;;placed;amount;-1)"/><willbe name="diff" value="amount-prev"/><tabu breaks="region">${byRegion}<tcol source="diff" fun="sum"/><tcol source="prev" fun="cntnna"/><tcol source="diff" fun="avg"/></tabu>`,
    sql: `SELECT region, ${sum('diff')} AS t0, count(prev) AS t1, avg(diff) AS t2 FROM (SELECT region, prev, amount - prev AS diff FROM (SELECT region, amount, lag(amount, 1) OVER (PARTITION BY customer ORDER BY placed, id) AS prev FROM orders)) GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
  {
    name: 'gsum_select',
    family: 'group',
    title: 'g_sum(region;big;amount) and g_cnt(region;big) with a selection column, tabu by region',
    xml: `${ORDERS}<willbe name="big" value="amount>500"/><willbe name="bs" value="g_sum(region;big;amount)"/><willbe name="bc" value="g_cnt(region;big)"/><tabu breaks="region">${byRegion}<tcol source="bs" fun="max"/><tcol source="bs" fun="cntnna"/><tcol source="bc" fun="min"/></tabu>`,
    // Rows where S is 0 take no part and get N/A.
    sql: `SELECT region, max(bs) AS t0, count(bs) AS t1, min(bc) AS t2 FROM (SELECT region,
      CASE WHEN amount > 500 THEN coalesce(sum(CASE WHEN amount > 500 THEN amount END) OVER (PARTITION BY region), 0) END AS bs,
      CASE WHEN amount > 500 THEN count(CASE WHEN amount > 500 THEN 1 END) OVER (PARTITION BY region) END AS bc FROM orders) GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
]
