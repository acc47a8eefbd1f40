/**
 * The plain aligned text table: a header of column names, a line of dashes, one line per row.
 * Columns are as wide as their widest cell (header included) and two spaces apart; numbers are
 * right-aligned, text left-aligned, and lines carry no trailing spaces.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { CHUNK_ROWS, chunkDone } from './chunks.js'
import type { RowRange } from './types.js'
import { displayCellReader, isNumeric } from './values.js'

const GAP = '  '

/** A newline or tab inside a cell would break the table's lines; show it as a space. */
function oneLine(text: string): string {
  return /[\u0000-\u001f\u007f]/.test(text) ? text.replace(/[\u0000-\u001f\u007f]/g, ' ') : text
}

/** Width in code points, so an emoji (a surrogate pair) counts once. East Asian wide is ignored. */
function width(text: string): number {
  if (!/[\ud800-\udfff]/.test(text)) return text.length
  let n = 0
  for (const _ of text) n++
  return n
}

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)))
  return right ? fill + text : text + fill
}

/**
 * Join padded cells and drop the padding (or spaces) at the end of the line. A loop, not
 * / +$/: that regex retries at every space of a long inner run and goes quadratic on wide columns.
 */
function line(cells: readonly string[]): string {
  const joined = cells.join(GAP)
  let end = joined.length
  while (end > 0 && joined.charCodeAt(end - 1) === 32) end--
  return joined.slice(0, end) + '\n'
}

/** What a text table needs before its first line: the header cells and each column's width. */
export interface TextLayout {
  readonly names: readonly string[]
  readonly right: readonly boolean[]
  readonly widths: number[]
}

/** A layout as wide as the headers; measureRows widens it to fit the cells. */
export function textLayout(result: Pick<ResultSet, 'cols' | 'columns'>): TextLayout {
  const names = result.cols.map((m) => oneLine(m.name))
  return { names, right: result.columns.map(isNumeric), widths: names.map(width) }
}

/**
 * Widen the layout to fit rows [from, to). Yields an empty chunk every CHUNK_ROWS rows so a
 * streamed rendering can pause during this pass, which writes nothing.
 */
export function* measureRows(result: ResultSet, range: RowRange, layout: TextLayout): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map((column, c) => displayCellReader(result.cols[c], column))
  const { widths } = layout
  for (let r = from; r < to; r++) {
    for (let c = 0; c < readers.length; c++) {
      const w = width(oneLine(readers[c](r)))
      if (w > widths[c]) widths[c] = w
    }
    if ((r - from + 1) % CHUNK_ROWS === 0) yield ''
  }
}

/** The header line and the line of dashes under it. */
export function textHeader(layout: TextLayout): string {
  const { names, widths, right } = layout
  return line(names.map((name, c) => pad(name, widths[c], right[c]))) + line(widths.map((w) => '-'.repeat(w)))
}

/** The lines of rows [from, to), padded to the layout. */
export function* textRows(result: ResultSet, range: RowRange, layout: TextLayout): Generator<string> {
  const { from, to } = range
  const { widths, right } = layout
  const readers = result.columns.map((column, c) => displayCellReader(result.cols[c], column))
  let out = ''
  for (let r = from; r < to; r++) {
    out += line(readers.map((read, c) => pad(oneLine(read(r)), widths[c], right[c])))
    if (chunkDone(r - from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/**
 * Render rows [from, to) as a text table. Widths need every selected cell, so a first pass
 * measures them.
 */
export function* textTable(result: ResultSet, range: RowRange): Generator<string> {
  const layout = textLayout(result)
  yield* measureRows(result, range, layout)
  yield textHeader(layout)
  yield* textRows(result, range, layout)
}
