/**
 * Users compare date columns with quoted dates: `between(date;'1/1/2014';'12/31/2014')`,
 * `date>='2014-01-01'`. Dates are yyyymmdd integers, so a text literal that reads as a date,
 * standing beside a date-typed operand, is turned into a Date literal before type checking.
 */
import { dashedYmd, plainYmd, twoDigitYear, ymdOf } from '../../shared/ymd.js'
import type { Expr } from '../ast.js'
import { exprCheckError } from './errors.js'

/** Text written as a date with separators, valid or not: '2/30/2014' is a typo, not text. */
const DATE_SHAPED = /^\s*(\d{1,2}\/\d{1,2}\/\d{2,4}|\d{4}[-/]\d{1,2}[-/]\d{1,2})\s*$/

const MONTH_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/
const YEAR_FIRST = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/

/**
 * m/d/yy, m/d/yyyy, yyyy/m/d, or the upload forms yyyy-mm-dd and yyyymmdd → yyyymmdd, or null
 * when not a valid date. The forms are this file's; whether the parts are a date is shared/ymd.ts's.
 */
export function parseDateText(text: string): number | null {
  const t = text.trim()
  let match = MONTH_FIRST.exec(t)
  if (match) return ymdOf(match[3].length === 2 ? twoDigitYear(Number(match[3])) : Number(match[3]), Number(match[1]), Number(match[2]))
  match = YEAR_FIRST.exec(t)
  if (match) return ymdOf(Number(match[1]), Number(match[2]), Number(match[3]))
  return dashedYmd(t) ?? plainYmd(t)
}

/**
 * Replaces Str literals (alone or in lists) that read as dates with Date literals. One written
 * as a date that is none ('2/30/2014') is an error naming it, not a text compared with a number.
 */
export function asDateLiteral(e: Expr): Expr {
  if (e.kind === 'Str') {
    const v = parseDateText(e.value)
    if (v === null && DATE_SHAPED.test(e.value)) throw exprCheckError(e.loc, `'${e.value}' is not a valid date (write m/d/yyyy, yyyy-mm-dd or yyyy/m/d)`)
    return v === null ? e : { kind: 'Date', value: v, loc: e.loc }
  }
  if (e.kind === 'List') {
    // All or nothing: a list half dates, half text must still meet the text-versus-number error.
    const items = e.items.map(asDateLiteral)
    return items.every((i) => i.kind !== 'Str') ? { ...e, items } : e
  }
  return e
}
