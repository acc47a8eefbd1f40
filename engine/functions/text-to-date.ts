/**
 * Reading a date out of text, for todate(X;Y). 1010data documents the forms by example ("31 Oct
 * 2017", "February 3, 2016 04:45:01", "1/2/5") and says that a four-digit number is a year, a
 * month name is a month, a time of day after the date is dropped, and the mode (month/day/year by
 * default) settles the order of the other numbers. Our rules, in that spirit:
 * - eight digits alone are yyyymmdd;
 * - otherwise the date is three fields separated by '/', '-', '.', ',' or spaces, optionally
 *   followed by a time (h:mm, h:mm:ss, with am/pm); a month name (or its first three letters)
 *   is the month, a field of three or more digits is the year, and the remaining numbers are read
 *   in the mode's order (month then day after a year written first, as in 2003-02-01);
 * - a one- or two-digit year is in 2000–2049 below 50 and in 1950–1999 from 50 (our choice: the
 *   docs read "1/2/3" as 2003);
 * - the result must be a real calendar date (no 2/30; shared/ymd.ts says which), else there is none.
 * Nothing here guesses past the mode: "15/3/12" in month/day/year mode has month 15, so it is not
 * a date.
 */

import { plainYmd, twoDigitYear, ymdOf } from '../../shared/ymd.js'

/** The order in which the numeric fields of an ambiguous date are read. */
export type DateMode = 'mdy' | 'dmy' | 'ymd'

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
const TIME = /\s+\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[ap]\.?m\.?)?$/i

function monthOf(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '')
  const full = FULL_MONTHS.indexOf(w)
  if (full >= 0) return full + 1
  return w.length === 3 || w === 'sept' ? MONTHS.indexOf(w.slice(0, 3)) + 1 : 0
}

/** A year field: three or more digits as written, one or two through the shared pivot. */
const fullYear = (field: string): number => (field.length > 2 ? Number(field) : twoDigitYear(Number(field)))

/** The date a text writes, as yyyymmdd, or null when it writes none. */
export function parseDateText(text: string, mode: DateMode): number | null {
  const s = text.trim().replace(TIME, '')
  if (/^\d{8}$/.test(s)) return plainYmd(s)
  const fields = s.split(/[\s/.,-]+/).filter((f) => f !== '')
  if (fields.length !== 3) return null
  let month = 0
  let year: number | null = null
  const numbers: string[] = []
  for (const f of fields) {
    if (/^\d+$/.test(f)) {
      if (f.length >= 3 && year === null) year = Number(f)
      else numbers.push(f)
    } else {
      const m = monthOf(f)
      if (m === 0 || month !== 0) return null
      month = m
    }
  }
  // Read what is still unknown in the mode's order, less the parts already fixed; a year written
  // first (2003-02-01, 2003/2/1) is followed by month and day in every mode.
  const yearFirst = /^\d{3,}$/.test(fields[0])
  const order = [...(yearFirst ? 'ymd' : mode)].filter((part) => !(part === 'm' && month !== 0) && !(part === 'y' && year !== null))
  if (order.length !== numbers.length) return null
  let day = 0
  order.forEach((part, i) => {
    if (part === 'y') year = fullYear(numbers[i])
    else if (part === 'm') month = Number(numbers[i])
    else day = Number(numbers[i])
  })
  return year === null ? null : ymdOf(year, month, day)
}
