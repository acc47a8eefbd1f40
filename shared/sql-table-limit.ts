/**
 * How many tables one SQL query may read (api/sql). Checked by the gateway before it loads any of
 * them (gateway/query/sql.ts#sqlTask), by the worker that runs it on sql.js
 * (engine/sql/execute.ts), and by the compiler, which leaves such a query to that refusal.
 */
import { AppError } from './errors.js'

/**
 * The most tables one query may read: SQLite's limit for one join (a query plan's table bitmask
 * has 64 bits; it answers "at most 64 tables in a join"). SQLite would take more in all across
 * UNION arms and subqueries; here every table a query names is loaded whole as a SQLite image
 * before it runs, so the limit bounds what one query can make the service load.
 */
export const MAX_QUERY_TABLES = 64

/** Refuses a query that reads more than MAX_QUERY_TABLES tables, before any is loaded. */
export function checkTableCount(count: number): void {
  if (count <= MAX_QUERY_TABLES) return
  throw new AppError(
    'SQL_ERROR',
    `SQL error: at most ${MAX_QUERY_TABLES} tables in a query: this one reads ${count}. SQLite joins at most ${MAX_QUERY_TABLES} tables, ` +
      `and one query here may read at most ${MAX_QUERY_TABLES} different tables in all (its joins, subqueries and UNION arms together): split it.`,
    { sqlite: `at most ${MAX_QUERY_TABLES} tables in a join`, tables: count, maxTables: MAX_QUERY_TABLES },
  )
}
