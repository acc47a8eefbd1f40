/**
 * `<table>` content: column types are inferred from the cells. A column whose non-empty cells
 * are all integers is int (bigint when some are past 32 bits, up to 2^63 − 1), all numbers float,
 * anything else text; an empty cell is N/A.
 */
import type { ColumnType } from '../../shared/table.js'
import { textColumnFromStrings } from '../columns/index.js'
import { bigintOfText } from '../../shared/bigint-text.js'
import { NA_BIGINT, NA_INT, type Column } from '../columns/types.js'

const INT = /^[+-]?\d+$/
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)$/

export function inlineColumnType(cells: readonly string[]): ColumnType {
  let type: ColumnType = 'int'
  for (const raw of cells) {
    const c = raw.trim()
    if (c === '') continue
    if (INT.test(c) && Math.abs(Number(c)) <= 2147483647) continue
    if (bigintOfText(c) !== null) type = type === 'float' ? 'float' : 'bigint'
    else if (NUM.test(c)) type = 'float'
    else return 'text'
  }
  return type
}

/** @param declared the column's type when the table declares it (cells already checked against it) */
export function inlineColumn(cells: readonly string[], declared?: ColumnType): Column {
  const type = declared ?? inlineColumnType(cells)
  if (type === 'text') return textColumnFromStrings(cells.map((c) => c.trim()))
  if (type === 'int') return { type: 'int', data: Int32Array.from(cells, (c) => (c.trim() === '' ? NA_INT : Number(c))) }
  if (type === 'bigint') return { type, data: BigInt64Array.from(cells, (c) => (c.trim() === '' ? NA_BIGINT : BigInt(c.trim()))) }
  return { type: 'float', data: Float64Array.from(cells, (c) => (c.trim() === '' ? Number.NaN : Number(c))) }
}
