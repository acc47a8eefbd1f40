/**
 * Distinct non-N/A values per group (ucnt and g_ucnt). The (group, value) pairs are interned in
 * one pass like any two-column key (group-by.ts: one composite Int32 key when the ranges allow,
 * else hashed id pairs), and ids are numbered by first appearance, so a row brings a new pair
 * exactly when its id equals the number of pairs seen so far: each such row counts once for its
 * group. No set per group, no string keys.
 */
import { groupBy } from './group-by.js'
import { NA_INT, type Column } from './types.js'

/**
 * counts[g]: how many distinct non-N/A values of `x` the rows of group g hold.
 * @param groupIds per row: its group (0…groupCount-1), or negative for a row of no group
 */
export function distinctPerGroup(groupIds: Int32Array, groupCount: number, x: Column, rows: number): Int32Array {
  const takesPart = new Uint8Array(rows)
  if (x.type === 'float') {
    const d = x.data
    for (let r = 0; r < rows; r++) takesPart[r] = +(groupIds[r] >= 0) & +(d[r] === d[r])
  } else {
    const d = x.type === 'text' ? x.codes : x.data
    const na = x.type === 'text' ? 0 : NA_INT
    for (let r = 0; r < rows; r++) takesPart[r] = +(groupIds[r] >= 0) & +(d[r] !== na)
  }
  const pairs = groupBy([{ type: 'int', data: groupIds }, x], rows, takesPart).ids
  const counts = new Int32Array(groupCount)
  let seen = 0
  for (let r = 0; r < rows; r++) {
    if (pairs[r] === seen) {
      counts[groupIds[r]]++
      seen++
    }
  }
  return counts
}
