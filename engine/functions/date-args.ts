/**
 * Argument checks shared by the date functions: a date is a yyyymmdd whole number, stored as a
 * date or as a plain int (computed, or from an inline table); text and decimals are refused.
 */
import type { ColumnType, Value } from '../columns/types.js'
import { asColumn, callError } from './args.js'

/** The yyyymmdd values of argument `v` as a full column. */
export function dateInts(v: Value, rows: number, fn: string): Int32Array {
  const col = asColumn(v, rows, fn, 'D')
  if (col.type === 'text') throw callError(`${fn} needs a date, got text.`)
  if (col.type === 'float' || col.type === 'bigint')
    throw callError(`${fn} needs a date (yyyymmdd integer), got ${col.type === 'float' ? 'a decimal' : 'a big integer'}.`)
  return col.data
}

/** The checker's version: an error result unless `t` can hold yyyymmdd dates. */
export const needDate = (fn: string, name: string, t: ColumnType | null): { error: string } | null =>
  t === 'text' || t === 'float' || t === 'bigint'
    ? { error: `${fn} needs a date, got ${t === 'text' ? 'text' : t === 'float' ? 'a decimal' : 'a big integer'} for ${name}` }
    : null
