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
