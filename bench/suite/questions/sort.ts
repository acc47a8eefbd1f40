/**
 * Sorts on one and several keys, text included, and sorts followed by a first-N selection.
 * `<sort>` is stable (ties keep load order, so SQL ends every ORDER BY with id) and N/A is the
 * smallest value: first going up, last going down.
 */
import { ORDERS, type SuiteQuestion } from './question.js'

export const SORT: readonly SuiteQuestion[] = [
  {
    name: 'top10',
    family: 'sort',
    issueShape: true,
    title: 'top 10 rows by amount (float, N/A last going down): sort, then i_()<=10',
    xml: `${ORDERS}<sort col="amount" dir="down"/><sel value="i_()&lt;=10"/>`,
    sql: 'SELECT * FROM orders ORDER BY amount DESC NULLS LAST, id LIMIT 10',
    orderKeys: ['amount', 'id'],
  },
  {
    name: 'sort_first_n',
    family: 'sort',
    title: 'sort on placed, store; first 100 rows',
    xml: `${ORDERS}<sort cols="placed,store"/><sel value="i_()&lt;=100"/>`,
    sql: 'SELECT * FROM orders ORDER BY placed NULLS FIRST, store NULLS FIRST, id LIMIT 100',
    orderKeys: ['placed', 'store', 'id'],
  },
  {
    name: 'sort_na_first',
    family: 'sort',
    title: 'sort on amount going up (N/A first); first 1,000 rows',
    xml: `${ORDERS}<sort col="amount"/><sel value="i_()&lt;=1000"/>`,
    sql: 'SELECT * FROM orders ORDER BY amount NULLS FIRST, id LIMIT 1000',
    orderKeys: ['amount', 'id'],
  },
  {
    name: 'sort_text',
    family: 'sort',
    title: 'sort on customer (text, 100,000 values) and placed; all rows',
    xml: `${ORDERS}<sort cols="customer,placed"/>`,
    sql: 'SELECT * FROM orders ORDER BY customer NULLS FIRST, placed NULLS FIRST, id',
    orderKeys: ['customer', 'placed', 'id'],
  },
  {
    name: 'sort_mixed',
    family: 'sort',
    title: 'sort amount down, then region up (two stable sorts: region, then amount down); all rows',
    xml: `${ORDERS}<sort col="amount" dir="down"/><sort col="region"/>`,
    sql: 'SELECT * FROM orders ORDER BY region NULLS FIRST, amount DESC NULLS LAST, id',
    orderKeys: ['region', 'amount', 'id'],
  },
]
