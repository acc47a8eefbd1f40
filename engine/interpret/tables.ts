/**
 * The stored tables a run may read, as the gateway hands them over: each column's bytes in a
 * SharedArrayBuffer (shared by every worker, never copied) and, for text, its dictionary.
 */
import type { TableColumnInput, TableInput } from '../../shared/protocol.js'
import type { Column } from '../columns/types.js'
import { newColumn, Worksheet } from './worksheet.js'
import { checkError } from '../check/errors.js'
import type { Loc } from '../ast.js'
import { storedTextColumn } from '../columns/shared-dictionary.js'

export type { TableColumnInput, TableInput }

function toColumn(c: TableColumnInput): Column {
  switch (c.spec.type) {
    case 'float':
      return { type: c.spec.type, data: new Float64Array(c.buffer) }
    case 'bigint':
      return { type: c.spec.type, data: new BigInt64Array(c.buffer) }
    case 'text':
      return storedTextColumn(new Int32Array(c.buffer), c)
    default:
      return { type: c.spec.type, data: new Int32Array(c.buffer) }
  }
}

/** A stored table as a worksheet: every column, in stored row order. */
export function tableWorksheet(tables: ReadonlyMap<string, TableInput>, path: string, loc: Loc): Worksheet {
  const t = tables.get(path)
  if (!t) throw checkError(loc, `No such table "${path}".`, { table: path })
  const cols = t.columns.map((c) =>
    newColumn(c.spec.name.toLowerCase(), toColumn(c), {
      label: c.spec.label,
      desc: c.spec.desc,
      format: c.spec.format,
      width: c.spec.width,
      fixed: c.spec.fixed,
    }),
  )
  return new Worksheet(t.rows, cols, t.title)
}
