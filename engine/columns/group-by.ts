/**
 * Group-by: rows with equal values in every key column get one group id. Ids are numbered by
 * first appearance, N/A is a value like any other. One column is interned directly (a lookup
 * table for small ranges and for text codes, a hash table otherwise); several columns are
 * interned one by one and their ids combined pairwise, left to right.
 */
import { internInt32, intRange } from './int-ids.js'
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
    const { ids, count } = internInt32(composite, rows, m)
    return { ids, count }
  }
  let { ids, count } = keyIds(cols[0], rows, m)
  for (let c = 1; c < cols.length; c++) {
    const next = keyIds(cols[c], rows, m)
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
 */
function compositeKeys(cols: readonly Column[], rows: number): Int32Array | null {
  let product = 1
  const parts: { data: Int32Array; na: number; min: number; span: number }[] = []
  for (const c of cols) {
    if (c.type === 'float') return null
    const data = c.type === 'text' ? c.codes : c.data
    const na = c.type === 'text' ? 0 : NA_INT
    const [min, max] = intRange(data, rows, na)
    const span = max >= min ? max - min + 2 : 1
    product *= span
    if (product > 0x7fffffff) return null
    parts.push({ data, na, min, span })
  }
  const keys = new Int32Array(rows)
  for (const p of parts) addDigit(keys, p.data, p.na, 1 - p.min, p.span, rows)
  return keys
}

/** keys[r] = keys[r]·span + the value's slot (0 for N/A). */
function addDigit(keys: Int32Array, data: Int32Array, na: number, off: number, span: number, rows: number): void {
  for (let r = 0; r < rows; r++) {
    const v = data[r]
    keys[r] = keys[r] * span + (v === na ? 0 : v + off)
  }
}

function oneGroup(rows: number, mask: Uint8Array | null): GroupIndex {
  const ids = new Int32Array(rows)
  if (mask === null) return { ids, count: rows > 0 ? 1 : 0 }
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
