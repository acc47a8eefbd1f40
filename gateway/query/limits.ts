/**
 * The limits of a result. Its size: MAX_RESULT_ROWS (enforced by the engine while it builds the
 * result, see the tasks' maxRows) and MAX_RESULT_BYTES (estimated here from the columns the worker
 * returned). Over either, the request is refused with 413, unless it passed `truncate_=1`: then it
 * gets the first rows that fit and `totalRows` says how many there were, so a cut is never silent.
 * Its shape: every query result (api/run, api/sql, instances, savetable) comes back from the pool
 * through runOnPool, whatever gave it its columns (willbe chains, tabu tcols and cbreaks
 * cross-tabs, colord, links, SQL select lists); there their count and names are bounded
 * (shared/name-limits.ts, checkResultShape), so a result is refused the same way however it was
 * made, and a result that could be shown can also be saved.
 */
import { AppError } from '../../shared/errors.js'
import type { CodedTextColumn, ResultColumn, ResultSet } from '../../shared/protocol.js'
import type { TruncationInfo } from '../format/index.js'
import { isTextColumn, perCode } from '../../shared/result-text.js'
import { checkColumnCount, checkFieldLength, checkSqlResultNames, quoteName } from '../../shared/name-limits.js'

/** Options of a recipe besides the query: truncate_=1 (see RunRecipe.truncate). */
export interface RecipeOptions {
  readonly truncate?: boolean
}

/** MAX_RESULT_BYTES counts 8 bytes for every number, whatever its type. */
const NUMBER_BYTES = 8

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8')

/** Bytes of each row of a column as MAX_RESULT_BYTES counts them; a coded column measures each distinct string once. */
function cellBytes(column: ResultColumn): (row: number) => number {
  switch (column.kind) {
    case 'text': {
      const data = column.data
      return (row) => utf8Length(data[row])
    }
    case 'coded': {
      const codes = column.codes
      const bytesOf = perCode(column.dict, utf8Length)
      return (row) => bytesOf(codes[row])
    }
    default:
      return () => NUMBER_BYTES
  }
}

/**
 * How many bytes the result takes (8 per number, the UTF-8 length of each text), or, when that is
 * more than `stopAbove`, some count above it (counting stops there). A cheap estimate from the
 * columns, without serialising anything.
 */
export function countedBytes(result: ResultSet, stopAbove = Number.POSITIVE_INFINITY): number {
  const numeric = result.columns.filter((c) => !isTextColumn(c)).length
  let bytes = numeric * NUMBER_BYTES * result.rowCount
  for (const column of result.columns) {
    if (bytes > stopAbove) break
    if (column.kind === 'coded') bytes += codedBytes(column, result.rowCount, stopAbove - bytes)
    else if (column.kind === 'text') {
      for (let r = 0; r < result.rowCount && bytes <= stopAbove; r++) bytes += utf8Length(column.data[r])
    }
  }
  return bytes
}

/** Rows counted between checks against the budget: the inner loop stays a plain sum. */
const COUNT_STRIDE = 65_536

/** The bytes of a coded column's first `rows` rows, stopping past `budget`: one table look-up per row. */
function codedBytes(column: CodedTextColumn, rows: number, budget: number): number {
  const { codes, dict } = column
  // Measure every dictionary entry up front unless the dictionary is far larger than the rows.
  if (dict.length > 4 * rows) {
    const bytesAt = cellBytes(column)
    let bytes = 0
    for (let r = 0; r < rows && bytes <= budget; r++) bytes += bytesAt(r)
    return bytes
  }
  const lengths = Float64Array.from(dict, utf8Length)
  let bytes = 0
  for (let from = 0; from < rows && bytes <= budget; from += COUNT_STRIDE) {
    const to = Math.min(rows, from + COUNT_STRIDE)
    for (let r = from; r < to; r++) bytes += lengths[codes[r]]
  }
  return bytes
}

