/**
 * Users compare date columns with quoted dates: `between(date;'1/1/2014';'12/31/2014')`,
 * `date>='2014-01-01'`. Dates are yyyymmdd integers, so a text literal that reads as a date,
 * standing beside a date-typed operand, is turned into a Date literal before type checking.
 */
import type { Expr } from '../ast.js'
import { exprError } from './errors.js'

/** Text written as a date with separators, valid or not: '2/30/2014' is a typo, not text. */
const DATE_SHAPED = /^\s*(\d{1,2}\/\d{1,2}\/\d{2,4}|\d{4}[-/]\d{1,2}[-/]\d{1,2})\s*$/

/** m/d/yy, m/d/yyyy, yyyy-mm-dd, yyyy/m/d or yyyymmdd → yyyymmdd, or null when not a valid date. */
export function parseDateText(text: string): number | null {
  const t = text.trim()
  let y: number, m: number, d: number
  let match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(t)
  if (match) {
    m = Number(match[1])
    d = Number(match[2])
    y = Number(match[3])
    if (match[3].length === 2) y += y < 50 ? 2000 : 1900
  } else if ((match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(t) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(t))) {
    y = Number(match[1])
    m = Number(match[2])
    d = Number(match[3])
  } else {
    return null
  }
  const probe = new Date(Date.UTC(y, m - 1, d))
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null
  return y * 10000 + m * 100 + d
}

/**
 * Replaces Str literals (alone or in lists) that read as dates with Date literals. One written
 * as a date that is none ('2/30/2014') is an error naming it, not a text compared with a number.
 */
export function asDateLiteral(e: Expr): Expr {
  if (e.kind === 'Str') {
    const v = parseDateText(e.value)
    if (v === null && DATE_SHAPED.test(e.value)) throw exprError(e.loc, `'${e.value}' is not a valid date (write m/d/yyyy, yyyy-mm-dd or yyyy/m/d)`)
    return v === null ? e : { kind: 'Date', value: v, loc: e.loc }
  }
  if (e.kind === 'List') {
    // All or nothing: a list half dates, half text must still meet the text-versus-number error.
    const items = e.items.map(asDateLiteral)
    return items.every((i) => i.kind !== 'Str') ? { ...e, items } : e
  }
  return e
}
