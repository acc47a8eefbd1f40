/**
 * The benchmark queries, each written once in the macro language and once as the equivalent SQL.
 * Both must give the same answer (same rows, same columns, same values; checked by digest before
 * anything is timed). `{item}` and `{products}` in the SQL are replaced by each SQL target's own
 * table names.
 */

export interface BenchQuery {
  /** Short name, for `--only` and the report. */
  readonly name: string
  readonly title: string
  readonly xml: string
  readonly sql: string
  /**
   * Columns whose order is part of the answer (sort keys, sorted tabulation breaks): compared
   * with an order-sensitive checksum. Empty = the answer is a set of rows.
   */
  readonly orderKeys: readonly string[]
}

const ITEM = '<base table="pub.demo.retail.item"/>'

export const QUERIES: readonly BenchQuery[] = [
  {
    name: 'filter',
    title: 'selective filter (store=7 & qty>5), all columns',
    xml: `${ITEM}<sel value="store=7 &amp; qty>5"/>`,
    sql: 'SELECT * FROM {item} WHERE store = 7 AND qty > 5',
    orderKeys: [],
  },
  {
    name: 'willbe',
    title: 'willbe sales-cost, (sales-cost)/sales; all rows',
    xml: `${ITEM}<willbe name="margin" value="sales-cost"/><willbe name="pct" value="(sales-cost)/sales"/>`,
    sql: 'SELECT *, sales - cost AS margin, (sales - cost) / sales AS pct FROM {item}',
    orderKeys: [],
  },
  {
    name: 'gsum',
    title: 'willbe g_sum(grp1k;;sales), 1,000 groups; all rows',
    xml: `${ITEM}<willbe name="gs" value="g_sum(grp1k;;sales)"/>`,
    // The window form is the direct translation of a g_ function; see docs/benchmarks.md for the join form.
    sql: 'SELECT *, SUM(sales) OVER (PARTITION BY grp1k) AS gs FROM {item}',
    orderKeys: [],
  },
  {
    name: 'tabu100',
    title: 'tabu by store (100 groups): sum(sales), cnt',
    xml: `${ITEM}<tabu breaks="store"><break col="store" sort="up"/><tcol source="sales" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: 'SELECT store, SUM(sales) AS t0, COUNT(*) AS t1 FROM {item} GROUP BY store ORDER BY store',
    orderKeys: ['store'],
  },
  {
    name: 'tabu100k',
    title: 'tabu by grp100k (100,000 groups): sum(sales), cnt',
    xml: `${ITEM}<tabu breaks="grp100k"><break col="grp100k" sort="up"/><tcol source="sales" fun="sum"/><tcol fun="cnt"/></tabu>`,
    sql: 'SELECT grp100k, SUM(sales) AS t0, COUNT(*) AS t1 FROM {item} GROUP BY grp100k ORDER BY grp100k',
    orderKeys: ['grp100k'],
  },
  {
    name: 'link',
    title: 'link products (10,000 rows) by sku; all rows',
    xml: `${ITEM}<link table2="pub.demo.retail.products" col="sku" col2="sku" cols="description,dept,brand,price"/>`,
    // A left join: link keeps every row and takes the first match (skus are unique in products).
    sql: 'SELECT i.*, p.description, p.dept, p.brand, p.price FROM {item} i LEFT JOIN {products} p ON p.sku = i.sku',
    orderKeys: [],
  },
  {
    name: 'sort',
    title: 'sort on two columns (store, sales); all rows',
    xml: `${ITEM}<sort cols="store,sales" dir="up"/>`,
    sql: 'SELECT * FROM {item} ORDER BY store, sales',
    orderKeys: ['store', 'sales'],
  },
]

/** The SQL of a query for a target whose tables are called `names`. */
export function sqlFor(q: BenchQuery, names: { readonly item: string; readonly products: string }): string {
  return q.sql.replaceAll('{item}', names.item).replaceAll('{products}', names.products)
}
