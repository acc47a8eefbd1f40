/**
 * Size limits of what a save or an upload may store (MAX_CELL_BYTES, MAX_ROW_BYTES). A table of
 * a hundred 10-million-character cells is a gigabyte to encode, write and turn into a SQLite
 * image, and every later reader pays for it again; such input is refused up front with 413 and
 * the cell or row named, before anything is written.
 */
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import type { ColumnValues } from './types.js'
import { isChunkText, type ChunkText } from '../../shared/csv/chunk-text.js'
import { bytesPerValue } from '../../shared/table.js'

export interface CellLimits {
  /** MAX_CELL_BYTES: UTF-8 bytes of one text value. */
  readonly maxCellBytes: number
  /** MAX_ROW_BYTES: the bytes of one row (text in UTF-8, numbers at 4 or 8 bytes). */
  readonly maxRowBytes: number
}

/** UTF-8 length of a string. A string of L UTF-16 units takes L to 3L bytes; only scan between. */
function utf8Bytes(s: string, limit: number): number {
  if (s.length * 3 <= limit) return s.length // surely fits: the exact size is not needed for the cell check
  return Buffer.byteLength(s, 'utf8')
}

/** A text column's values one row at a time, whether strings or distinct values and codes. */
function textAt(values: readonly string[] | ChunkText): (r: number) => string {
  if (!isChunkText(values)) return (r) => values[r]
  const { values: distinct, codes } = values
  return (r) => (codes[r] === 0 ? '' : distinct[codes[r] - 1])
}

/** Throws CELL_TOO_LARGE or ROW_TOO_LARGE naming the first value or row over its limit. */
export function checkCellLimits(columns: readonly ColumnSpec[], data: readonly (ColumnValues | ChunkText)[], limits: CellLimits): void {
  const first = data[0]
  const rows = first === undefined ? 0 : isChunkText(first) ? first.codes.length : first.length
  let fixedBytes = 0
  const text: number[] = []
  const cells: ((r: number) => string)[] = []
  columns.forEach((c, i) => {
    if (c.type === 'text') text.push(i)
    else fixedBytes += bytesPerValue(c.type)
    cells.push(c.type === 'text' ? textAt(data[i] as readonly string[] | ChunkText) : () => '')
  })
  if (text.length === 0) return
  for (let r = 0; r < rows; r++) {
    let rowBytes = fixedBytes
    let rowLower = fixedBytes
    for (const i of text) {
      const s = cells[i](r)
      const bytes = utf8Bytes(s, limits.maxCellBytes)
      if (bytes > limits.maxCellBytes) {
        throw new AppError(
          'CELL_TOO_LARGE',
          `Column "${columns[i].name}" row ${r + 1} holds ${bytes} bytes of text, more than the ${limits.maxCellBytes} bytes a cell may hold (MAX_CELL_BYTES); shorten or split the value.`,
          { column: columns[i].name, row: r + 1, bytes, limit: limits.maxCellBytes },
        )
      }
      rowLower += s.length
      rowBytes += bytes
    }
    // utf8Bytes may have counted UTF-16 units (a lower bound); measure exactly only when it matters.
    if (rowBytes > limits.maxRowBytes || rowLower * 3 > limits.maxRowBytes) {
      let exact = fixedBytes
      for (const i of text) exact += Buffer.byteLength(cells[i](r), 'utf8')
      if (exact > limits.maxRowBytes) {
        throw new AppError(
          'ROW_TOO_LARGE',
          `Row ${r + 1} holds ${exact} bytes, more than the ${limits.maxRowBytes} bytes a row may hold (MAX_ROW_BYTES); save fewer or shorter text columns.`,
          { row: r + 1, bytes: exact, limit: limits.maxRowBytes },
        )
      }
    }
  }
}
