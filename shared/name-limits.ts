/**
 * How wide a table, and how long its names and texts about it, may be. Without bounds a
 * 5 MB column name was accepted and then copied into every listing, `!cols` answer and log
 * line; a result of more than 2,000 columns ran, and failed with a 500 only when it was saved.
 * 1010data documents no lengths of its own, so these are ours: far above real use, far below
 * what would hurt. Each refusal is a 4xx that names the field, its length and the limit.
 */
import { AppError, type ErrorCode } from './errors.js'

/**
 * Columns of a result or table: SQLite's SQLITE_MAX_COLUMN in the sql.js build. Every saved
 * table is also a SQLite image (api/sql reads it), which cannot be wider.
 */
export const MAX_COLUMNS = 2000

/** Longest text of each named field, in characters (UTF-16 code units). */
export const FIELD_LIMITS = {
  /** A column name, or one segment of a dotted path. */
  name: 128,
  /** A dotted path (folders and the table's name). */
  path: 1024,
  /** A column label (heading), a table, folder, group or role title. */
  label: 1024,
  title: 1024,
  /** A column's display format. */
  format: 256,
  /** A short description. */
  sdesc: 1024,
  /** A column's description, a long description, a group's or role's description. */
  desc: 65_536,
  ldesc: 65_536,
  description: 65_536,
} as const

export type LimitedField = keyof typeof FIELD_LIMITS

/**
 * Refuses `value` when it is longer than the field allows. `what` names it for the caller, such
 * as `the label of column "sales"` or `the parameter "title"`.
 */
export function checkFieldLength(
  field: LimitedField,
  value: unknown,
  what: string,
  code: ErrorCode = 'INVALID_PARAMETER',
  detail: Record<string, unknown> = {},
): void {
  if (typeof value !== 'string') return
  const max = FIELD_LIMITS[field]
  if (value.length > max) {
    throw new AppError(code, `${upperFirst(what)} is ${value.length} characters long; the most allowed is ${max}: shorten it.`, {
      ...detail,
      field,
      length: value.length,
      maxLength: max,
    })
  }
}

/**
 * Refuses a dotted path one of whose parts (folder or table names) is longer than a name may be
 * (FIELD_LIMITS.name). Checked where a folder or table is created or gets a new path, not where
 * one is only named: a table made before the limit was enforced can still be read and dropped.
 * `parameter` names the request field the path came in.
 */
export function checkPathSegments(path: string, parameter = 'path'): void {
  const max = FIELD_LIMITS.name
  const parts = path.split('.')
  const at = parts.findIndex((part) => part.length > max)
  if (at < 0) return
  const part = parts[at]
  throw new AppError(
    'INVALID_PARAMETER',
    `Part ${at + 1} of the path in "${parameter}" (${quoteName(part)}) is ${part.length} characters long; each dot-separated name in a path may have at most ${max} characters: shorten it.`,
    { parameter, field: 'name', segment: at + 1, length: part.length, maxLength: max },
  )
}

/** Refuses a result or table of more than MAX_COLUMNS columns. */
export function checkColumnCount(columns: number, what: string, code: ErrorCode, hint: string): void {
  if (columns > MAX_COLUMNS) {
    throw new AppError(code, `${upperFirst(what)} has ${columns} columns; the most allowed is ${MAX_COLUMNS}: ${hint}.`, { columns, maxColumns: MAX_COLUMNS })
  }
}

/**
 * All the column names of one SQL result together, in characters. SQLite names an unaliased
 * column by its expression's text and has no limit of its own, so no one name is bounded here
 * either (issue 38: sql.js answered names of 130-300 characters that were refused); a name is a
 * piece of the query, which MAX_QUERY_BYTES bounds. But `*` repeats names: a short query can give
 * 2,000 columns the same long name (`select *, *, … from (select <long expression>)`), which every
 * answer, page and format would then carry, so the sum is bounded instead.
 */
export const MAX_SQL_NAME_CHARS = 1 << 20

/** The characters of all the names together. */
export const namesLength = (names: readonly string[]): number => names.reduce((sum, name) => sum + name.length, 0)

/** Refuses an SQL result whose column names together are longer than MAX_SQL_NAME_CHARS. */
export function checkSqlResultNames(names: readonly string[]): void {
  const length = namesLength(names)
  if (length <= MAX_SQL_NAME_CHARS) return
  throw new AppError(
    'INVALID_PARAMETER',
    `The names of the result's ${names.length} columns are ${length} characters long together; the most allowed is ${MAX_SQL_NAME_CHARS}: ` +
      'name long expressions with AS, or select fewer columns.',
    { field: 'names', length, maxLength: MAX_SQL_NAME_CHARS },
  )
}

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

/** A name shown in a message: its first 40 characters when it is long (the name itself may be the problem). */
export const quoteName = (name: string): string => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name)
