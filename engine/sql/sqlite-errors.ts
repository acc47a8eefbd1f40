/**
 * What an error of SQLite's means for the caller. SQLite's message is good and goes back as is
 * (SQL_ERROR, 400) when the query caused it: a syntax error, no such column, integer overflow,
 * a string too big. A few of its conditions are never the query's doing, only the service's: a
 * damaged image, a file that cannot be opened, a busy or locked database, an API misuse, or a
 * limit of the build such as the ten attached databases (issue 38: that one was a 500 with no
 * message; many-tables.ts now keeps queries under it). Those stay 500 INTERNAL, with SQLite's
 * words kept for the log, since no change to the query would help.
 */
import { AppError } from '../../shared/errors.js'

/** SQLite's messages for conditions of the service (SQLITE_CORRUPT, NOTADB, IOERR, CANTOPEN, BUSY, LOCKED, MISUSE, SCHEMA, PROTOCOL, PERM, and the attach limit). */
const SERVICE_CONDITIONS = [
  /database disk image is malformed/i,
  /database corruption/i,
  /file is not a database/i,
  /disk I\/O error/i,
  /unable to open database/i,
  /database (table )?is locked/i,
  /bad parameter or other API misuse/i,
  /database schema has changed/i,
  /locking protocol/i,
  /access permission denied/i,
  /too many attached databases/i,
]

/** Whether SQLite's message is about the service rather than the query. */
export const isServiceCondition = (message: string): boolean => SERVICE_CONDITIONS.some((re) => re.test(message))

/** The AppError for an error sql.js threw while preparing or stepping the query. */
export function sqlError(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err)
  if (isServiceCondition(message)) {
    return new AppError('INTERNAL', `Internal error in the SQL engine: ${message}.`, { sqlite: message }, { cause: err })
  }
  const table = /^no such table: (.+)$/.exec(message)
  if (table) {
    return new AppError('UNKNOWN_TABLE', `No such table "${table[1]}"; address tables by their dotted path, such as pub.demo.retail.item.`, { table: table[1] })
  }
  if (/readonly|query_only/i.test(message)) return new AppError('SQL_NOT_READ_ONLY', 'Only read-only queries are allowed.')
  return new AppError('SQL_ERROR', `SQL error: ${message}.`, { sqlite: message })
}
