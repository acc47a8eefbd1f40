/**
 * The suite's questions (bench/suite/questions, written for DuckDB) in SQLite's dialect, for
 * `npm run bench:sql`, where a mechanical rewrite keeps their meaning:
 *
 * - `x::DOUBLE` becomes `CAST(x AS REAL)`, and `NULL::INTEGER` plain NULL;
 * - `a // b` becomes `a / b` (integer division of integers in both);
 * - `contains(a, b)` becomes `instr(a, b) > 0`, and `false` 0;
 * - a running frame `ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW` is dropped where the
 *   window's ORDER BY ends with `id` (unique, so SQLite's default frame is the same rows);
 * - tables by their catalog path, keeping the DuckDB name as the alias (`pub.suite.orders AS
 *   orders`) so that qualified columns still resolve.
 *
 * A question that still uses DuckDB's own functions or clauses after that is not expressed
 * (null): SQLite has no such thing, and nothing is claimed about it.
 */
import { PATHS } from './suite/schema.js'

const DUCKDB_ONLY =
  /\b(first_value|last_value|median|stddev_samp|var_samp|first|last|make_date|dayofweek|datediff|year|month|day|list|string_agg|epoch)\(|\b(EXISTS|FILTER|WINDOW)\b|::/

export function sqliteOf(duckdb: string): string | null {
  let sql = duckdb.replace(/\s+/g, ' ').trim()
  sql = sql.replace(/\bNULL::INTEGER\b/g, 'NULL')
  sql = castsToReal(sql)
  sql = sql.replace(/ \/\/ /g, ' / ')
  sql = sql.replace(/\bcontains\(([^,()]+), ('[^']*')\)/g, 'instr($1, $2) > 0')
  sql = sql.replace(/\bfalse\b/g, '0')
  sql = sql.replace(/(ORDER BY [^()]*\bid) ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW/g, '$1')
  if (/ROWS BETWEEN/i.test(sql) || DUCKDB_ONLY.test(sql)) return null
  const names = Object.keys(PATHS) as (keyof typeof PATHS)[]
  for (const name of names) {
    // `FROM orders o` keeps its alias; a bare `FROM orders` is given its DuckDB name as one.
    sql = sql.replace(
      new RegExp(`\\b(FROM|JOIN) ${name}\\b( (?!WHERE|GROUP|ORDER|LIMIT|UNION|JOIN|LEFT|INNER|ON)[a-z]\\w*)?`, 'g'),
      (_m, kw: string, alias?: string) => (alias ? `${kw} ${PATHS[name]}${alias}` : `${kw} ${PATHS[name]} AS ${name}`),
    )
  }
  return sql
}

/** Every `x::DOUBLE` as `CAST(x AS REAL)`, x being a name, a call (windowed or not), a parenthesised term or a CASE … END. */
function castsToReal(sql: string): string {
  for (;;) {
    const at = sql.indexOf('::DOUBLE')
    if (at < 0) return sql
    const start = operandStart(sql, at)
    if (start < 0) return sql
    sql = `${sql.slice(0, start)}CAST(${sql.slice(start, at)} AS REAL)${sql.slice(at + '::DOUBLE'.length)}`
  }
}

/** Where the operand ending at `end` begins, or -1 when it is not one of the forms castsToReal knows. */
function operandStart(sql: string, end: number): number {
  let i = end
  if (sql.slice(0, i).endsWith('END')) {
    // Back to the CASE this END closes.
    let depth = 0
    for (let j = i - 3; j >= 0; j--) {
      if (sql.startsWith('END', j) && !/\w/.test(sql[j + 3] ?? '') && !/\w/.test(sql[j - 1] ?? '')) depth++
      else if (sql.startsWith('CASE', j) && !/\w/.test(sql[j + 4] ?? '') && !/\w/.test(sql[j - 1] ?? '')) {
        if (--depth === 0) return j
      }
    }
    return -1
  }
  if (sql[i - 1] === ')') {
    let depth = 0
    for (i = i - 1; i >= 0; i--) {
      if (sql[i] === ')') depth++
      else if (sql[i] === '(' && --depth === 0) break
    }
    if (i < 0) return -1
    // `f(x) OVER (…)`: the window's parentheses belong to the call before them.
    if (sql.slice(0, i).endsWith(' OVER ')) return operandStart(sql, i - ' OVER '.length)
  }
  while (i > 0 && /[\w.]/.test(sql[i - 1])) i--
  return i
}
