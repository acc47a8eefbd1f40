/** Putting columns of one type one after another (a merge of parts, a rollup's levels). */
import type { ColumnType } from '../../shared/table.js'
import { unifyTextColumns } from './dict.js'
import { columnLength, type BigIntColumn, type Column, type TextColumn } from './types.js'

/** Columns of one type, text put on one dictionary (the union of theirs). */
export function onOneDictionary(cols: readonly Column[]): Column[] {
  return cols[0]?.type === 'text' ? unifyTextColumns(cols as TextColumn[]) : [...cols]
}

/** Columns of one type one after another, text on one dictionary. */
export function concatColumns(cols: readonly Column[], type: ColumnType): Column {
  const same = onOneDictionary(cols)
  const length = same.reduce((n, c) => n + columnLength(c), 0)
  if (type === 'bigint')
    return {
      type,
      data: joined(
        new BigInt64Array(length),
        same.map((c) => (c as BigIntColumn).data),
      ),
    }
  const arrays = same.map((c) => (c.type === 'text' ? c.codes : (c.data as Int32Array | Float64Array)))
  if (type === 'float') return { type, data: joined(new Float64Array(length), arrays as Float64Array[]) }
  const out = joined(new Int32Array(length), arrays as Int32Array[])
  if (type === 'text') return { type, codes: out, dict: (same[0] as TextColumn | undefined)?.dict ?? [''] }
  return { type, data: out }
}

function joined<T extends Int32Array | Float64Array | BigInt64Array>(out: T, arrays: readonly T[]): T {
  let at = 0
  for (const a of arrays) {
    out.set(a as never, at)
    at += a.length
  }
  return out
}
