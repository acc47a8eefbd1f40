/** yyyymmdd integers, the form dates are stored in, and the check both uploads and storage make. */

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** True if `v` is a valid calendar date written as yyyymmdd (years 1–9999). */
export function isYmd(v: number): boolean {
  if (!Number.isInteger(v) || v < 10101 || v > 99991231) return false
  const y = Math.floor(v / 10000)
  const m = Math.floor(v / 100) % 100
  const d = v % 100
  if (m < 1 || m > 12 || d < 1) return false
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return d <= DAYS[m - 1] + (leap ? 1 : 0)
}

const DAY_MS = 86_400_000

/**
 * Days since 1970-01-01 of a yyyymmdd date (how Arrow and Parquet store dates), or null when the
 * integer is no calendar date.
 */
export function ymdToDays(ymd: number): number | null {
  if (!isYmd(ymd)) return null
  const y = Math.floor(ymd / 10000)
  const date = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(y, (Math.floor(ymd / 100) % 100) - 1, ymd % 100)
  return Math.round(date.getTime() / DAY_MS)
}

/** The yyyymmdd of a day count since 1970-01-01, or null outside years 1–9999. */
export function daysToYmd(days: number): number | null {
  if (!Number.isFinite(days)) return null
  const date = new Date(Math.floor(days) * DAY_MS)
  const y = date.getUTCFullYear()
  if (!(y >= 1 && y <= 9999)) return null
  return y * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate()
}
