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

/**
 * The all-rows queries (willbe, gsum, link, sort) again, asking only for what they compute, so
 * that both sides return answers of the same shape. In the all-rows form our answer reuses the
 * stored columns as they are (no copy) wherever its rows are the table's rows in order (willbe,
 * gsum, link's item columns), while DuckDB copies every column into its result: at 1M rows most
 * of DuckDB's willbe time is that copy. Here neither side copies a column the other does not:
 * - `cols`: every row, only the computed (or, for link and sort, the looked-up or sorted)
 *   columns, materialised on both sides;
 * - `sum`: the computed columns reduced to their sums (one row), so nothing is materialised per
 *   row by either side, but every value must still be computed. sort has no `sum` form: a sum
 *   does not depend on the order, and DuckDB rightly drops an ORDER BY under an aggregate.
 * `parentColumns` name, for each column of the answer, the column of the all-rows answer it must
 * equal (cols: the same values; sum: the sum of that column), which bench/same-shape.ts checks
 * so that a variant cannot skip the work the all-rows query does.
 */
export interface SameShapeQuery extends BenchQuery {
  /** The all-rows query (in QUERIES) this one asks again. */
  readonly of: string
  readonly shape: 'cols' | 'sum'
  /** Per answer column, in order: the all-rows answer's column it is checked against. */
  readonly parentColumns: readonly string[]
}

const LINK = '<link table2="pub.demo.retail.products" col="sku" col2="sku" cols="description,dept,brand,price"/>'
const LINK_SQL = '{item} i LEFT JOIN {products} p ON p.sku = i.sku'
const WILLBE = '<willbe name="margin" value="sales-cost"/><willbe name="pct" value="(sales-cost)/sales"/>'
const GSUM = '<willbe name="gs" value="g_sum(grp1k;;sales)"/>'

export const SAME_SHAPE: readonly SameShapeQuery[] = [
  {
    name: 'willbe.cols',
    of: 'willbe',
    shape: 'cols',
    title: 'willbe, only the two computed columns; all rows',
    xml: `${ITEM}${WILLBE}<colord cols="margin,pct"/>`,
    sql: 'SELECT sales - cost AS margin, (sales - cost) / sales AS pct FROM {item}',
    orderKeys: [],
    parentColumns: ['margin', 'pct'],
  },
  {
    name: 'willbe.sum',
    of: 'willbe',
    shape: 'sum',
    title: 'willbe, the sums of the two computed columns; one row',
    xml: `${ITEM}${WILLBE}<tabu><tcol source="margin" fun="sum"/><tcol source="pct" fun="sum"/></tabu>`,
    sql: 'SELECT SUM(sales - cost) AS t0, SUM((sales - cost) / sales) AS t1 FROM {item}',
    orderKeys: [],
    parentColumns: ['margin', 'pct'],
  },
  {
    name: 'gsum.cols',
    of: 'gsum',
    shape: 'cols',
    title: 'g_sum, only the computed column; all rows',
    xml: `${ITEM}${GSUM}<colord cols="gs"/>`,
    sql: 'SELECT SUM(sales) OVER (PARTITION BY grp1k) AS gs FROM {item}',
    orderKeys: [],
    parentColumns: ['gs'],
  },
  {
    name: 'gsum.sum',
    of: 'gsum',
    shape: 'sum',
    title: 'g_sum, the sum of the computed column; one row',
    xml: `${ITEM}${GSUM}<tabu><tcol source="gs" fun="sum"/></tabu>`,
    sql: 'SELECT SUM(gs) AS t0 FROM (SELECT SUM(sales) OVER (PARTITION BY grp1k) AS gs FROM {item})',
    orderKeys: [],
    parentColumns: ['gs'],
  },
  {
    name: 'link.cols',
    of: 'link',
    shape: 'cols',
    title: 'link, only the four looked-up columns; all rows',
    xml: `${ITEM}${LINK}<colord cols="description,dept,brand,price"/>`,
    sql: `SELECT p.description, p.dept, p.brand, p.price FROM ${LINK_SQL}`,
    orderKeys: [],
    parentColumns: ['description', 'dept', 'brand', 'price'],
  },
  {
    name: 'link.sum',
    of: 'link',
    shape: 'sum',
    title: 'link, the sum of the looked-up price; one row',
    xml: `${ITEM}${LINK}<tabu><tcol source="price" fun="sum"/></tabu>`,
    sql: `SELECT SUM(p.price) AS t0 FROM ${LINK_SQL}`,
    orderKeys: [],
    parentColumns: ['price'],
  },
  {
    name: 'sort.cols',
    of: 'sort',
    shape: 'cols',
    title: 'sort on (store, sales), only the two keys and trans; all rows',
    xml: `${ITEM}<sort cols="store,sales" dir="up"/><colord cols="store,sales,trans"/>`,
    sql: 'SELECT store, sales, trans FROM {item} ORDER BY store, sales',
    orderKeys: ['store', 'sales'],
    parentColumns: ['store', 'sales', 'trans'],
  },
]

/** The SQL of a query for a target whose tables are called `names`. */
export function sqlFor(q: BenchQuery, names: { readonly item: string; readonly products: string }): string {
  return q.sql.replaceAll('{item}', names.item).replaceAll('{products}', names.products)
}