/** How many rows from the start fit in `maxBytes`. */
export function rowsWithinBytes(result: ResultSet, maxBytes: number): number {
  const readers = result.columns.map(cellBytes)
  let bytes = 0
  for (let r = 0; r < result.rowCount; r++) {
    for (const bytesAt of readers) bytes += bytesAt(r)
    if (bytes > maxBytes) return r
  }
  return result.rowCount
}

/** The first `rows` rows, copied, so the cut result does not keep the whole one in memory. */
function firstRows(result: ResultSet, rows: number): ResultSet {
  const columns = result.columns.map((c): ResultColumn => {
    switch (c.kind) {
      case 'text':
        return { kind: 'text', data: c.data.slice(0, rows) }
      case 'coded':
        return { kind: 'coded', codes: c.codes.slice(0, rows), dict: c.dict }
      case 'int':
        return { kind: 'int', data: c.data.slice(0, rows) }
      case 'float':
        return { kind: 'float', data: c.data.slice(0, rows) }
      case 'bigint':
        return { kind: 'bigint', data: c.data.slice(0, rows) }
    }
  })
  return { cols: result.cols, columns, rowCount: rows, totalRows: result.totalRows ?? result.rowCount }
}

/**
 * Applies MAX_RESULT_BYTES to a result from the engine: returns it when it fits; otherwise
 * refuses it (413), or with `truncate` keeps the first rows that fit.
 */
export function limitResultBytes(result: ResultSet, maxBytes: number, truncate: boolean): ResultSet {
  const bytes = countedBytes(result, maxBytes)
  if (bytes <= maxBytes) return result
  if (truncate) return firstRows(result, rowsWithinBytes(result, maxBytes))
  throw new AppError(
    'RESULT_TOO_LARGE',
    `The result takes more than ${maxBytes} bytes (MAX_RESULT_BYTES; counted as 8 per number plus the text's UTF-8 length); narrow the query.`,
    { maxBytes },
  )
}

/** A refusal of a result too large (rows or bytes), with the way out that query endpoints offer added to its message. */
export function withTruncateHint(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'RESULT_TOO_LARGE' || err.message.includes('truncate_')) return err
  return new AppError('RESULT_TOO_LARGE', `${err.message.replace(/\.$/, '')}, or pass truncate_=1 to get its first rows.`, err.detail)
}

/** Whether a result was cut, from how many rows, to how many. */
export function truncationOf(result: ResultSet): TruncationInfo {
  const totalRows = result.totalRows ?? result.rowCount
  return { truncated: totalRows > result.rowCount, totalRows, rows: result.rowCount }
}

/**
 * `nameField` says whose names the result has. `name`: the macro language's (willbe, tcol…),
 * which a table may hold, each at most FIELD_LIMITS.name (128), labels at most FIELD_LIMITS.label.
 * `label`: an answer of sql.js, named by SQLite, which names an unaliased column by its
 * expression's text with no limit (sqllogictest has names of 130-300 characters; issue 38): no
 * one name is bounded, only all of them together (MAX_SQL_NAME_CHARS, which says why). A compiled
 * SQL answer is checked as `name` with the engine's own names and then given SQLite's, which the
 * compiler bounds the same way (engine/sql/compile/index.ts). Saving such a result still needs
 * names a table may have (validateTable): that limit protects the catalog, listings and `!cols`.
 */
export function checkResultShape(result: ResultSet, nameField: 'name' | 'label' = 'name'): void {
  checkColumnCount(
    result.cols.length,
    'the result',
    'TOO_MANY_COLUMNS',
    'select fewer columns (colord, fewer willbe or tcol, fewer cbreaks values, or a narrower select list)',
  )
  if (nameField === 'label') {
    checkSqlResultNames(result.cols.map((col) => col.label))
    return
  }
  result.cols.forEach((col, i) => {
    checkFieldLength('name', col.name, `the name of result column ${i + 1} (${quoteName(col.name)})`, 'INVALID_PARAMETER', { column: i + 1 })
    checkFieldLength('label', col.label, `the label of result column ${quoteName(col.name)}`, 'INVALID_PARAMETER', { column: col.name })
  })
}
