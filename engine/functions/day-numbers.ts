/**
 * Day numbers: daynum(D) turns a yyyymmdd date into a count of days and numdate(N) turns the
 * count back, so that plain subtraction and addition do date arithmetic. Day 0 is 1/1/2035, the
 * epoch of the K language 1010data is built on (its documentation does not name one: see
 * docs/language.md, choices); date+time values (times.ts) count days from the same day.
 */
import { NA_INT, type Column, type Value } from '../columns/types.js'
import { asColumn, callError, isColumn, onConstants, requiredValue } from './args.js'
import { civilFromDays, ymdToDays } from './calendar.js'
import { dateInts, needDate } from './date-args.js'
import type { FunctionDef } from './types.js'
import { mapInts } from './value-table.js'
import { firstError, needNumber } from './typing.js'

/** Days from 1970-01-01 (the calendar's own count) to 2035-01-01, day 0 of daynum. */
export const DAY_ZERO = ymdToDays(20350101)

/** daynum of a yyyymmdd value (never N/A; Int32 for any Int32 input). */
export const dayNumberOf = (ymd: number): number => ymdToDays(ymd) - DAY_ZERO

/** yyyymmdd of day number `n`, N/A past the Int32 range. */
export function dateOfDayNumber(n: number): number {
  const r = civilFromDays(n + DAY_ZERO)
  return (r | 0) === r ? r : NA_INT
}

function dayNumbers(v: Value, rows: number): Column {
  if (!isColumn(v)) return onConstants([v], rows, (c, n) => dayNumbers(c[0], n))
  return { type: 'int', data: mapInts(dateInts(v, rows, 'daynum'), rows, dayNumberOf) }
}

function datesOf(v: Value, rows: number): Column {
  if (!isColumn(v)) return onConstants([v], rows, (c, n) => datesOf(c[0], n))
  const col = asColumn(v, rows, 'numdate', 'N')
  if (col.type !== 'int' && col.type !== 'date') throw callError('numdate needs a whole number of days for N.')
  return { type: 'date', data: mapInts(col.data, rows, dateOfDayNumber) }
}

/** Registry rows of daynum and numdate. */
export const DAY_NUMBERS: readonly FunctionDef[] = [
  {
    name: 'daynum',
    args: [{ kind: 'value', name: 'D', types: ['date', 'int'] }],
    result: ([d]) => needDate('daynum', 'D', d) ?? 'int',
    kernel: (args, ctx) => dayNumbers(requiredValue(args, 0, 'daynum', 'D'), ctx.rows),
    doc: 'daynum(D): the number of days from 1/1/2035 to the yyyymmdd date D (negative before it); numdate turns it back.',
  },
  {
    name: 'numdate',
    args: [{ kind: 'value', name: 'N', types: ['int', 'date'] }],
    result: ([k]) =>
      firstError(needNumber('numdate', 'N', k), k === 'float' ? { error: 'numdate needs a whole number of days for N, got a decimal' } : null) ?? 'date',
    kernel: (args, ctx) => datesOf(requiredValue(args, 0, 'numdate', 'N'), ctx.rows),
    doc: 'numdate(N): the yyyymmdd date N days after 1/1/2035 (before it, for negative N); the inverse of daynum.',
  },
]
