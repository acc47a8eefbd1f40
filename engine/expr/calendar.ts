/**
 * Turning the parts of date and time literals into the engine's integer forms (yyyymmdd, hhmmss),
 * with the range checks 1010data's own functions skip: a typo such as 2/30/14 in a query is far
 * more likely than an intended impossible date, so it is an error rather than silent nonsense.
 */

/** Two-digit years 00–49 are 2000–2049 and 50–99 are 1950–1999 (the reference leaves the pivot open). */
export const PIVOT_YEAR = 50

/** Gregorian leap years: every 4th, except centuries not divisible by 400. */
export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31
}

/**
 * The yyyymmdd value of a date literal's parts, or the reason it is invalid.
 * @param yearText the year as written: two digits (pivoted) or four
 */
export function dateValue(month: number, day: number, yearText: string): number | { readonly error: string } {
  let year = Number(yearText)
  if (yearText.length === 2) year += year < PIVOT_YEAR ? 2000 : 1900
  if (year === 0) return { error: 'year 0000 does not exist' }
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
