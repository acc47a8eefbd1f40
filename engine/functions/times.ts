/**
 * Times of day and date+time values. A time is an hhmmss whole number (§6: 09:05:07 is 90507); a
 * date+time is a decimal, as 1010data stores it: the day number of its date (daynum, counted
 * from 1/1/2035) plus the elapsed fraction of that day, so that 1/1/2035 at noon is 0.5 and
 * differences are in days. hour, minute and second read either form; datetime assembles one
 * from a date and a time, and dtdate and dttime take it apart. The fraction is read to the
 * millisecond, so float noise never turns 12:00:00 into 11:59:59. N/A in → N/A out.
 */
import { toFloat } from '../columns/index.js'
import { NA_INT, type Column, type ColumnType, type Value } from '../columns/types.js'
import { asColumn, callError, isColumn, onConstants, requiredValue } from './args.js'
import { dateInts, needDate } from './date-args.js'
import { dateOfDayNumber, dayNumberOf } from './day-numbers.js'
import type { FunctionDef } from './types.js'
import { firstError } from './typing.js'

const MS_PER_DAY = 86_400_000

/** Seconds since midnight of an hhmmss value. */
export const secondsOfTime = (hhmmss: number): number => {
  const h = Math.floor(hhmmss / 10000)
  const mm = Math.floor(hhmmss / 100) - h * 100
  return h * 3600 + mm * 60 + (hhmmss - Math.floor(hhmmss / 100) * 100)
}

/** A date+time value split into its day number and the milliseconds into that day. */
export function splitDateTime(x: number): { day: number; ms: number } {
  const total = Math.round(x * MS_PER_DAY)
  const day = Math.floor(total / MS_PER_DAY)
  return { day, ms: total - day * MS_PER_DAY }
}

type TimePart = 'hour' | 'minute' | 'second'

function partOfSeconds(p: TimePart, s: number): number {
  switch (p) {
    case 'hour':
      return Math.floor(s / 3600)
    case 'minute':
      return Math.floor(s / 60) % 60
    case 'second':
      return s % 60
  }
}

/** hh, mm or ss of an hhmmss time (int) or of the time of day of a date+time (decimal). */
function timeParts(p: TimePart, v: Value, rows: number): Column {
  if (!isColumn(v)) return onConstants([v], rows, (c, n) => timeParts(p, c[0], n))
  const col = asColumn(v, rows, p, 'T')
  const out = new Int32Array(rows)
  if (col.type === 'float') {
    for (let i = 0; i < rows; i++) {
      const x = col.data[i]
      out[i] = Number.isNaN(x) ? NA_INT : partOfSeconds(p, Math.floor(splitDateTime(x).ms / 1000))
    }
  } else if (col.type === 'int') {
    for (let i = 0; i < rows; i++) {
      const t = col.data[i]
      out[i] = t === NA_INT ? NA_INT : p === 'hour' ? Math.floor(t / 10000) : p === 'minute' ? Math.floor(t / 100) % 100 : t % 100
    }
  } else {
    throw callError(`${p} needs a time (hhmmss) or a date+time, got ${col.type === 'text' ? 'text' : 'a date'}.`)
  }
  return { type: 'int', data: out }
}

const needTime = (fn: string, t: ColumnType | null): { error: string } | null =>
  t === 'text' || t === 'date' ? { error: `${fn} needs a time (hhmmss) or a date+time, got ${t === 'text' ? 'text' : 'a date'} for T` } : null

function partDef(p: TimePart, doc: string): FunctionDef {
  return {
    name: p,
    args: [{ kind: 'value', name: 'T' }],
    result: ([t]) => needTime(p, t) ?? 'int',
    kernel: (args, ctx) => timeParts(p, requiredValue(args, 0, p, 'T'), ctx.rows),
    doc,
  }
}

