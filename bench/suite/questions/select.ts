/** Selections on numbers, text (equality, lists, contains), dates and their combinations. */
import { ORDERS, sum, type SuiteQuestion } from './question.js'

export const SELECT: readonly SuiteQuestion[] = [
  {
    name: 'sel_num',
    family: 'select',
    title: 'qty>15 & price<100, all columns',
    xml: `${ORDERS}<sel value="qty>15 &amp; price&lt;100"/>`,
    sql: 'SELECT * FROM orders WHERE qty > 15 AND price < 100',
    orderKeys: [],
  },
  {
    name: 'sel_text_eq',
    family: 'select',
    title: "region='North' (10 values), all columns",
    xml: `${ORDERS}<sel value="region='North'"/>`,
    sql: "SELECT * FROM orders WHERE region = 'North'",
    orderKeys: [],
  },
  {
    name: 'sel_text_list',
    family: 'select',
    title: 'city in a list of 5 (1,000 values, 5% N/A), all columns',
    xml: `${ORDERS}<sel value="city='bakelo' 'mimimi' 'zezeze' 'toraba' 'nunuke'"/>`,
    sql: "SELECT * FROM orders WHERE city IN ('bakelo', 'mimimi', 'zezeze', 'toraba', 'nunuke')",
    orderKeys: [],
  },
  {
    name: 'sel_contains',
    family: 'select',
    title: "contains(customer;'123') | contains(city;'zeze'), all columns",
    xml: `${ORDERS}<sel value="contains(customer;'123') | contains(city;'zeze')"/>`,
    // An N/A city contains nothing (0); in SQL it is NULL, which OR and WHERE treat the same here.
    sql: "SELECT * FROM orders WHERE contains(customer, '123') OR contains(city, 'zeze')",
    orderKeys: [],
  },
  {
    name: 'sel_date',
    family: 'select',
    title: 'between(placed;20230301;20230331), all columns',
    xml: `${ORDERS}<sel value="between(placed;20230301;20230331)"/>`,
    sql: 'SELECT * FROM orders WHERE placed BETWEEN 20230301 AND 20230331',
    orderKeys: [],
  },
  {
    name: 'sel_combo',
    family: 'select',
    title: "(placed>=20240101 & region='West' 'East') | (qty=1 & amount>990), all columns",
    xml: `${ORDERS}<sel value="(placed>=20240101 &amp; region='West' 'East') | (qty=1 &amp; amount>990)"/>`,
    sql: "SELECT * FROM orders WHERE (placed >= 20240101 AND region IN ('West', 'East')) OR (qty = 1 AND amount > 990)",
    orderKeys: [],
  },
  {
    name: 'sel_not',
    family: 'select',
    title: '~(qty>10) (N/A qty kept: the comparison is 0, not N/A), tabulated by region',
    xml: `${ORDERS}<sel value="~(qty>10)"/><tabu breaks="region"><break col="region" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/></tabu>`,
    sql: `SELECT region, count(*) AS t0, ${sum('amount')} AS t1 FROM orders WHERE NOT coalesce(qty > 10, false) GROUP BY region ORDER BY region NULLS FIRST`,
    orderKeys: ['region'],
  },
]
