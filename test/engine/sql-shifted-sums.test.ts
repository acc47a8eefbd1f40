/**
 * ClickBench's Q30 shape through the SQL door (issue 39): SUM(x + k) compiles to a summary of
 * `x + k.0` (sql/compile/expr.ts adds integers as doubles), which the tabulation reads off x's
 * own sum and count (interpret/ops/tabu-shift.ts). Every answer must be SQLite's, with NULLs,
 * negative constants, `x - k`, `k + x`, a float column (not folded) and a decimal constant.
 */
import { bothTablesBefore, itCompilesAsSqlite } from '../helpers/sql-answers.js'

const x = [3, null, -7, 12, 0, null, 2147483647, -2147483647, 5, 40, 41, 41]
const g = [1, 2, 1, 2, 3, 1, 2, 3, 1, 1, 2, 3]
const f = [0.5, 1.25, null, -3.75, 0, 2.5, 8, null, -0.5, 1e15, 3, 4]

const QUERIES = [
  'select sum(x), sum(x + 1), sum(x - 3), sum(-2 + x), sum(x + -4), sum(x - 0) from pub.f.t',
  'select avg(x + 5), avg(x - 5), min(x + 1), max(x - 1), count(x + 1), total(x + 3) from pub.f.t',
  'select g, sum(x + 1), avg(x - 2), min(3 + x), max(x + 2147483647), count(*) from pub.f.t group by g order by g',
  'select sum(n), sum(n + 1), avg(n - 1), min(n + 1), max(n + 1) from pub.f.t',
  'select sum(f + 1), avg(f - 2), min(f + 1), max(1 + f) from pub.f.t',
  'select sum(x + 1.5), avg(x - 0.25), sum(x + 1.0) from pub.f.t',
  'select sum(x + 1), sum(x + 1), sum(x + 2) from pub.f.t where g = 2',
  'select count(distinct x + 1), count(distinct 2 + x), count(distinct f + 1) from pub.f.t',
  'select g, count(distinct x - 3) from pub.f.t group by g order by g',
  'select g, sum(x + 1) as s from pub.f.t group by g having sum(x + 1) > 0 order by s desc',
]

describe('SQL: sums of a column plus a constant (issue 39, Q30)', () => {
  const tables = bothTablesBefore({
    'pub.f.t': [
      { name: 'x', type: 'int', values: x },
      { name: 'n', type: 'int', values: x.map(() => null) },
      { name: 'g', type: 'int', values: g },
      { name: 'f', type: 'float', values: f },
    ],
  })
  itCompilesAsSqlite(QUERIES, tables)
})
