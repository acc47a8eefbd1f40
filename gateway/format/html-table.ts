/**
 * A result set as an HTML table: labels in the header (multi-line labels as line breaks, the
 * column name as tooltip), one row per result row, numbers right-aligned, everything escaped.
 */
import type { ResultSet } from '../../shared/protocol.js'
import { CHUNK_CHARS, chunkDone } from './chunks.js'
import { escapeHtml } from './escape.js'
import { cellOf, longCellChunks, type Cell, type LongCell } from './long-cells.js'
import type { RowRange } from './types.js'
import { displayCellReader, isNumeric } from './values.js'

const longHtml = (text: string): LongCell => ({ text, open: '', close: '', encode: escapeHtml })

/** A cell as HTML text: escaped, a long one a slice at a time. */
const htmlCell = cellOf(escapeHtml, longHtml)

/** Escape a label and turn its newlines (the 1010data multi-line heading) into <br>. */
function labelHtml(label: string): string {
  return escapeHtml(label).replace(/\r\n|\r|\n/g, '<br>')
}

/** The table's opening and its header row. */
export function htmlTableStart(result: Pick<ResultSet, 'cols' | 'columns'>): string {
  const { cols, columns } = result
  let out = '<table>\n<thead><tr>'
  for (let c = 0; c < columns.length; c++) {
    const cls = isNumeric(columns[c]) ? ' class="n"' : ''
    out += `<th${cls} title="${escapeHtml(cols[c].name)}">${labelHtml(cols[c].label)}</th>`
  }
  return out + '</tr></thead>\n<tbody>\n'
}

export const HTML_TABLE_END = '</tbody>\n</table>\n'

/** The <tr> lines of rows [from, to), in chunks of CHUNK_ROWS rows. */
export function* htmlTableRows(result: ResultSet, range: RowRange): Generator<string> {
  const { from, to } = range
  const { cols, columns } = result
  const readers = columns.map((column, c) => displayCellReader(cols[c], column))
  const opens = columns.map((column) => (isNumeric(column) ? '<td class="n">' : '<td>'))
  let out = ''
  for (let r = from; r < to; r++) {
    out += '<tr>'
    for (let c = 0; c < readers.length; c++) {
      const cell: Cell = htmlCell(readers[c](r))
      if (typeof cell === 'string') out += opens[c] + cell + '</td>'
      else {
        yield out + opens[c]
        yield* longCellChunks(cell)
        out = cell.close + '</td>'
      }
      if (out.length >= CHUNK_CHARS) {
        yield out
        out = ''
      }
    }
    out += '</tr>\n'
    if (chunkDone(r - from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/** Render rows [from, to) as a <table>, in chunks of CHUNK_ROWS rows. */
export function* htmlTable(result: ResultSet, range: RowRange): Generator<string> {
  yield htmlTableStart(result)
  yield* htmlTableRows(result, range)
  yield HTML_TABLE_END
}
