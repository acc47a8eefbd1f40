/**
 * Date functions over yyyymmdd integers (date or int columns). year, month and day are the
 * documented integer arithmetic (§5.4); yrmo gives yyyymm and quarter yyyyq (the §6 storage
 * forms); weekday numbers Sunday 1 … Saturday 7. dateadd/datediff are our own day-arithmetic
 * helpers (their 1010data names are unconfirmed). N/A in → N/A out.
 */
import { NA_INT, type Column, type ColumnType, type IntColumn, type Value } from '../columns/types.js'
import { asColumn, callError, isColumn, isScalar, onConstants, requiredValue, scalarIsNA } from './args.js'
import { civilFromDays, ymdToDays } from './calendar.js'
import type { FunctionDef } from './types.js'
import { mapInts } from './value-table.js'
import { firstError, needNumber, type TypeResult } from './typing.js'
import { isFloat64 } from '../columns/index.js'

type DatePart = 'year' | 'month' | 'day' | 'yrmo' | 'quarter' | 'weekday'

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
  }
}

function part(p: DatePart, d: Int32Array, n: number): Int32Array {
  return mapInts(d, n, (v) => partOf(p, v))
}

/** A date N days after another as yyyymmdd, N/A when that does not fit Int32 (beyond year ±214748). */
function shifted(v: number, days: number): number {
  const r = civilFromDays(ymdToDays(v) + days)
  return (r | 0) === r ? r : NA_INT
}

function dateInts(v: Value, rows: number, fn: string): Int32Array {
  const col = asColumn(v, rows, fn, 'D')
  if (col.type === 'text') throw callError(`${fn} needs a date, got text.`)
  if (isFloat64(col)) throw callError(`${fn} needs a date (yyyymmdd integer), got a decimal.`)
  return col.data
}

const needDate = (fn: string, name: string, t: ColumnType | null): { error: string } | null =>
  t === 'text' || t === 'float' ? { error: `${fn} needs a date, got ${t === 'text' ? 'text' : 'a decimal'} for ${name}` } : null

function partDef(name: string, p: DatePart, doc: string): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'D', types: ['date', 'int'] }],
    result: ([d]): TypeResult => needDate(name, 'D', d) ?? 'int',
    kernel: (args, ctx) => {
      const d = requiredValue(args, 0, name, 'D')
      if (!isColumn(d)) return onConstants([d], ctx.rows, (c, n) => ({ type: 'int', data: part(p, dateInts(c[0], n, name), n) }))
      return { type: 'int', data: part(p, dateInts(d, ctx.rows, name), ctx.rows) }
    },
    doc,
  }
}

/** D + N days, as yyyymmdd. */
function dateAdd(d: Value, k: Value, rows: number): Column {
  if (!isColumn(d) && !isColumn(k)) return onConstants([d, k], rows, (c, n) => dateAdd(c[0], c[1], n))
  const a = dateInts(d, rows, 'dateadd')
  const b = asColumn(k, rows, 'dateadd', 'N') as IntColumn
  if (b.type !== 'int' && b.type !== 'date') throw callError('dateadd needs a whole number of days for N.')
  // A constant N: one calendar conversion per date value, not per row.
  if (isScalar(k) && !scalarIsNA(k)) return { type: 'date', data: mapInts(a, rows, (v) => shifted(v, k.value as number)) }
  const o = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    const v = a[i]
    const m = b.data[i]
    o[i] = v === NA_INT || m === NA_INT ? NA_INT : shifted(v, m)
  }
  return { type: 'date', data: o }
}

/** Days from D2 to D1 (D1 − D2 in days). */
function dateDiff(d1: Value, d2: Value, rows: number): Column {
  if (!isColumn(d1) && !isColumn(d2)) return onConstants([d1, d2], rows, (c, n) => dateDiff(c[0], c[1], n))
  const a = mapInts(dateInts(d1, rows, 'datediff'), rows, ymdToDays)
  const b = mapInts(dateInts(d2, rows, 'datediff'), rows, ymdToDays)
  // Day numbers of dates up to year ±214748 stay far inside Int32, so their difference does too.
  for (let i = 0; i < rows; i++) {
    const x = a[i]
    const y = b[i]
    a[i] = x === NA_INT || y === NA_INT ? NA_INT : x - y
  }
  return { type: 'int', data: a }
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
  {
    name: 'dateadd',
    args: [
      { kind: 'value', name: 'D', types: ['date', 'int'] },
      { kind: 'value', name: 'N', types: ['int'] },
    ],
    result: ([d, k]) =>
      firstError(
        needDate('dateadd', 'D', d),
        needNumber('dateadd', 'N', k),
        k === 'float' ? { error: 'dateadd needs a whole number of days for N, got a decimal' } : null,
      ) ?? 'date',
    kernel: (args, ctx) => dateAdd(requiredValue(args, 0, 'dateadd', 'D'), requiredValue(args, 1, 'dateadd', 'N'), ctx.rows),
    doc: 'dateadd(D;N): the date N days after D (before, for negative N), as yyyymmdd.',
  },
  {
    name: 'datediff',
    args: [
      { kind: 'value', name: 'D1', types: ['date', 'int'] },
      { kind: 'value', name: 'D2', types: ['date', 'int'] },
    ],
    result: ([a, b]) => firstError(needDate('datediff', 'D1', a), needDate('datediff', 'D2', b)) ?? 'int',
    kernel: (args, ctx) => dateDiff(requiredValue(args, 0, 'datediff', 'D1'), requiredValue(args, 1, 'datediff', 'D2'), ctx.rows),
    doc: 'datediff(D1;D2): the number of days from D2 to D1 (D1 minus D2 in days).',
  },
]
