/**
 * Engine columns to and from the ResultSet shape, which is what crosses between threads: a part's
 * partials and the merged group values travel as ResultSets of plain typed arrays (moved, not
 * copied), with each column's logical type in its metadata.
 */
import type { PlainColumn, ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, type ColumnType } from '../../shared/table.js'
import { textColumnFromStrings } from '../columns/index.js'
import type { Column } from '../columns/types.js'

export interface NamedColumn {
  readonly name: string
  readonly column: Column
}

export function toResultColumn(c: Column): PlainColumn {
  if (c.type === 'text') {
    const out = new Array<string>(c.codes.length)
    for (let i = 0; i < out.length; i++) out[i] = c.dict[c.codes[i]]
    return { kind: 'text', data: out }
  }
  return c.type === 'float' ? { kind: 'float', data: c.data } : { kind: 'int', data: c.data }
}

export function fromResultColumn(c: ResultColumn, type: ColumnType): Column {
  if (c.kind === 'text') return textColumnFromStrings(c.data)
  if (c.kind === 'coded') return { type: 'text', codes: c.codes, dict: c.dict }
  if (c.kind === 'float') return { type: 'float', data: c.data }
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
