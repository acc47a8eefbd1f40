/** Calendar helpers for demo data: dates as yyyymmdd integers, as the macro language stores them. */

const DAY_MS = 86_400_000

function utcMs(ymd: number): number {
  return Date.UTC(Math.floor(ymd / 10000), (Math.floor(ymd / 100) % 100) - 1, ymd % 100)
}

function ymdOf(ms: number): number {
  const d = new Date(ms)
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

/** Every calendar day from `from` to `to` (both yyyymmdd, inclusive), in order. */
export function daysBetween(from: number, to: number): Int32Array {
  const start = utcMs(from)
  const n = Math.round((utcMs(to) - start) / DAY_MS) + 1
  const days = new Int32Array(Math.max(0, n))
  for (let i = 0; i < days.length; i++) days[i] = ymdOf(start + i * DAY_MS)
  return days
}
