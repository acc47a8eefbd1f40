/**
 * The lookup behind `<link type="asof">`: each probe row is matched to the foreign row whose last
 * key is the greatest one not above the probe's, among the foreign rows whose other keys equal the
 * probe's (N/A matching N/A there, as in every link). Of several foreign rows with that same last
 * key, the first in the foreign worksheet's order is taken, as a plain link takes the first match.
 * An N/A last key matches nothing, on either side. The last keys are numbers (ints, dates or
 * floats), compared by value.
 */
import { firstIndexLookup } from './lookup.js'
import { groupBy } from './group-by.js'
import { sortPermutation } from './sort.js'
import { exactFloats } from './bigint.js'
import { NA_INT, type Column } from './types.js'

/** A number column as doubles, N/A as NaN. */
function doubles(c: Column): Float64Array {
  if (c.type === 'text') throw new Error('asofLookup: the last key must be a number')
  if (c.type === 'float') return c.data
  if (c.type === 'bigint') return exactFloats(c.data, 'An as-of link on a big integer key')
  return Float64Array.from(c.data, (v) => (v === NA_INT ? Number.NaN : v))
}

/**
 * @param keyCols the foreign worksheet's key columns, the as-of key last
 * @param probeCols the matching columns of the worksheet looking up, pairwise with keyCols
 * @returns per probe row, the matched foreign row, or -1
 */
export function asofLookup(keyCols: readonly Column[], rows: number, probeCols: readonly Column[], probeRows: number): Int32Array {
  const last = keyCols.length - 1
  if (last < 0 || probeCols.length !== keyCols.length) throw new Error('asofLookup: key and probe column counts differ, or there are none')
  // The groups of the other keys: the foreign rows' ids, and each probe row's (through the first
  // foreign row with its keys), -1 when no foreign row has them.
  const exact = keyCols.slice(0, last)
  const grouped = exact.length === 0 ? { ids: new Int32Array(rows), count: 1 } : groupBy(exact, rows)
  const foreignGroup = grouped.ids
  const probeGroup = new Int32Array(probeRows)
  if (exact.length > 0) {
    const { match } = firstIndexLookup(exact, rows, probeCols.slice(0, last), probeRows)
    for (let i = 0; i < probeRows; i++) probeGroup[i] = match[i] < 0 ? -1 : foreignGroup[match[i]]
  }
  const values = doubles(keyCols[last])
  // The foreign rows with a last key, by group, then last key, then row (the sort is stable).
  const order = sortPermutation(
    [
      { col: { type: 'int', data: foreignGroup }, desc: false },
      { col: { type: 'float', data: values }, desc: false },
    ],
    rows,
  )
  let n = 0
  for (let k = 0; k < rows; k++) if (values[order[k]] === values[order[k]]) order[n++] = order[k]
  const sorted = new Float64Array(n)
  const groupAt = new Int32Array(n)
  // For each position, the position of the first row with its group and value: the row to take.
  const firstOfValue = new Int32Array(n)
  for (let k = 0; k < n; k++) {
    const r = order[k]
    sorted[k] = values[r]
    groupAt[k] = foreignGroup[r]
    firstOfValue[k] = k > 0 && groupAt[k - 1] === groupAt[k] && sorted[k - 1] === sorted[k] ? firstOfValue[k - 1] : k
  }
  // Where each group's positions start (groups without a valid last key have an empty range).
  const groups = grouped.count
  const start = new Int32Array(groups + 1)
  for (let k = 0; k < n; k++) start[groupAt[k] + 1]++
  for (let g = 0; g < groups; g++) start[g + 1] += start[g]

  const probes = doubles(probeCols[last])
  const out = new Int32Array(probeRows)
  for (let i = 0; i < probeRows; i++) {
    const g = probeGroup[i]
    const x = probes[i]
    out[i] = -1
    if (g < 0 || x !== x) continue
    // The first position in the group whose value is above x; the one before it, if in the group, is the match.
    let lo = start[g]
    let hi = start[g + 1]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid] <= x) lo = mid + 1
      else hi = mid
    }
    if (lo > start[g]) out[i] = order[firstOfValue[lo - 1]]
  }
  return out
}
