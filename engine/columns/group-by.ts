/**
 * Group-by: rows with equal values in every key column get one group id. Ids are numbered by
 * first appearance, N/A is a value like any other. One column is interned directly (a lookup
 * table for small ranges and for text codes, a hash table otherwise); several columns are
 * grouped by the first, columns constant within its groups are left out (they split none), and
 * the others are interned one by one, their ids combined pairwise, left to right. (One hash over
 * every key's words at once was tried for three keys and ran about twice as slow as the pairs:
 * its loops over a variable number of words do not compile to the tight loops the pairs get.)
 */
import { internInRange, intRange, lookupLimit } from './int-ids.js'
import { constantWithinGroups } from './dependent-keys.js'
import { keyIds } from './key-ids.js'
import { internIdPairs } from './pair-ids.js'
import { NA_INT, type Column, type GroupIndex } from './types.js'

/**
 * Groups `rows` rows by the values of `cols`.
 * @param mask optional 0/1 per row: rows with 0 get id -1 and create no group (a kernel given
 *   such an index must leave those rows out, as it does for S = 0)
 * @returns ids numbered 0…count-1 by first appearance; no columns = one group of every row
 */
export function groupBy(cols: readonly Column[], rows: number, mask?: Uint8Array | null): GroupIndex {
  const m = mask ?? null
  if (cols.length === 0) return oneGroup(rows, m)
  const composite = cols.length > 1 ? compositeKeys(cols, rows) : null
  if (composite !== null) {
    const { ids, count } = internInRange(composite.keys, rows, m, 0, composite.span)
    return { ids, count }
  }
  let { ids, count } = keyIds(cols[0], rows, m)
  const first: GroupIndex = { ids, count }
  // A key constant within the first key's groups splits none of them (dependent-keys.ts).
  for (const col of cols.slice(1).filter((c) => !constantWithinGroups(c, first))) {
    const next = keyIds(col, rows, m)
    const pair = internIdPairs(ids, count, next.ids, next.count, rows)
    ids = pair.ids
    count = pair.count
  }
  return { ids, count }
}

/**
 * Several int, date or text columns whose value ranges multiply to less than 2^31 become one
 * Int32 key per row (mixed radix: each column's slot, N/A at 0), interned in one go. Numbering
 * by first appearance makes the ids the same as combining column ids pairwise.
 *
 * A column whose values are sparse in their range (dates as yyyymmdd: 1,096 days over a range of
 * 30,000) has the values present numbered first, those numbers becoming its digit, while the product of the
 * ranges is too large for the composite to be interned through a lookup table: store × date then
 * spans 550,000 slots rather than 15 million, and a lookup table in cache replaces a hash table
 * that missed the cache on every row.
 */
function compositeKeys(cols: readonly Column[], rows: number): { keys: Int32Array; span: number } | null {
  if (cols.some((c) => c.type === 'float' || c.type === 'bigint')) return null
  const digits: Digit[] = cols.map((c) => {
    const data = c.type === 'text' ? c.codes : (c as Column & { data: Int32Array }).data
    const na = c.type === 'text' ? 0 : NA_INT
    const [min, max] = intRange(data, rows, na)
    return { data, na, off: 1 - min, span: max >= min ? max - min + 2 : 1, renumber: null }
  })
  const product = (): number => digits.reduce((p, d) => p * d.span, 1)
  while (product() > lookupLimit(rows)) {
    // Renumbering goes through a table as large as the column's range: only where that fits.
    const renumberable = (d: Digit): boolean => d.renumber === null && d.span > MIN_RENUMBERED_SPAN && d.span <= lookupLimit(rows)
    const widest = digits.reduce<Digit | null>((w, d) => (renumberable(d) && (w === null || d.span > w.span) ? d : w), null)
    if (widest === null) break
    renumber(widest, rows)
  }
  const span = product()
  if (span > 0x7fffffff) return null
  const keys = new Int32Array(rows)
  for (const d of digits) {
    if (d.renumber === null) addDigit(keys, d.data, d.na, d.off, d.span, rows)
    else addDigitThrough(keys, d.data, d.na, d.off, d.renumber, d.span, rows)
  }
  return { keys, span }
}

/** One key column as a digit of the composite: its slot (value + off, N/A at 0), or that renumbered. */
interface Digit {
  readonly data: Int32Array
  readonly na: number
  readonly off: number
  span: number
  /** Slot → digit, when only the values present are numbered. */
  renumber: Int32Array | null
}

/** Below this range a column is left as it is: renumbering it could not shrink the product much. */
const MIN_RENUMBERED_SPAN = 256

/** Numbers the slots of the values present (N/A's slot 0 included), in slot order. */
function renumber(d: Digit, rows: number): void {
  const present = new Int32Array(d.span)
  const { data, na, off } = d
  for (let r = 0; r < rows; r++) {
    const v = data[r]
    present[v === na ? 0 : v + off] = 1
  }
  let next = 0
  for (let s = 0; s < present.length; s++) present[s] = present[s] === 1 ? next++ : -1
  d.renumber = present
  d.span = next
}

/** keys[r] = keys[r]·span + the renumbered slot of the value. */
function addDigitThrough(keys: Int32Array, data: Int32Array, na: number, off: number, renumbered: Int32Array, span: number, rows: number): void {
  for (let r = 0; r < rows; r++) {
    const v = data[r]
    keys[r] = keys[r] * span + renumbered[v === na ? 0 : v + off]
  }
}

/** keys[r] = keys[r]·span + the value's slot (0 for N/A). */
function addDigit(keys: Int32Array, data: Int32Array, na: number, off: number, span: number, rows: number): void {
  for (let r = 0; r < rows; r++) {
    const v = data[r]
    keys[r] = keys[r] * span + (v === na ? 0 : v + off)
  }
}

function oneGroup(rows: number, mask: Uint8Array | null): GroupIndex {
  if (mask === null) {
    // Every id is 0: made only if something reads them (the summaries' one-group kernels do not).
    let ids: Int32Array | null = null
    return {
      get ids() {
        ids ??= new Int32Array(rows)
        return ids
      },
      count: rows > 0 ? 1 : 0,
    }
  }
  const ids = new Int32Array(rows)
  let any = 0
  for (let r = 0; r < rows; r++) {
    const keep = mask[r]
    ids[r] = keep === 0 ? -1 : 0
    any |= keep
  }
  return { ids, count: any !== 0 ? 1 : 0 }
}

/** The first row of each group (rows with id -1 are skipped). */
export function firstRowOfGroups(groups: GroupIndex): Int32Array {
  const first = new Int32Array(groups.count).fill(-1)
  const ids = groups.ids
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g >= 0 && first[g] < 0) first[g] = r
  }
  return first
}
