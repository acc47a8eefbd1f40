/**
 * Checks a table before it is written, so that a bad column is reported by name instead of
 * producing a version that readers would later choke on.
 */
import { types } from 'node:util'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec, ColumnType } from '../../shared/table.js'
import { COLUMN_NAME, COLUMN_TYPES, NA_INT } from '../../shared/table.js'
import type { ColumnValues } from './types.js'
import { checkColumnCount, checkFieldLength, quoteName } from '../../shared/name-limits.js'
import { isYmd } from '../../shared/ymd.js'

// Uploads check dates with the same rule before they get here (shared/csv/infer.ts).
export { isYmd }

const invalid = (message: string, column?: string): AppError => new AppError('INVALID_PARAMETER', message, column === undefined ? {} : { column })

/**
 * Validate column specs and values; returns the row count. Throws AppError('INVALID_PARAMETER')
 * naming the offending column.
 */
export function validateTable(columns: readonly ColumnSpec[], data: readonly ColumnValues[]): number {
  if (!Array.isArray(columns) || columns.length === 0) throw invalid('A table needs at least one column.')
  checkColumnCount(columns.length, 'the table', 'INVALID_PARAMETER', 'split it into narrower tables')
  if (!Array.isArray(data) || data.length !== columns.length) {
    throw invalid(`Expected values for ${columns.length} columns, got ${Array.isArray(data) ? data.length : 'none'}.`)
  }
  const seen = new Set<string>()
  let rows = -1
  columns.forEach((spec, i) => {
    const name = checkSpec(spec, i)
    // 1010data column names are case-insensitive, and so are SQLite's.
    const key = name.toLowerCase()
    if (seen.has(key)) throw invalid(`Column "${name}" appears more than once (names ignore case).`, name)
    seen.add(key)
    const length = checkValues(spec.type, data[i], name)
    if (rows === -1) rows = length
    else if (length !== rows) {
      throw invalid(`Column "${name}" has ${length} values but column "${columns[0].name}" has ${rows}.`, name)
    }
  })
  return rows
}

function checkSpec(spec: ColumnSpec, i: number): string {
  if (spec === null || typeof spec !== 'object') throw invalid(`Column ${i + 1} has no specification.`)
  const name = spec.name
  // Before the pattern test, which would otherwise scan (and quote) all of a huge name.
  checkFieldLength('name', name, `the name of column ${i + 1} (${typeof name === 'string' ? quoteName(name) : ''})`)
  if (typeof name !== 'string' || !COLUMN_NAME.test(name)) {
    throw invalid(
      `Column ${i + 1} has an invalid name ${JSON.stringify(name)}: use a letter followed by letters, digits or underscores.`,
      typeof name === 'string' ? name : undefined,
    )
  }
  if (!COLUMN_TYPES.includes(spec.type)) {
    throw invalid(`Column "${name}" has unknown type ${JSON.stringify(spec.type)}; use one of ${COLUMN_TYPES.join(', ')}.`, name)
  }
  for (const key of ['label', 'desc', 'format'] as const) {
    if (spec[key] !== undefined && typeof spec[key] !== 'string') throw invalid(`Column "${name}" has a non-text ${key}.`, name)
    checkFieldLength(key, spec[key], `the ${key} of column "${name}"`, 'INVALID_PARAMETER', { column: name })
  }
  if (spec.width !== undefined && !(Number.isSafeInteger(spec.width) && spec.width > 0)) {
    throw invalid(`Column "${name}" has width ${JSON.stringify(spec.width)}; use a positive integer.`, name)
  }
  if (spec.fixed !== undefined && typeof spec.fixed !== 'boolean') throw invalid(`Column "${name}" has a non-boolean fixed flag.`, name)
  return name
}

/** Check that the value array has the kind the type needs; returns its length. */
function checkValues(type: ColumnType, values: ColumnValues | undefined, name: string): number {
  switch (type) {
    case 'int':
      if (!types.isInt32Array(values)) throw invalid(`Column "${name}" is int, so its values must be an Int32Array.`, name)
      return values.length
    case 'date':
      if (!types.isInt32Array(values)) throw invalid(`Column "${name}" is date, so its values must be an Int32Array.`, name)
      checkDates(values, name)
      return values.length
    case 'float':
      if (!types.isFloat64Array(values)) throw invalid(`Column "${name}" is float, so its values must be a Float64Array.`, name)
      return values.length
    case 'bigint':
      if (!types.isBigInt64Array(values)) throw invalid(`Column "${name}" is bigint, so its values must be a BigInt64Array.`, name)
      return values.length
    case 'text':
      if (!Array.isArray(values)) throw invalid(`Column "${name}" is text, so its values must be an array of strings.`, name)
      for (let r = 0; r < values.length; r++) {
        if (typeof values[r] !== 'string') throw invalid(`Column "${name}" row ${r + 1} is not a string.`, name)
      }
      return values.length
  }
}

// Dates are compared and formatted as yyyymmdd everywhere; one impossible date stored now would
// surface much later as a wrong answer, so reject it here.
function checkDates(values: Int32Array, name: string): void {
  for (let r = 0; r < values.length; r++) {
    const v = values[r]
    if (v !== NA_INT && !isYmd(v)) throw invalid(`Column "${name}" row ${r + 1} has ${v}, which is not a yyyymmdd date.`, name)
  }
}
