/**
 * todate(X;Y): a date (yyyymmdd) from text, a date or a yyyymmdd integer. Y holds options
 * (a text, or several as 'dmymode' 'invaliderr', or one text with spaces): the order of an
 * ambiguous date ('mdymode' by default, 'dmymode', 'ymdmode') and what an invalid value gives
 * ('invalidna', the default: N/A; 'invaliderr': the query fails naming the value). N/A in is N/A
 * out. Text reads by text-to-date.ts; a date or integer must be a real calendar date.
 */
import { AppError } from '../../shared/errors.js'
import { isYmd } from '../../shared/ymd.js'
import { intFromDictMap } from '../columns/index.js'
import { NA_INT, type Column, type Value } from '../columns/types.js'
import { callError, isColumn, isList, isScalar, onConstants, requiredValue, valueArg } from './args.js'
import { parseDateText, type DateMode } from './text-to-date.js'
import type { FunctionDef } from './types.js'
import { mapInts } from './value-table.js'
import { valueText } from './value-text.js'

interface DateOptions {
  readonly mode: DateMode
  readonly invalidIsError: boolean
}

const MODES: Readonly<Record<string, DateMode>> = { mdymode: 'mdy', dmymode: 'dmy', ymdmode: 'ymd' }

function dateOptions(y: Value | null): DateOptions {
  if (y === null) return { mode: 'mdy', invalidIsError: false }
  const texts = isList(y) ? y.values : isScalar(y) ? [y.value] : null
  if (texts === null || y.type !== 'text') throw callError("todate(): Y must be quoted options such as 'dmymode' or 'mdymode invaliderr'.")
  let mode: DateMode = 'mdy'
  let invalidIsError = false
  for (const word of (texts as readonly string[]).flatMap((t) => t.toLowerCase().split(/[\s,]+/)).filter((w) => w !== '')) {
    if (Object.hasOwn(MODES, word)) mode = MODES[word]
    else if (word === 'invalidna' || word === 'invaliderr') invalidIsError = word === 'invaliderr'
    else throw callError(`todate(): unknown option '${word}' in Y; use mdymode, dmymode or ymdmode, and invalidna or invaliderr.`)
  }
  return { mode, invalidIsError }
}

/**
 * Refuses the first row whose value is not a date, under 'invaliderr'. Checked on the rows after
 * converting, not inside the conversion: that runs once per dictionary entry or integer of a
 * range, including values no row holds any more.
 */
function refuseInvalid(x: Column, dates: Int32Array, rows: number): void {
  for (let r = 0; r < rows; r++) {
    if (dates[r] !== NA_INT) continue
    const shown = valueText(x, r)
    if (shown !== '')
      throw new AppError('CHECK_ERROR', `todate(): '${shown}' is not a date; fix the value, or leave out 'invaliderr' to get N/A for it.`, {
        function: 'todate',
      })
  }
}

function toDate(x: Value, options: DateOptions, rows: number): Column {
  if (!isColumn(x)) return onConstants([x], rows, (c, n) => toDate(c[0], options, n))
  if (x.type === 'float' || x.type === 'bigint')
    throw callError(`todate(): X must be text, a date or a yyyymmdd integer, not ${x.type === 'float' ? 'a decimal' : 'a big integer'}.`)
  const dates =
    x.type === 'text' ? intFromDictMap(x, (s) => parseDateText(s, options.mode) ?? NA_INT, NA_INT) : mapInts(x.data, rows, (v) => (isYmd(v) ? v : NA_INT))
  if (options.invalidIsError) refuseInvalid(x, dates, rows)
  return { type: 'date', data: dates }
}

/** Registry rows of the conversion functions. */
export const CONVERSIONS: readonly FunctionDef[] = [
  {
    name: 'todate',
    args: [
      { kind: 'value', name: 'X', types: ['text', 'date', 'int'] },
      { kind: 'value', name: 'Y', types: ['text'], optional: true, list: true, constant: true },
    ],
    result: ([x]) => (x === 'float' ? { error: 'todate needs text, a date or a yyyymmdd integer, got a decimal for X' } : 'date'),
    kernel: (args, ctx) => toDate(requiredValue(args, 0, 'todate', 'X'), dateOptions(valueArg(args, 1)), ctx.rows),
    doc: "todate(X;Y): the date written by text X ('31 Oct 2017', '1/2/5', '2016-02-03 04:45'), or date X checked; Y: 'mdymode' (default), 'dmymode', 'ymdmode', 'invaliderr'.",
  },
]
