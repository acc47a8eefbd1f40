/** The worksheet's visible columns as the one ResultSet shape every renderer reads. */
import { AppError } from '../../shared/errors.js'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import type { Column } from '../columns/types.js'
import type { Worksheet, WsColumn } from './worksheet.js'

function toResultColumn(c: Column): ResultColumn {
  if (c.type === 'text') {
    const { codes, dict } = c
    const out = new Array<string>(codes.length)
    for (let i = 0; i < codes.length; i++) out[i] = dict[codes[i]]
    return { kind: 'text', data: out }
  }
  if (c.type === 'float') return { kind: 'float', data: c.data }
  return { kind: 'int', data: c.data }
}

function meta(c: WsColumn) {
  return columnMeta({ name: c.name, type: c.type, label: c.info.label, desc: c.info.desc, format: c.info.format || undefined, width: c.info.width ?? undefined, fixed: c.info.fixed })
}

export function toResultSet(ws: Worksheet, maxRows: number): ResultSet {
  if (ws.rows > maxRows) {
    throw new AppError('RESULT_TOO_LARGE', `The result has ${ws.rows} rows, more than ${maxRows} (MAX_RESULT_ROWS); select fewer rows or tabulate.`, { rows: ws.rows, maxRows })
  }
  const visible = ws.cols.filter((c) => c.visible)
  return { cols: visible.map(meta), columns: visible.map((c) => toResultColumn(c.data())), rowCount: ws.rows }
}
