/** Putting columns of one type one after another (a merge of parts, a rollup's levels). */
import { isFloat64Type, type ColumnType } from '../../shared/table.js'
import { unifyTextColumns } from './dict.js'
import type { Column, TextColumn } from './types.js'

/** Columns of one type, text put on one dictionary (the union of theirs). */
export function onOneDictionary(cols: readonly Column[]): Column[] {
  return cols[0]?.type === 'text' ? unifyTextColumns(cols as TextColumn[]) : [...cols]
}

/** Columns of one type one after another, text on one dictionary. */
export function concatColumns(cols: readonly Column[], type: ColumnType): Column {
  const same = onOneDictionary(cols)
  const arrays = same.map((c) => (c.type === 'text' ? c.codes : c.data))
  const out = isFloat64Type(type) ? new Float64Array(arrays.reduce((n, a) => n + a.length, 0)) : new Int32Array(arrays.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of arrays) {
    out.set(a, at)
    at += a.length
  }
  if (type === 'text') return { type, codes: out as Int32Array, dict: (same[0] as TextColumn | undefined)?.dict ?? [''] }
  return isFloat64Type(type) ? { type, data: out as Float64Array } : { type, data: out as Int32Array }
}
