/**
 * Date functions over yyyymmdd integers (date or int columns). year, month and day are the
 * documented integer arithmetic (§5.4); yrmo gives yyyymm and quarter yyyyq (the §6 storage
 * forms); weekday numbers Sunday 1 … Saturday 7; dayofyear counts from 1 on January 1st and
 * monthend gives the month's last date. The arithmetic (date-shift.ts), day numbers
 * (day-numbers.ts), times of day and date+time values (times.ts) join them here. N/A in → N/A
 * out.
 */
import { isColumn, onConstants, requiredValue } from './args.js'
import { dayOfYearOf, monthEndOf, ymdToDays } from './calendar.js'
import { dateInts, needDate } from './date-args.js'
import { DATE_SHIFTS } from './date-shift.js'
import { DAY_NUMBERS } from './day-numbers.js'
import { TIMES } from './times.js'
import type { FunctionDef } from './types.js'
import { mapInts } from './value-table.js'
import type { TypeResult } from './typing.js'

type DatePart = 'year' | 'month' | 'day' | 'yrmo' | 'quarter' | 'weekday' | 'dayofyear' | 'monthend'

/** One part of one yyyymmdd value (never N/A). */
function partOf(p: DatePart, v: number): number {
  const y = Math.floor(v / 10000)
  const ym = Math.floor(v / 100)
  switch (p) {
    case 'year':
      return y
    case 'month':
      return ym - y * 100
    case 'day':
      return v - ym * 100
    case 'yrmo':
      return ym
    case 'quarter':
      return y * 10 + Math.floor((ym - y * 100 - 1) / 3) + 1
    case 'weekday':
      // 1970-01-01 was a Thursday (5 when Sunday is 1).
      return ((((ymdToDays(v) + 4) % 7) + 7) % 7) + 1
    case 'dayofyear':
      return dayOfYearOf(v)
    case 'monthend':
      return monthEndOf(v)
  }
}

function part(p: DatePart, d: Int32Array, n: number): Int32Array {
  return mapInts(d, n, (v) => partOf(p, v))
}

function partDef(name: string, p: DatePart, doc: string, type: 'int' | 'date' = 'int'): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'D', types: ['date', 'int'] }],
    result: ([d]): TypeResult => needDate(name, 'D', d) ?? type,
    kernel: (args, ctx) => {
      const d = requiredValue(args, 0, name, 'D')
      if (!isColumn(d)) return onConstants([d], ctx.rows, (c, n) => ({ type, data: part(p, dateInts(c[0], n, name), n) }))
      return { type, data: part(p, dateInts(d, ctx.rows, name), ctx.rows) }
    },
    doc,
  }
}

/** Registry rows of the date functions. */
export const DATES: readonly FunctionDef[] = [
  partDef('year', 'year', 'year(D): the year of a yyyymmdd date.'),
  partDef('month', 'month', 'month(D): the month (1-12) of a yyyymmdd date.'),
  partDef('day', 'day', 'day(D): the day of the month (1-31) of a yyyymmdd date.'),
  partDef('yrmo', 'yrmo', 'yrmo(D): the month of a yyyymmdd date as yyyymm.'),
  partDef('quarter', 'quarter', 'quarter(D): the quarter of a yyyymmdd date as yyyyq (20213 = 3rd quarter of 2021).'),
  partDef('weekday', 'weekday', 'weekday(D): day of the week of a yyyymmdd date, Sunday = 1 … Saturday = 7.'),
  partDef('dayofwk', 'weekday', 'dayofwk(D): same as weekday(D): Sunday = 1 … Saturday = 7.'),
  partDef('dayofyear', 'dayofyear', 'dayofyear(D): the day of the year of a yyyymmdd date, 1 for January 1st … 366.'),
  partDef('monthend', 'monthend', 'monthend(D): the last date of the month of a yyyymmdd date (20240215 → 20240229).', 'date'),
  ...DATE_SHIFTS,
  ...DAY_NUMBERS,
  ...TIMES,
]
