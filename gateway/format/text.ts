/**
 * The plain aligned text table: a header of column names, a line of dashes, one line per row.
 * Columns are as wide as their widest cell (header included) and two spaces apart; numbers are
 * right-aligned, text left-aligned, and lines carry no trailing spaces.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { AppError } from '../../shared/errors.js'
import { CHUNK_CHARS, CHUNK_ROWS, chunkDone } from './chunks.js'
import { isLong, slices } from './long-cells.js'
import type { RowRange } from './types.js'
import { displayCellReader, isNumeric } from './values.js'

const GAP = '  '

/** A newline or tab inside a cell would break the table's lines; show it as a space. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return /[\u0000-\u001f\u007f]/.test(text) ? text.replace(/[\u0000-\u001f\u007f]/g, ' ') : text
}

/** Whether a code unit shows as a space once oneLine has run (a line's trailing ones are dropped). */
const blank = (unit: number): boolean => unit === 32 || unit <= 0x1f || unit === 0x7f

/** How many characters at the end of a cell show as spaces. */
function trailingBlanks(text: string): number {
  let n = 0
  for (let i = text.length - 1; i >= 0 && blank(text.charCodeAt(i)); i--) n++
  return n
}

/**
 * Width in code points, so an emoji (a surrogate pair) counts once. East Asian wide is ignored.
 * A pair is counted as a low surrogate after a high one; long cells are measured in slices that
 * never cut a pair (long-cells.ts), so their widths add up.
 */
function width(text: string): number {
  if (!/[\ud800-\udfff]/.test(text)) return text.length
  let n = text.length
  for (let i = 1; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      const prev = text.charCodeAt(i - 1)
      if (prev >= 0xd800 && prev <= 0xdbff) n--
    }
  }
  return n
}

/** Characters measured between pauses of the measuring pass, which writes nothing. */
const MEASURE_CHARS = 1024 * 1024

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

/** The width of a long cell, measured a slice at a time with a pause (an empty chunk) after each. */
function* longWidth(text: string): Generator<string, number> {
  let n = 0
  for (const slice of slices(text)) {
    n += width(slice)
    yield ''
  }
  return n
}

/**
 * Widen the layout to fit rows [from, to). Yields an empty chunk after every MEASURE_CHARS
 * characters measured (and between slices of a long cell) so a streamed rendering can pause
 * during this pass, which writes nothing.
 */
export function* measureRows(result: ResultSet, range: RowRange, layout: TextLayout): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map((column, c) => displayCellReader(result.cols[c], column))
  const { widths } = layout
  let measured = 0
  for (let r = from; r < to; r++) {
    for (let c = 0; c < readers.length; c++) {
      const text = readers[c](r)
      // Control characters become spaces (oneLine) and are never surrogates: widths are the same.
      const w = isLong(text) ? yield* longWidth(text) : width(text)
      if (w > widths[c]) widths[c] = w
      measured += text.length + 1
    }
    if (measured >= MEASURE_CHARS || (r - from + 1) % CHUNK_ROWS === 0) {
      measured = 0
      yield ''
    }
  }
}

/** `n` copies of `char`, handed out a chunk at a time. */
function* repeated(char: string, n: number): Generator<string> {
  for (let left = n; left > 0; left -= CHUNK_CHARS) yield char.repeat(Math.min(left, CHUNK_CHARS))
}

/**
 * One line of the table onto the chunk being built (`out`), handing out full chunks; returns the
 * chunk being built. `cell(c)` is column c's text on this line.
 *
 * Costs what it writes: padding is owed, not written, until something visible follows it on the
 * line, so a line's trailing padding (every line under one long cell of the last column, or of
 * a column followed by empty ones) is never built only to be trimmed again. Long cells and long
 * runs of padding go out in slices.
 */
function* writeLine(out: string, cell: (c: number) => string, layout: TextLayout): Generator<string, string> {
  const { widths, right } = layout
  let owed = 0
  for (let c = 0; c < widths.length; c++) {
    if (c > 0) owed += GAP.length
    const text = cell(c)
    const blanks = trailingBlanks(text)
    const kept = text.length - blanks
    const long = isLong(text)
    // A right-aligned column's padding goes before its text; only numbers are right-aligned, and
    // their display text is short, so a long one is measured in one go here.
    if (right[c]) owed += Math.max(0, widths[c] - width(text))
    let shown = text.length
    if (kept > 0) {
      if (owed > CHUNK_CHARS) {
        yield out
        yield* repeated(' ', owed)
        out = ''
      } else out += ' '.repeat(owed)
      if (!long) out += oneLine(kept === text.length ? text : text.slice(0, kept))
      else {
        yield out
        out = ''
        shown = blanks
        for (const slice of slices(text, kept)) {
          shown += width(slice)
          yield oneLine(slice)
        }
      }
      owed = blanks
    } else owed += blanks
    if (!right[c]) owed += Math.max(0, widths[c] - (long || kept === 0 ? shown : width(text)))
    if (out.length >= CHUNK_CHARS) {
      yield out
      out = ''
    }
  }
  return out + '\n'
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
export function* textHeader(layout: TextLayout): Generator<string> {
  const { names, widths } = layout
  const out = yield* writeLine('', (c) => names[c], layout)
  // Dashes fill every column, so the line ends at the last column with any width: the gaps after
  // it would be trailing spaces.
  const end = widths.findLastIndex((w) => w > 0) + 1
  let line = out
  for (let c = 0; c < end; c++) {
    const gap = c > 0 ? GAP : ''
    if (widths[c] > CHUNK_CHARS) {
      yield line + gap
      yield* repeated('-', widths[c])
      line = ''
    } else line += gap + '-'.repeat(widths[c])
  }
  yield line + '\n'
}

/** The lines of rows [from, to), padded to the layout. */
export function* textRows(result: ResultSet, range: RowRange, layout: TextLayout): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map((column, c) => displayCellReader(result.cols[c], column))
  let out = ''
  for (let r = from; r < to; r++) {
    out = yield* writeLine(out, (c) => readers[c](r), layout)
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
  yield* textHeader(layout)
  yield* textRows(result, range, layout)
}
