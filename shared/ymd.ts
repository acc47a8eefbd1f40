/**
 * The one home of the calendar rules for dates. A date is stored as a yyyymmdd integer; uploads
 * write it as YYYY-MM-DD or yyyymmdd, and queries have literal forms of their own (the lexer, quoted
 * dates in engine/check, todate). Each caller keeps its own list of written forms, but every one
 * asks here whether the parts are a date, so a day that one path takes is never refused by another
 * (they disagreed before: quoted dates refused years 1–99 through a Date.UTC quirk).
 */

/** Years 1–9999: no year 0 in the Gregorian count, and yyyymmdd has room for four digits. */
export const MIN_YEAR = 1
export const MAX_YEAR = 9999

/** Gregorian leap years: every 4th, except centuries not divisible by 400. */
export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : DAYS[m - 1]
}

/** True if y-m-d (whole numbers) is a day of the calendar within years 1–9999. */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false
  return y >= MIN_YEAR && y <= MAX_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

/** y-m-d as yyyymmdd when it is a calendar date, else null. */
export function ymdOf(y: number, m: number, d: number): number | null {
  return isCalendarDate(y, m, d) ? y * 10000 + m * 100 + d : null
}

/** The year, month and day digits of a yyyymmdd integer, checked or not. */
export function ymdParts(v: number): { year: number; month: number; day: number } {
  return { year: Math.floor(v / 10000), month: Math.floor(v / 100) % 100, day: v % 100 }
}

/** True if `v` is a valid calendar date written as yyyymmdd (years 1–9999). */
export function isYmd(v: number): boolean {
  // No ymdParts object here: CSV uploads check every date cell.
  return Number.isInteger(v) && isCalendarDate(Math.floor(v / 10000), Math.floor(v / 100) % 100, v % 100)
}

/** A year written with two digits: 00–49 are 2000–2049 and 50–99 are 1950–1999 (our pivot). */
export function twoDigitYear(yy: number): number {
  return yy < 50 ? 2000 + yy : 1900 + yy
}

/**
 * The yyyymmdd of an already trimmed YYYY-MM-DD text (exactly that: two-digit month and day), or
 * null. Character codes rather than a regex: CSV uploads ask this of many cells.
 */
export function dashedYmd(t: string): number | null {
  if (t.length !== 10 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45) return null
  let ymd = 0
  for (let k = 0; k < 10; k++) {
    if (k === 4 || k === 7) continue
    const d = t.charCodeAt(k) - 48
    if (d < 0 || d > 9) return null
    ymd = ymd * 10 + d
  }
  return isYmd(ymd) ? ymd : null
}

/** The yyyymmdd of an already trimmed text of exactly eight digits that is a date, or null. */
export function plainYmd(t: string): number | null {
  if (t.length !== 8 || !/^\d{8}$/.test(t)) return null
  const v = Number(t)
  return isYmd(v) ? v : null
}

const DAY_MS = 86_400_000

/**
 * Days since 1970-01-01 of a yyyymmdd date (how Arrow and Parquet store dates), or null when the
 * integer is no calendar date.
 */
export function ymdToDays(ymd: number): number | null {
  if (!isYmd(ymd)) return null
  const p = ymdParts(ymd)
  const date = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(p.year, p.month - 1, p.day)
  return Math.round(date.getTime() / DAY_MS)
}

/** The yyyymmdd of a day count since 1970-01-01, or null outside years 1–9999. */
export function daysToYmd(days: number): number | null {
  if (!Number.isFinite(days)) return null
  const date = new Date(Math.floor(days) * DAY_MS)
  const y = date.getUTCFullYear()
  if (!(y >= MIN_YEAR && y <= MAX_YEAR)) return null
  return y * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate()
}