/** datetime(D;T): the date+time value of date D at time T. */
function assemble(d: Value, t: Value, rows: number): Column {
  if (!isColumn(d) && !isColumn(t)) return onConstants([d, t], rows, (c, n) => assemble(c[0], c[1], n))
  const days = dateInts(d, rows, 'datetime')
  const times = asColumn(t, rows, 'datetime', 'T')
  if (times.type !== 'int') throw callError('datetime needs a time (hhmmss whole number) for T.')
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    const ymd = days[i]
    const hms = times.data[i]
    out[i] = ymd === NA_INT || hms === NA_INT ? Number.NaN : dayNumberOf(ymd) + (secondsOfTime(hms) * 1000) / MS_PER_DAY
  }
  return { type: 'float', data: out }
}

/** The date (yyyymmdd) or the time of day (hhmmss) of a date+time. */
function takeApart(which: 'dtdate' | 'dttime', v: Value, rows: number): Column {
  if (!isColumn(v)) return onConstants([v], rows, (c, n) => takeApart(which, c[0], n))
  const col = asColumn(v, rows, which, 'X')
  if (col.type === 'text' || col.type === 'date')
    throw callError(`${which} needs a date+time (a decimal day number), got ${col.type === 'text' ? 'text' : 'a date'}.`)
  const days = toFloat(col).data
  const out = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    const x = days[i]
    if (Number.isNaN(x)) {
      out[i] = NA_INT
      continue
    }
    const { day, ms } = splitDateTime(x)
    const s = Math.floor(ms / 1000)
    out[i] = which === 'dtdate' ? dateOfDayNumber(day) : Math.floor(s / 3600) * 10000 + (Math.floor(s / 60) % 60) * 100 + (s % 60)
  }
  return { type: which === 'dtdate' ? 'date' : 'int', data: out }
}

const needDateTime = (fn: string, t: ColumnType | null): { error: string } | null =>
  t === 'text' || t === 'date' ? { error: `${fn} needs a date+time (a decimal day number), got ${t === 'text' ? 'text' : 'a date'} for X` } : null

/** Registry rows of the time-of-day and date+time functions. */
export const TIMES: readonly FunctionDef[] = [
  partDef('hour', 'hour(T): the hour (0-23) of an hhmmss time or of a date+time.'),
  partDef('minute', 'minute(T): the minute (0-59) of an hhmmss time or of a date+time.'),
  partDef('second', 'second(T): the second (0-59) of an hhmmss time or of a date+time.'),
  {
    name: 'datetime',
    args: [
      { kind: 'value', name: 'D', types: ['date', 'int'] },
      { kind: 'value', name: 'T', types: ['int'] },
    ],
    result: ([d, t]) => firstError(needDate('datetime', 'D', d)) ?? (t === 'int' || t === null ? 'float' : { error: 'datetime needs an hhmmss time for T' }),
    kernel: (args, ctx) => assemble(requiredValue(args, 0, 'datetime', 'D'), requiredValue(args, 1, 'datetime', 'T'), ctx.rows),
    doc: 'datetime(D;T): the date+time of yyyymmdd date D at hhmmss time T: a decimal, the day number of D (daynum) plus the elapsed fraction of the day.',
  },
  {
    name: 'dtdate',
    args: [{ kind: 'value', name: 'X' }],
    result: ([x]) => needDateTime('dtdate', x) ?? 'date',
    kernel: (args, ctx) => takeApart('dtdate', requiredValue(args, 0, 'dtdate', 'X'), ctx.rows),
    doc: 'dtdate(X): the yyyymmdd date of a date+time value.',
  },
  {
    name: 'dttime',
    args: [{ kind: 'value', name: 'X' }],
    result: ([x]) => needDateTime('dttime', x) ?? 'int',
    kernel: (args, ctx) => takeApart('dttime', requiredValue(args, 0, 'dttime', 'X'), ctx.rows),
    doc: 'dttime(X): the hhmmss time of day of a date+time value.',
  },
]
