/**
 * Distinct non-N/A values per group (ucnt and g_ucnt), without a set per group and without
 * hashing (group, value) pairs. The values are first made small dense numbers (text codes as
 * they are, integers of a narrow range by offset, anything else interned once by value alone),
 * then laid out group after group by a counting sort, and each group's values are counted
 * against one shared table of marks that is cleared behind it. Every pass is sequential except
 * the marks, which are one byte per distinct value: for the usual keys (a store's customers,
 * 100,000 codes) they stay in cache, where a hash of millions of pairs missed it on every row.
 */
import { keyIds } from './key-ids.js'
import { intRange } from './int-ids.js'
import { bigintWords, isNaWords } from './bigint.js'
import { NA_INT, type Column } from './types.js'

/** Values as numbers 0…count-1: `data[r] + off`, or none when `data[r] === na`. */
interface DenseValues {
  readonly data: Int32Array
  readonly na: number
  readonly off: number
  readonly count: number
}

/**
 * counts[g]: how many distinct non-N/A values of `x` the rows of group g hold.
 * @param groupIds per row: its group (0…groupCount-1), or negative for a row of no group
 */
export function distinctPerGroup(groupIds: Int32Array, groupCount: number, x: Column, rows: number): Int32Array {
  const { data, na, off, count } = denseValues(x, rows)
  // Where each group's values start among `byGroup`, then the values themselves, group by group.
  const start = new Int32Array(groupCount + 1)
  for (let r = 0; r < rows; r++) {
    const g = groupIds[r]
    if (g >= 0 && data[r] !== na) start[g + 1]++
  }
  for (let g = 0; g < groupCount; g++) start[g + 1] += start[g]
  const next = start.slice(0, groupCount)
  const byGroup = new Int32Array(start[groupCount])
  for (let r = 0; r < rows; r++) {
    const g = groupIds[r]
    const v = data[r]
    if (g >= 0 && v !== na) byGroup[next[g]++] = v + off
  }
  const counts = new Int32Array(groupCount)
  const marked = new Uint8Array(count)
  for (let g = 0; g < groupCount; g++) counts[g] = countMarked(byGroup, start[g], start[g + 1], marked)
  return counts
}

/** Distinct values among values[from … to-1], leaving `marked` all zero again. */
function countMarked(values: Int32Array, from: number, to: number, marked: Uint8Array): number {
  let distinct = 0
  for (let k = from; k < to; k++) {
    const v = values[k]
    distinct += 1 - marked[v]
    marked[v] = 1
  }
  for (let k = from; k < to; k++) marked[values[k]] = 0
  return distinct
}

/** Integers whose range is at most this many times the rows are numbered by offset (a mark table of that many bytes). */
const RANGE_PER_ROW = 4
const MIN_RANGE = 1 << 16

function denseValues(x: Column, rows: number): DenseValues {
  if (x.type === 'text') return { data: x.codes, na: 0, off: 0, count: x.dict.length }
  if (x.type === 'int' || x.type === 'date') {
    const [min, max] = intRange(x.data, rows)
    if (min > max) return { data: x.data, na: NA_INT, off: 0, count: 0 }
    const span = max - min + 1
    if (span <= Math.max(MIN_RANGE, RANGE_PER_ROW * rows)) return { data: x.data, na: NA_INT, off: -min, count: span }
  }
  // Wide integers and floats: interned by value alone (-0 with 0), N/A left out as id -1.
  const present = new Uint8Array(rows)
  if (x.type === 'float') for (let r = 0; r < rows; r++) present[r] = x.data[r] === x.data[r] ? 1 : 0
  else if (x.type === 'bigint') {
    const w = bigintWords(x.data)
    for (let r = 0; r < rows; r++) present[r] = isNaWords(w[2 * r], w[2 * r + 1]) ? 0 : 1
  } else for (let r = 0; r < rows; r++) present[r] = x.data[r] !== NA_INT ? 1 : 0
  const ids = keyIds(x, rows, present)
  return { data: ids.ids, na: -1, off: 0, count: ids.count }
}
