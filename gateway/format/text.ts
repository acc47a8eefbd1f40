/**
 * The plain aligned text table: a header of column names, a line of dashes, one line per row.
 * Columns are as wide as their widest cell (header included) and two spaces apart; numbers are
 * right-aligned, text left-aligned, and lines carry no trailing spaces.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { AppError } from '../../shared/errors.js'
import { CHUNK_ROWS, chunkDone } from './chunks.js'
import type { RowRange } from './types.js'
import { displayCellReader, isNumeric } from './values.js'

const GAP = '  '

/** A newline or tab inside a cell would break the table's lines; show it as a space. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
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

/**
 * Most characters of padding and values an aligned text answer may take. Every row is padded to
 * each column's widest value, so one long value makes every line long: 3,000 rows with one 1 MB
 * cell in the first column were 3 GB of spaces from a 1 MB result. Past this the answer is
 * refused (413) before its first line; JSON has no padding.
 */
export const TEXT_MAX_CHARS = 1024 * 1024 * 1024

/**
 * Refuses a text table whose padded lines would pass TEXT_MAX_CHARS. Counts the padding of every
 * column but the last (whose trailing spaces are dropped); the last column's own text is bounded
 * by MAX_RESULT_BYTES already.
 */
export function checkTextSize(layout: TextLayout, rows: number): void {
  const { widths } = layout
  let perLine = 1
  for (let c = 0; c < widths.length - 1; c++) perLine += widths[c] + GAP.length
  if (rows * perLine > TEXT_MAX_CHARS) {
    throw new AppError(
      'RESULT_TOO_LARGE',
      `As aligned text this answer would take about ${rows * perLine} characters (${rows} lines of ${perLine}: every line is padded to each column's widest value), more than ${TEXT_MAX_CHARS}; ask for :json or :json.rows (no padding), fewer rows, or leave out the long column.`,
      { chars: rows * perLine, maxChars: TEXT_MAX_CHARS },
    )
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
  checkTextSize(layout, range.to - range.from)
  yield textHeader(layout)
  yield* textRows(result, range, layout)
}
