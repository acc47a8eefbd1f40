/**
 * Engine columns to and from the ResultSet shape, which is what crosses between threads: a part's
 * partials and the merged group values travel as ResultSets of typed arrays (in shared memory, see
 * inSharedMemory), with each column's logical type in its metadata. Text stays as its codes and
 * dictionary (a `coded` column): no string per group is made, and the reader unifies dictionaries
 * (unifyTextColumns) to compare groups by integer codes.
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, type ColumnType } from '../../shared/table.js'
import { withUsedEntriesOnly } from '../columns/index.js'
import type { Column } from '../columns/types.js'

export interface NamedColumn {
  readonly name: string
  readonly column: Column
}

export function toResultColumn(c: Column): ResultColumn {
  if (c.type === 'text') {
    // Few groups over a large dictionary (a selective S, a table-wide dictionary) send only their strings.
    const t = c.dict.length > 2 * c.codes.length ? withUsedEntriesOnly(c) : c
    return { kind: 'coded', codes: t.codes, dict: t.dict }
  }
  if (c.type === 'float') return { kind: 'float', data: c.data }
  if (c.type === 'bigint') return { kind: 'bigint', data: c.data }
  return { kind: 'int', data: c.data }
}

export function fromResultColumn(c: ResultColumn, type: ColumnType): Column {
  // encodeColumns never writes text as strings; anything else is a bug upstream.
  if (c.kind === 'text') throw new Error('parallel codec: a partial column arrived with text as strings')
  if (c.kind === 'coded') return { type: 'text', codes: c.codes, dict: c.dict }
  if (c.kind === 'float') return { type: 'float', data: c.data }
  if (c.kind === 'bigint') return { type: 'bigint', data: c.data }
  return { type: type === 'date' ? 'date' : 'int', data: c.data }
}

/** Named columns of equal length as a ResultSet. */
export function encodeColumns(cols: readonly NamedColumn[], rows: number): ResultSet {
  return { cols: cols.map((c) => columnMeta({ name: c.name, type: c.column.type })), columns: cols.map((c) => toResultColumn(c.column)), rowCount: rows }
}

/** A ResultSet made by encodeColumns, by column name. */
export function decodeColumns(r: ResultSet): Map<string, Column> {
  const out = new Map<string, Column>()
  r.cols.forEach((m, i) => out.set(m.name, fromResultColumn(r.columns[i], m.logical)))
  return out
}

/** A typed array over shared memory: itself when it is one already, else a copy. */
function shared<T extends Int32Array | Float64Array | BigInt64Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a
  const buffer = new SharedArrayBuffer(a.byteLength)
  const out = a instanceof Float64Array ? new Float64Array(buffer) : a instanceof BigInt64Array ? new BigInt64Array(buffer) : new Int32Array(buffer)
  out.set(a as never)
  return out as T
}

/**
 * The same ResultSet with its numbers in shared memory, for an answer that the gateway hands on
 * to further tasks (partials to their merge, merged group values to every next part): each then
 * reads the one copy, and a task rerun after fair sharing took it back finds it still there.
 */
export function inSharedMemory(r: ResultSet): ResultSet {
  const columns = r.columns.map((c): ResultColumn => {
    if (c.kind === 'int') return { kind: 'int', data: shared(c.data) }
    if (c.kind === 'float') return { kind: 'float', data: shared(c.data) }
    if (c.kind === 'bigint') return { kind: 'bigint', data: shared(c.data) }
    if (c.kind === 'coded') return { kind: 'coded', codes: shared(c.codes), dict: c.dict }
    return c
  })
  return { ...r, columns }
}
