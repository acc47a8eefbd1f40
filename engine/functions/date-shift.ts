/**
 * Date arithmetic over yyyymmdd integers: dateadd (days), addmonths and addyears (calendar months
 * and years, the day clamped to the end of a shorter month) and datediff (days between). The
 * 1010data names of these are unconfirmed; see docs/language.md (choices). N/A in → N/A out, and
 * a result past the Int32 range (beyond year ±214748) is N/A.
 */
import { NA_INT, type Column, type IntColumn, type Value } from '../columns/types.js'
import { asColumn, callError, isColumn, isScalar, onConstants, requiredValue, scalarIsNA } from './args.js'
import { addMonthsTo, civilFromDays, ymdToDays } from './calendar.js'
import { dateInts, needDate } from './date-args.js'
import type { FunctionDef } from './types.js'
import { mapInts } from './value-table.js'
import { firstError, needNumber } from './typing.js'

/** One date moved by a whole number of units (never N/A in, possibly N/A out). */
type Shift = (ymd: number, units: number) => number

const fitInt = (r: number): number => ((r | 0) === r ? r : NA_INT)

const byDays: Shift = (v, days) => fitInt(civilFromDays(ymdToDays(v) + days))
const byMonths: Shift = (v, months) => fitInt(addMonthsTo(v, months))
const byYears: Shift = (v, years) => fitInt(addMonthsTo(v, years * 12))

/** D moved by N units, as yyyymmdd. */
function shiftDates(fn: string, shift: Shift, d: Value, k: Value, rows: number): Column {
  if (!isColumn(d) && !isColumn(k)) return onConstants([d, k], rows, (c, n) => shiftDates(fn, shift, c[0], c[1], n))
  const a = dateInts(d, rows, fn)
  const b = asColumn(k, rows, fn, 'N') as IntColumn
  if (b.type !== 'int' && b.type !== 'date') throw callError(`${fn} needs a whole number for N.`)
  // A constant N: one calendar conversion per date value, not per row.
  if (isScalar(k) && !scalarIsNA(k)) return { type: 'date', data: mapInts(a, rows, (v) => shift(v, k.value as number)) }
  const o = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    const v = a[i]
    const m = b.data[i]
    o[i] = v === NA_INT || m === NA_INT ? NA_INT : shift(v, m)
  }
  return { type: 'date', data: o }
}

function shiftDef(name: string, unit: string, shift: Shift, doc: string): FunctionDef {
  return {
    name,
    args: [
      { kind: 'value', name: 'D', types: ['date', 'int'] },
      { kind: 'value', name: 'N', types: ['int'] },
    ],
    result: ([d, k]) =>
      firstError(
        needDate(name, 'D', d),
        needNumber(name, 'N', k),
        k === 'float' ? { error: `${name} needs a whole number of ${unit} for N, got a decimal` } : null,
      ) ?? 'date',
    kernel: (args, ctx) => shiftDates(name, shift, requiredValue(args, 0, name, 'D'), requiredValue(args, 1, name, 'N'), ctx.rows),
    doc,
  }
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

/** Registry rows of the date arithmetic functions. */
export const DATE_SHIFTS: readonly FunctionDef[] = [
  shiftDef('dateadd', 'days', byDays, 'dateadd(D;N): the date N days after D (before, for negative N), as yyyymmdd.'),
  shiftDef(
    'addmonths',
    'months',
    byMonths,
    'addmonths(D;N): the date N calendar months after D (before, for negative N); a day past the end of the target month becomes its last day (1/31 + 1 month = 2/28).',
  ),
  shiftDef(
    'addyears',
    'years',
    byYears,
    'addyears(D;N): the date N years after D (before, for negative N); February 29 becomes February 28 in a year that has none.',
  ),
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
