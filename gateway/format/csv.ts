/**
 * CSV (RFC 4180): a header line of column names, then one line per row, every line ending CRLF.
 * A field is quoted when it holds a comma, a double quote, CR or LF, with each double quote
 * inside doubled. Values are the raw values JSON gives (numbers as JavaScript writes them, so a
 * float reads back as the same double), dates as YYYY-MM-DD (export/columns.ts says which
 * columns are dates), and N/A as an empty field.
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { NA_BIGINT, NA_INT } from '../../shared/table.js'
import { perCode } from '../../shared/result-text.js'
import { CHUNK_CHARS, chunkDone } from './chunks.js'
import { exportKind, ymdToIso } from './export/columns.js'
import { cellOf, longCellChunks, type Cell, type LongCell } from './long-cells.js'
import type { RowRange } from './types.js'

const NEEDS_QUOTES = /[",\r\n]/

const doubleQuotes = (text: string): string => text.replace(/"/g, '""')

/** One field, quoted when RFC 4180 requires it. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${doubleQuotes(text)}"` : text
}

/** A long field: whether it needs quotes is decided by indexOf, which scans 64 MB in a few ms. */
function longField(text: string): LongCell {
  const quoted = ['"', ',', '\r', '\n'].some((c) => text.includes(c))
  return quoted ? { text, open: '"', close: '"', encode: doubleQuotes } : { text, open: '', close: '', encode: (slice) => slice }
}

const csvCell = cellOf(csvField, longField)

/** The header line: the column names. */
export function csvHeader(cols: readonly ColumnMeta[]): string {
  return cols.map((c) => csvField(c.name)).join(',') + '\r\n'
}

/** A reader of one column's CSV fields (short ones already quoted). */
function csvCellReader(meta: ColumnMeta, column: ResultColumn): (row: number) => Cell {
  switch (column.kind) {
    case 'int': {
      const data = column.data
      if (exportKind(meta, column) === 'date') return (row) => (data[row] === NA_INT ? '' : ymdToIso(data[row]))
      return (row) => (data[row] === NA_INT ? '' : String(data[row]))
    }
    case 'float': {
      const data = column.data
      return (row) => (Number.isFinite(data[row]) ? String(data[row]) : '')
    }
    case 'bigint': {
      const data = column.data
      return (row) => (data[row] === NA_BIGINT ? '' : data[row].toString())
    }
    case 'text': {
      const data = column.data
      return (row) => csvCell(data[row])
    }
    case 'coded': {
      // Each distinct string is quoted once, however many rows hold it.
      const codes = column.codes
      const field = perCode(column.dict, csvCell)
      return (row) => field(codes[row])
    }
  }
}

/** Rows [from, to) as CSV lines, in chunks (chunks.ts); no header. */
export function* csvRows(result: ResultSet, range: RowRange): Generator<string> {
  const readers = result.columns.map((column, c) => csvCellReader(result.cols[c], column))
  let out = ''
  for (let r = range.from; r < range.to; r++) {
    for (let c = 0; c < readers.length; c++) {
      const cell = readers[c](r)
      if (c > 0) out += ','
      if (typeof cell === 'string') out += cell
      else {
        yield out
        yield* longCellChunks(cell)
        out = cell.close
      }
      if (out.length >= CHUNK_CHARS) {
        yield out
        out = ''
      }
    }
    out += '\r\n'
    if (chunkDone(r - range.from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/** The header and rows [from, to). */
export function* csvTable(result: ResultSet, range: RowRange): Generator<string> {
  yield csvHeader(result.cols)
  yield* csvRows(result, range)
}
