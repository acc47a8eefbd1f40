/**
 * Results with text as dictionary codes (CodedResultSet), for the trip from a worker to the
 * gateway. A text column as strings is one string object per row, each copied on the way, and
 * the gateway's one thread pays for receiving all of them, whichever worker built them; as codes
 * it is an Int32Array (moved, or shared when read straight from a table) plus the dictionary's
 * strings once, and the gateway makes the per-row array by lookup, every row pointing at one of
 * those strings. That keeps the receiving side cheap enough for parts to run truly in parallel.
 */
import { AppError } from '../../shared/errors.js'
import type { CodedResultSet, ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import type { Column } from '../columns/types.js'
import type { Worksheet, WsColumn } from '../interpret/worksheet.js'

function meta(c: WsColumn) {
  return columnMeta({ name: c.name, type: c.type, label: c.info.label, desc: c.info.desc, format: c.info.format || undefined, width: c.info.width ?? undefined, fixed: c.info.fixed })
}

const cut = <T extends Int32Array | Float64Array>(a: T, rows: number): T => (a.length > rows ? (a.slice(0, rows) as T) : a)

/**
 * toResultSet (interpret/result.ts) with text as codes: the same rows, limits and errors.
 * @param storedOf with a part: which columns are base columns as read (sent as a mark, not data)
 */
export function toCodedResultSet(ws: Worksheet, maxRows: number, truncate: boolean, storedOf?: (c: WsColumn) => number | null, output?: Output): CodedResultSet {
  if (ws.rows > maxRows && !truncate) {
    throw new AppError('RESULT_TOO_LARGE', `The result has ${ws.rows} rows, more than ${maxRows} (MAX_RESULT_ROWS); select fewer rows or tabulate.`, { rows: ws.rows, maxRows })
  }
  const rows = Math.min(ws.rows, maxRows)
  const visible = ws.cols.filter((c) => c.visible)
  const dicts: (readonly string[] | null)[] = []
  const stored = visible.map((c) => (storedOf !== undefined && c.type !== 'text' ? storedOf(c) : null))
  const written = visible.map((c, i) => stored[i] === null && c.type !== 'text' && output?.buffers[i] != null)
  const columns: ResultColumn[] = visible.map((c, i) => {
    if (stored[i] !== null || written[i]) {
      dicts.push(null)
      if (written[i]) writeInto(output!.buffers[i]!, output!.at, c.data() as Column & { type: 'int' | 'date' | 'float' }, rows)
      return c.type === 'float' ? { kind: 'float', data: new Float64Array(0) } : { kind: 'int', data: new Int32Array(0) }
    }
    const d = c.data()
    if (d.type === 'text') {
      dicts.push(d.dict)
      return { kind: 'int', data: cut(d.codes, rows) }
    }
    dicts.push(null)
    return d.type === 'float' ? { kind: 'float', data: cut(d.data, rows) } : { kind: 'int', data: cut(d.data, rows) }
  })
  const base = { cols: visible.map(meta), columns, rowCount: rows, dicts, ...(storedOf !== undefined ? { stored, written } : {}) }
  return ws.rows > maxRows ? { ...base, totalRows: ws.rows } : base
}

/** Where a part writes its computed numeric columns (RunPart.output). */
export interface Output {
  readonly buffers: readonly (SharedArrayBuffer | null)[]
  /** The part's first row in the answer. */
  readonly at: number
}

function writeInto(buffer: SharedArrayBuffer, at: number, c: Column & { type: 'int' | 'date' | 'float' }, rows: number): void {
  const src = c.data.length > rows ? c.data.subarray(0, rows) : c.data
  if (c.type === 'float') new Float64Array(buffer).set(src, at)
  else new Int32Array(buffer).set(src, at)
}

export const isCoded = (r: ResultSet): r is CodedResultSet => Array.isArray((r as { dicts?: unknown }).dicts)

/** Rows `from`… of `out` filled with the strings of coded column c of each set in turn. */
export function fillText(out: string[], sets: readonly CodedResultSet[], c: number): void {
  let at = 0
  for (const s of sets) {
    const dict = s.dicts[c]!
    const codes = s.columns[c].data as Int32Array
    const take = Math.min(codes.length, out.length - at)
    for (let i = 0; i < take; i++) out[at + i] = dict[codes[i]]
    at += take
  }
}

/** The plain ResultSet every renderer reads. */
export function decodeResult(r: ResultSet): ResultSet {
  if (!isCoded(r)) return r
  const columns = r.columns.map((col, c): ResultColumn => {
    if (r.dicts[c] === null) return col
    const out = new Array<string>(col.data.length)
    fillText(out, [r], c)
    return { kind: 'text', data: out }
  })
  const { dicts: _dicts, ...plain } = r
  return { ...plain, columns }
}
