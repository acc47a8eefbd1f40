/**
 * The hash lookup behind `<link>`: for each probe row, the FIRST key-side row whose key values
 * are all equal (N/A matching N/A, as `=` does). The key side is interned column by column;
 * because ids are numbered by first appearance, the row that created an id is the first row
 * with that key.
 */
import { keyIds } from './key-ids.js'
import { exactFloats } from './bigint.js'
import { toBigint, toFloat } from './make.js'
import { internIdPairs } from './pair-ids.js'
import type { Column, FloatColumn } from './types.js'

/**
 * @param keyCols the key columns of the side looked up (the foreign worksheet)
 * @param probeCols the matching columns of the side looking up, pairwise with keyCols
 * @returns `match`: per probe row, the first matching key row, or -1; `distinct`: how many
 *   different keys the key side has (N/A counted as a key), which tells a unique key (distinct
 *   equal to rows) for free
 */
export function firstIndexLookup(
  keyCols: readonly Column[],
  rows: number,
  probeCols: readonly Column[],
  probeRows: number,
): { match: Int32Array; distinct: number } {
  if (keyCols.length !== probeCols.length) throw new Error('firstIndexLookup: key and probe column counts differ')
  if (keyCols.length === 0) return { match: new Int32Array(probeRows).fill(rows > 0 ? 0 : -1), distinct: Math.min(rows, 1) }
  let ids: Int32Array = new Int32Array(0)
  let count = 0
  let found: Int32Array = new Int32Array(0)
  for (let c = 0; c < keyCols.length; c++) {
    const [key, probe] = alignTypes(keyCols[c], probeCols[c])
    const k = keyIds(key, rows, null, probeRows)
    const f = k.find(probe, probeRows)
    if (c === 0) {
      ids = k.ids
      count = k.count
      found = f
    } else {
      const pair = internIdPairs(ids, count, k.ids, k.count, rows)
      found = pair.find(found, f, probeRows)
      ids = pair.ids
      count = pair.count
    }
  }
  const firstRow = new Int32Array(count)
  let next = 0
  // Ids are handed out in row order, so id `next` first appears at the row where it is new.
  for (let r = 0; r < rows && next < count; r++) if (ids[r] === next) firstRow[next++] = r
  // Unique keys (a dimension table's, the usual case) make every id its own row: nothing to map.
  if (count === rows) return { match: found, distinct: count }
  // `found` is this function's own: mapped in place rather than into another probe-sized array.
  for (let i = 0; i < probeRows; i++) {
    const id = found[i]
    found[i] = id < 0 ? -1 : firstRow[id]
  }
  return { match: found, distinct: count }
}

/**
 * Int (or date) against float compares as floats, against a big integer as big integers; a big
 * integer against a float as floats (refused past ±2^53, where that would not be exact);
 * everything else as it is.
 */
function alignTypes(key: Column, probe: Column): [Column, Column] {
  const kt = key.type
  const pt = probe.type
  if ((kt === 'text') !== (pt === 'text') && (kt === 'float' || pt === 'float' || kt === 'bigint' || pt === 'bigint')) {
    throw new Error('firstIndexLookup: cannot match text keys with number keys')
  }
  if (kt === 'text' || pt === 'text') return [key, probe]
  if (kt === 'float' || pt === 'float') return [asFloats(key), asFloats(probe)]
  if (kt === 'bigint' || pt === 'bigint') return [toBigint(key), toBigint(probe)]
  return [key, probe]
}

function asFloats(c: Exclude<Column, { type: 'text' }>): FloatColumn {
  return c.type === 'bigint' ? { type: 'float', data: exactFloats(c.data, 'A link matching big integers with decimals') } : toFloat(c)
}
