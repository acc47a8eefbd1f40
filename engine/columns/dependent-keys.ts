/**
 * Keys that add nothing to a grouping: a column whose value is the same on every row of each
 * group found so far (ClickBench's `GROUP BY ClientIP, ClientIP - 1, …`, or a second key beside
 * an id that is unique per row) splits no group, so the groups and their ids (first appearance)
 * stay as they are and the column need not be interned at all. Checking costs one pass over the
 * rows that stops at the first row that differs from its group's first row; interning the column
 * and then its pairs with the ids so far costs two hash passes.
 */
import type { Column, GroupIndex } from './types.js'

/**
 * True when `col` holds one value per group of `groups` (rows with id -1 ignored), equal values as
 * group-by sees them: N/A equal to N/A, for decimals -0 equal to 0 and every NaN one value.
 */
export function constantWithinGroups(col: Column, groups: GroupIndex): boolean {
  const { ids, count } = groups
  const first = new Int32Array(count).fill(-1)
  if (col.type === 'bigint') return sameWords(new Int32Array(col.data.buffer, col.data.byteOffset, col.data.length * 2), ids, first)
  if (col.type === 'float') return sameFloats(col.data, ids, first)
  return sameInts(col.type === 'text' ? col.codes : col.data, ids, first)
}

function sameInts(data: Int32Array, ids: Int32Array, first: Int32Array): boolean {
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g < 0) continue
    const f = first[g]
    if (f < 0) first[g] = r
    else if (data[r] !== data[f]) return false
  }
  return true
}

/** Big integers by their two words (N/A, −2^63, is a word pair like any other). */
function sameWords(words: Int32Array, ids: Int32Array, first: Int32Array): boolean {
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g < 0) continue
    const f = first[g]
    if (f < 0) first[g] = r
    else if (words[2 * r] !== words[2 * f] || words[2 * r + 1] !== words[2 * f + 1]) return false
  }
  return true
}

/** `===` already takes -0 for 0; NaN, unequal to itself, is matched by hand. */
function sameFloats(data: Float64Array, ids: Int32Array, first: Int32Array): boolean {
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g < 0) continue
    const f = first[g]
    if (f < 0) {
      first[g] = r
      continue
    }
    const v = data[r]
    const w = data[f]
    if (v !== w && (v === v || w === w)) return false
  }
  return true
}
