/**
 * The three JSON shapes of a result set, written as chunk generators. Each writes exactly what
 * JSON.stringify would give for the equivalent JavaScript value, as long as column names are
 * distinct and not array indices (an object cannot hold duplicates, and JavaScript puts
 * integer-like keys first).
 */
import type { ResultSet } from '../../shared/protocol.js'
import { CHUNK_ROWS } from './chunks.js'
import type { RowRange } from './types.js'
import { jsonCellReader } from './values.js'

/** Column-major: `{"col": [v, …], …}` in column order. */
export function* jsonColumns(result: ResultSet, range: RowRange): Generator<string> {
  const { from, to } = range
  let out = '{'
  for (let c = 0; c < result.columns.length; c++) {
    const read = jsonCellReader(result.columns[c])
    out += (c > 0 ? ',' : '') + JSON.stringify(result.cols[c].name) + ':['
    for (let r = from; r < to; r++) {
      out += (r > from ? ',' : '') + read(r)
      if ((r - from + 1) % CHUNK_ROWS === 0) {
        yield out
        out = ''
      }
    }
    out += ']'
  }
  yield out + '}'
}

/** Row-major: `{"cols": [names], "rows": [[v, …], …]}`. */
export function* jsonRows(result: ResultSet, range: RowRange): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map(jsonCellReader)
  let out = '{"cols":' + JSON.stringify(result.cols.map((m) => m.name)) + ',"rows":['
  for (let r = from; r < to; r++) {
    out += (r > from ? ',[' : '[')
    for (let c = 0; c < readers.length; c++) out += (c > 0 ? ',' : '') + readers[c](r)
    out += ']'
    if ((r - from + 1) % CHUNK_ROWS === 0) {
      yield out
      out = ''
    }
  }
  yield out + ']}'
}

/** Keyed: `[{"col": v, …}, …]`, one object per row. */
export function* jsonKeyed(result: ResultSet, range: RowRange): Generator<string> {
  const { from, to } = range
  const readers = result.columns.map(jsonCellReader)
  // Keys are the same on every row: quote them once.
  const keys = result.cols.map((m) => JSON.stringify(m.name) + ':')
  let out = '['
  for (let r = from; r < to; r++) {
    out += (r > from ? ',{' : '{')
    for (let c = 0; c < readers.length; c++) out += (c > 0 ? ',' : '') + keys[c] + readers[c](r)
    out += '}'
    if ((r - from + 1) % CHUNK_ROWS === 0) {
      yield out
      out = ''
    }
  }
  yield out + ']'
}
