/**
 * A function of one integer column computed once per value instead of once per row, when the
 * column's values lie in a range much smaller than its length: dates above all, whose calendar
 * arithmetic (weekday, day numbers, dateadd) costs tens of operations a row, while 10M orders
 * placed over three years hold values from a range of 30,000. The function is evaluated for every
 * integer of the range (valid date or not: the table must give what the row-by-row loop would)
 * and each row reads its value from the table.
 */
import { intRange } from '../columns/int-ids.js'
import { NA_INT } from '../columns/types.js'

/** A table pays off when it has at most this share of the rows' count of entries. */
const ROWS_PER_ENTRY = 4
/** And never more entries than this (4 MB of Int32). */
const MAX_ENTRIES = 1 << 20

/**
 * `f` of every row of `d` (N/A stays N/A; `f` never sees it), through a table of the values'
 * range when that is small enough, else row by row. `f` must give an Int32 for every integer.
 */
export function mapInts(d: Int32Array, n: number, f: (v: number) => number): Int32Array {
  const out = new Int32Array(n)
  const [min, max] = intRange(d, n)
  const span = max - min + 1
  if (max >= min && span <= MAX_ENTRIES && span * ROWS_PER_ENTRY <= n) {
    const table = new Int32Array(span)
    for (let k = 0; k < span; k++) table[k] = f(min + k)
    for (let i = 0; i < n; i++) {
      const v = d[i]
      out[i] = v === NA_INT ? NA_INT : table[v - min]
    }
    return out
  }
  for (let i = 0; i < n; i++) {
    const v = d[i]
    out[i] = v === NA_INT ? NA_INT : f(v)
  }
  return out
}
