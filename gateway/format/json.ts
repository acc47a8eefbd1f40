/**
 * The three JSON shapes of a result set, written as chunk generators. Each writes exactly what
 * JSON.stringify would give for the equivalent JavaScript value, as long as column names are
 * distinct and not array indices (an object cannot hold duplicates, and JavaScript puts
 * integer-like keys first).
 *
 * Every shape is split into its opening, its rows and its closing, so the paged renderer
 * (paged.ts) can write the rows of one piece after another and produce the same bytes. Only the
 * closing writes the last bracket: a rendering cut short is never a complete JSON document.
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta } from '../../shared/table.js'
import { CHUNK_CHARS, chunkDone } from './chunks.js'
import { longCellChunks } from './long-cells.js'
import type { RowRange } from './types.js'
import { jsonCellReader } from './values.js'

/**
 * The values of one column, rows [from, to), comma-separated. `continued`: values of the same
 * array were written before, so the first one needs a comma too.
 */
export function* jsonColumnValues(column: ResultColumn, range: RowRange, continued: boolean): Generator<string> {
  const { from, to } = range
  const read = jsonCellReader(column)
  let out = ''
  for (let r = from; r < to; r++) {
    const cell = read(r)
    if (r > from || continued) out += ','
    if (typeof cell === 'string') out += cell
    else {
      yield out
      yield* longCellChunks(cell)
      out = cell.close
    }
    if (chunkDone(r - from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/** The key that opens column `c`'s array in the column-major shape. */
export function jsonColumnKey(cols: readonly ColumnMeta[], c: number): string {
  return (c > 0 ? ',' : '') + JSON.stringify(cols[c].name) + ':['
}

/** Column-major: `{"col": [v, …], …}` in column order. */
export function* jsonColumns(result: ResultSet, range: RowRange): Generator<string> {
  let out = '{'
  for (let c = 0; c < result.columns.length; c++) {
    yield out + jsonColumnKey(result.cols, c)
    yield* jsonColumnValues(result.columns[c], range, false)
    out = ']'
  }
  yield out + '}'
}

/** Row-major opening: `{"cols": [names], "rows": [`. */
export function jsonRowsStart(cols: readonly ColumnMeta[]): string {
  return '{"cols":' + JSON.stringify(cols.map((m) => m.name)) + ',"rows":['
}

export const JSON_ROWS_END = ']}'

/** Row-major rows [from, to) as `[v, …]` arrays; `continued` as in jsonColumnValues. */
export function* jsonRowsBody(result: ResultSet, range: RowRange, continued: boolean): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map(jsonCellReader)
  let out = ''
  for (let r = from; r < to; r++) {
    out += r > from || continued ? ',[' : '['
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
    out += ']'
    if (chunkDone(r - from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/** Row-major: `{"cols": [names], "rows": [[v, …], …]}`. */
export function* jsonRows(result: ResultSet, range: RowRange): Generator<string> {
  yield jsonRowsStart(result.cols)
  yield* jsonRowsBody(result, range, false)
  yield JSON_ROWS_END
}

/** Keyed rows [from, to) as `{"col": v, …}` objects; `continued` as in jsonColumnValues. */
export function* jsonKeyedBody(result: ResultSet, range: RowRange, continued: boolean): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map(jsonCellReader)
  // Keys are the same on every row: quote them once.
  const keys = result.cols.map((m) => JSON.stringify(m.name) + ':')
  let out = ''
  for (let r = from; r < to; r++) {
    out += r > from || continued ? ',{' : '{'
    for (let c = 0; c < readers.length; c++) {
      const cell = readers[c](r)
      out += (c > 0 ? ',' : '') + keys[c]
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
    out += '}'
    if (chunkDone(r - from + 1, out)) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}

/** Keyed: `[{"col": v, …}, …]`, one object per row. */
export function* jsonKeyed(result: ResultSet, range: RowRange): Generator<string> {
  yield '['
  yield* jsonKeyedBody(result, range, false)
  yield ']'
}
