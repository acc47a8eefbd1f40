/**
 * Day numbers for yyyymmdd dates (days since 1970-01-01), by H. Hinnant's civil-calendar
 * algorithms: pure integer arithmetic, proleptic Gregorian, valid far beyond any real data;
 * and the month arithmetic built on them. Out-of-range months or days give nonsense without an
 * error, as 1010data's date functions do.
 */

/** Days since 1970-01-01 of the date y-m-d. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/** yyyymmdd of the day `z` days after 1970-01-01. */
export function civilFromDays(z: number): number {
  const zz = z + 719468
  const era = Math.floor(zz / 146097)
  const doe = zz - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  return y * 10000 + m * 100 + d
}

/** Days since 1970-01-01 of a yyyymmdd value. */
export function ymdToDays(ymd: number): number {
  const y = Math.floor(ymd / 10000)
  const m = Math.floor(ymd / 100) - y * 100
  return daysFromCivil(y, m, ymd - Math.floor(ymd / 100) * 100)
}

/** yyyymmdd of the last day of the month of a yyyymmdd value. */
export function monthEndOf(ymd: number): number {
  const ym = Math.floor(ymd / 100)
  const y = Math.floor(ym / 100)
  const m = ym - y * 100
  return civilFromDays(daysFromCivil(y, m + 1, 1) - 1)
}

/**
 * The date `months` months after a yyyymmdd value (before, for negative `months`), with the day
 * clamped to the end of a shorter month: 1/31 plus one month is 2/28 (2/29 in a leap year).
 */
export function addMonthsTo(ymd: number, months: number): number {
  const ym = Math.floor(ymd / 100)
  const d = ymd - ym * 100
  const y = Math.floor(ym / 100)
  const index = y * 12 + (ym - y * 100 - 1) + months
  const ty = Math.floor(index / 12)
  const tm = index - ty * 12 + 1
  const last = monthEndOf(ty * 10000 + tm * 100 + 1)
  return Math.min(ty * 10000 + tm * 100 + d, last)
}

/** Day of the year of a yyyymmdd value: 1 for January 1st, up to 366. */
export function dayOfYearOf(ymd: number): number {
  const y = Math.floor(ymd / 10000)
  return ymdToDays(ymd) - daysFromCivil(y, 1, 1) + 1
}
