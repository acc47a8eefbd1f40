/**
 * A question of the suite: one meaning written twice, in the macro language over the suite's
 * tables (bench/suite/schema.ts PATHS) and in SQL over the same tables in DuckDB (named orders,
 * archive, products, customers, targets), with 1010data's semantics spelled out in the SQL:
 * N/A-safe comparisons, sums of nothing that are 0 and always decimal, N/A sorting first going
 * up and last going down, stable sorts (ties in load order, `id`), first/last in worksheet order.
 */
import type { BenchQuery } from '../../queries.js'
import { PATHS } from '../schema.js'

export interface SuiteQuestion extends BenchQuery {
  /** Which family it belongs to, for reading the report: select, compute, tabulate, group, link, merge, sort. */
  readonly family: string
  /** Set on the seven shapes of issue 19's table. */
  readonly issueShape?: true
}

export const ORDERS = `<base table="${PATHS.orders}"/>`

/** `coalesce(sum(x), 0)::DOUBLE`: a tabulation's or g_sum's sum is decimal and 0 over no values. */
export const sum = (x: string): string => `coalesce(sum(${x}), 0)::DOUBLE`
