/** Computed columns: arithmetic (int stays int, / is decimal), if, text and date functions. */
import { ORDERS, sum, type SuiteQuestion } from './question.js'

/** yyyymmdd integer → DATE, and back. */
const toDate = (c: string): string => `make_date(${c} // 10000, ${c} // 100 % 100, ${c} % 100)`
const toYmd = (d: string): string => `(year(${d}) * 10000 + month(${d}) * 100 + day(${d}))`

export const COMPUTE: readonly SuiteQuestion[] = [
  {
    name: 'calc_arith',
    family: 'compute',
    title: 'willbes qty*price, gross-amount, qty/2, qty*2+1; 5 columns, all rows',
    xml: `${ORDERS}<willbe name="gross" value="qty*price"/><willbe name="net" value="gross-amount"/><willbe name="half" value="qty/2"/><willbe name="q2" value="qty*2+1"/><colord cols="id,gross,net,half,q2"/>`,
    sql: 'SELECT id, qty * price AS gross, qty * price - amount AS net, qty / 2 AS half, qty * 2 + 1 AS q2 FROM orders',
    orderKeys: [],
  },
  {
    name: 'calc_if',
    family: 'compute',
    title: "if(amount>500;'high';amount>100;'mid';'low') and if(qty>10;price*0.1;0), tabulated by the band",
    xml: `${ORDERS}<willbe name="band" value="if(amount>500;'high';amount>100;'mid';'low')"/><willbe name="bonus" value="if(qty>10;price*0.1;0)"/><tabu breaks="band"><break col="band" sort="up"/><tcol fun="cnt"/><tcol source="amount" fun="sum"/><tcol source="amount" fun="cntnna"/><tcol source="bonus" fun="sum"/></tabu>`,
    // An N/A amount makes both conditions 0, so it falls to 'low'; SQL's NULL condition does the same.
    sql: `SELECT band, count(*) AS t0, ${sum('amount')} AS t1, count(amount) AS t2, ${sum('bonus')} AS t3 FROM (SELECT CASE WHEN amount > 500 THEN 'high' WHEN amount > 100 THEN 'mid' ELSE 'low' END AS band, CASE WHEN qty > 10 THEN price * 0.1 ELSE 0 END AS bonus, amount FROM orders) GROUP BY band ORDER BY band NULLS FIRST`,
    orderKeys: ['band'],
  },
  {
    name: 'calc_text',
    family: 'compute',
    title: 'strupcase(substr(city;1;4)) and strlen(city), tabulated by the prefix (N/A city: N/A prefix)',
    xml: `${ORDERS}<willbe name="pre" value="strupcase(substr(city;1;4))"/><willbe name="len" value="strlen(city)"/><tabu breaks="pre"><break col="pre" sort="up"/><tcol fun="cnt"/><tcol source="len" fun="sum"/><tcol source="customer" fun="ucnt"/></tabu>`,
    sql: `SELECT pre, count(*) AS t0, ${sum('len')} AS t1, count(DISTINCT customer) AS t2 FROM (SELECT upper(substr(city, 1, 4)) AS pre, length(city) AS len, customer FROM orders) GROUP BY pre ORDER BY pre NULLS FIRST`,
    orderKeys: ['pre'],
  },
  {
    name: 'calc_date',
    family: 'compute',
    title: 'weekday, datediff(shipped;placed), dateadd(placed;7), shipped>due; tabulated by weekday',
    xml: `${ORDERS}<willbe name="wd" value="weekday(placed)"/><willbe name="lag" value="datediff(shipped;placed)"/><willbe name="due" value="dateadd(placed;7)"/><willbe name="late" value="shipped>due"/><tabu breaks="wd"><break col="wd" sort="up"/><tcol fun="cnt"/><tcol source="lag" fun="avg"/><tcol source="late" fun="sum"/><tcol source="due" fun="max"/></tabu>`,
    // weekday: Sunday 1 … Saturday 7 (DuckDB's dayofweek is Sunday 0); an N/A shipped is never late.
    sql: `WITH d AS (SELECT shipped, ${toDate('placed')} AS p, ${toDate('shipped')} AS s FROM orders),
      w AS (SELECT shipped, dayofweek(p) + 1 AS wd, datediff('day', p, s) AS lag, ${toYmd('p + 7')} AS due FROM d)
      SELECT wd, count(*) AS t0, avg(lag) AS t1, ${sum('CASE WHEN shipped > due THEN 1 ELSE 0 END')} AS t2, max(due) AS t3 FROM w GROUP BY wd ORDER BY wd NULLS FIRST`,
    orderKeys: ['wd'],
  },
  {
    name: 'colord_sel',
    family: 'compute',
    title: 'store=7, then colord id,region,amount',
    xml: `${ORDERS}<sel value="store=7"/><colord cols="id,region,amount"/>`,
    sql: 'SELECT id, region, amount FROM orders WHERE store = 7',
    orderKeys: [],
  },
  {
    name: 'colord_hide',
    family: 'compute',
    title: 'qty=20, then colord hide city,customer,shipped',
    xml: `${ORDERS}<sel value="qty=20"/><colord hide="city,customer,shipped"/>`,
    sql: 'SELECT id, placed, region, store, product, qty, price, amount FROM orders WHERE qty = 20',
    orderKeys: [],
  },
]
