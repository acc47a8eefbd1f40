/**
 * Turning the parts of date and time literals into the engine's integer forms (yyyymmdd, hhmmss),
 * with the range checks 1010data's own functions skip: a typo such as 2/30/14 in a query is far
 * more likely than an intended impossible date, so it is an error rather than silent nonsense.
 * The calendar itself (years, month lengths, the two-digit pivot) is shared/ymd.ts's; this file
 * only says, part by part, why a literal is not a date.
 */

import { daysInMonth, MAX_YEAR, MIN_YEAR, twoDigitYear } from '../../shared/ymd.js'

/**
 * The yyyymmdd value of a date literal's parts, or the reason it is invalid.
 * @param yearText the year as written: two digits (pivoted) or four
 */
export function dateValue(month: number, day: number, yearText: string): number | { readonly error: string } {
  const year = yearText.length === 2 ? twoDigitYear(Number(yearText)) : Number(yearText)
  // Four digits cannot pass MAX_YEAR; the check keeps this in step with the shared range.
  if (year < MIN_YEAR || year > MAX_YEAR) return { error: year === 0 ? 'year 0000 does not exist' : `year ${year} is not between ${MIN_YEAR} and ${MAX_YEAR}` }
  if (month < 1 || month > 12) return { error: `month ${month} is not between 1 and 12` }
  const last = daysInMonth(year, month)
  if (day < 1 || day > last) return { error: `day ${day} is not between 1 and ${last} for month ${month} of ${year}` }
  return year * 10000 + month * 100 + day
}

/** The hhmmss value of a time literal's parts, or the reason it is invalid (24-hour clock). */
export function timeValue(hours: number, minutes: number, seconds: number): number | { readonly error: string } {
  if (hours > 23) return { error: `hour ${hours} is not between 0 and 23` }
  if (minutes > 59) return { error: `minute ${minutes} is not between 0 and 59` }
  if (seconds > 59) return { error: `second ${seconds} is not between 0 and 59` }
  return hours * 10000 + minutes * 100 + seconds
}
