/** yyyymmdd dates of consecutive days, the form tabula and the suite's DuckDB tables store. */

/** The yyyymmdd integer of the day `offset` days after `start` (a yyyymmdd integer). */
export function addDays(start: number, offset: number): number {
  const d = new Date(Date.UTC(Math.floor(start / 10000), (Math.floor(start / 100) % 100) - 1, start % 100) + offset * 86_400_000)
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

/** The `days` consecutive dates from `start`, precomputed once so a 10M-row column is a lookup per row. */
export function dayTable(start: number, days: number): Int32Array {
  return Int32Array.from({ length: days }, (_, i) => addDays(start, i))
}
