/**
 * Results with text as dictionary codes (CodedResultSet), for the trip from a worker to the
 * gateway. A text column as strings is one string object per row, each copied on the way, and
 * the gateway's one thread pays for receiving all of them, whichever worker built them; as codes
 * it is an Int32Array (moved, or shared when read straight from a table) plus the dictionary's
 * strings once. The gateway keeps them as `coded` result columns (shared/protocol.ts): the
 * renderers look each row's string up as they write it, so no per-row string array is ever built.
 */
import { AppError } from '../../shared/errors.js'
import type { CodedResultSet, ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import type { NumberColumn } from '../columns/types.js'
import type { Worksheet, WsColumn } from '../interpret/worksheet.js'

function meta(c: WsColumn) {
  return columnMeta({
    name: c.name,
    type: c.type,
    label: c.info.label,
    desc: c.info.desc,
    format: c.info.format || undefined,
    width: c.info.width ?? undefined,
    fixed: c.info.fixed,
  })
}

const cut = <T extends Int32Array | Float64Array | BigInt64Array>(a: T, rows: number): T => (a.length > rows ? (a.slice(0, rows) as T) : a)

/**
 * The worksheet's visible columns as a result, text as codes: with `truncate`, a worksheet over
 * maxRows gives its first maxRows rows (and totalRows) instead of failing.
 * @param storedOf with a part: which columns are base columns as read (sent as a mark, not data)
 */
export function toCodedResultSet(
  ws: Worksheet,
  maxRows: number,
  truncate: boolean,
  storedOf?: (c: WsColumn) => number | null,
  output?: Output,
): CodedResultSet {
  if (ws.rows > maxRows && !truncate) {
    throw new AppError('RESULT_TOO_LARGE', `The result has ${ws.rows} rows, more than ${maxRows} (MAX_RESULT_ROWS); select fewer rows or tabulate.`, {
      rows: ws.rows,
      maxRows,
    })
  }
  const rows = Math.min(ws.rows, maxRows)
  const visible = ws.cols.filter((c) => c.visible)
  const dicts: (readonly string[] | null)[] = []
  const stored = visible.map((c) => (storedOf !== undefined ? storedOf(c) : null))
  const written = visible.map((c, i) => stored[i] === null && output?.buffers[i] != null)
  const columns: ResultColumn[] = visible.map((c, i) => {
    const d = c.data()
    if (d.type === 'text' && stored[i] === null) {
      const { codes, dict } = compactDictionary(cut(d.codes, rows), d.dict)
      dicts.push(dict)
      if (!written[i]) return { kind: 'int', data: codes }
      // Written codes are numbers into the dictionary sent with them, as for codes sent whole.
      new Int32Array(output!.buffers[i]!).set(codes, output!.at)
      return { kind: 'int', data: new Int32Array(0) }
    }
    if (stored[i] !== null || written[i]) {
      dicts.push(null)
      if (written[i]) writeInto(output!.buffers[i]!, output!.at, d as NumberColumn, rows)
      return c.type === 'float'
        ? { kind: 'float', data: new Float64Array(0) }
        : c.type === 'bigint'
          ? { kind: 'bigint', data: new BigInt64Array(0) }
          : { kind: 'int', data: new Int32Array(0) }
    }
    dicts.push(null)
    const n = d as NumberColumn
    if (n.type === 'float') return { kind: 'float', data: cut(n.data, rows) }
    if (n.type === 'bigint') return { kind: 'bigint', data: cut(n.data, rows) }
    return { kind: 'int', data: cut(n.data, rows) }
  })
  const base = { cols: visible.map(meta), columns, rowCount: rows, dicts, ...(storedOf !== undefined ? { stored, written } : {}) }
  return ws.rows > maxRows ? { ...base, totalRows: ws.rows } : base
}

/** Where a part writes its computed columns (RunPart.output), text as codes. */
export interface Output {
  readonly buffers: readonly (SharedArrayBuffer | null)[]
  /** The part's first row in the answer. */
  readonly at: number
}

function writeInto(buffer: SharedArrayBuffer, at: number, c: NumberColumn, rows: number): void {
  if (c.type === 'float') new Float64Array(buffer).set(c.data.subarray(0, rows), at)
  else if (c.type === 'bigint') new BigInt64Array(buffer).set(c.data.subarray(0, rows), at)
  else new Int32Array(buffer).set(c.data.subarray(0, rows), at)
}

/**
 * A dictionary larger than the rows using it (a few rows of a column with millions of distinct
 * values) would cost more to send than the rows: send only the strings the rows use.
 */
function compactDictionary(codes: Int32Array, dict: readonly string[]): { codes: Int32Array; dict: readonly string[] } {
  if (dict.length <= codes.length) return { codes, dict }
  // A table of every code when the dictionary is not far larger than the rows, else a map of the used ones.
  const table = codes.length * 16 >= dict.length ? new Int32Array(dict.length).fill(-1) : null
  const map = table === null ? new Map<number, number>() : null
  const used: string[] = []
  const out = new Int32Array(codes.length)
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]
    let n = table !== null ? table[c] : (map!.get(c) ?? -1)
    if (n < 0) {
      n = used.length
      if (table !== null) table[c] = n
      else map!.set(c, n)
      used.push(dict[c])
    }
    out[i] = n
  }
  return { codes: out, dict: used }
}

export const isCoded = (r: ResultSet): r is CodedResultSet => Array.isArray((r as { dicts?: unknown }).dicts)

/** The ResultSet every renderer reads: coded text stays codes, as `coded` columns. */
export function fromWire(r: ResultSet): ResultSet {
  if (!isCoded(r)) return r
  const columns = r.columns.map((col, c): ResultColumn => {
    const dict = r.dicts[c]
    return dict === null ? col : { kind: 'coded', codes: (col as { data: Int32Array }).data, dict }
  })
  const { dicts: _dicts, stored: _stored, written: _written, ...plain } = r
  return { ...plain, columns }
}

/**
 * A worksheet's result with text as one string per row: what the service's answer holds, built
 * in-process by the engine's tests and benchmarks (a worker always answers codes, toCodedResultSet).
 */
export function toResultSet(ws: Worksheet, maxRows: number, truncate = false): ResultSet {
  const coded = toCodedResultSet(ws, maxRows, truncate)
  const columns = coded.columns.map((col, c): ResultColumn => {
    const dict = coded.dicts[c]
    if (dict === null) return col
    const codes = (col as { data: Int32Array }).data
    // A plain loop into a sized array: Array.from over a typed array with a map is several times slower.
    const data = new Array<string>(codes.length)
    for (let i = 0; i < codes.length; i++) data[i] = dict[codes[i]]
    return { kind: 'text', data }
  })
  const { dicts: _dicts, stored: _stored, written: _written, ...plain } = coded
  return { ...plain, columns }
}
