/** The worksheet's visible columns as the one ResultSet shape every renderer reads. */
import { AppError } from '../../shared/errors.js'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import type { Column } from '../columns/types.js'
import type { Worksheet, WsColumn } from './worksheet.js'

/** The column, or with `rows` only its first rows (copied, so the cut result does not pin the whole column). */
function toResultColumn(c: Column, rows?: number): ResultColumn {
  if (c.type === 'text') {
    const { codes, dict } = c
    const n = rows ?? codes.length
    const out = new Array<string>(n)
    for (let i = 0; i < n; i++) out[i] = dict[codes[i]]
    return { kind: 'text', data: out }
  }
  if (c.type === 'float') return { kind: 'float', data: rows === undefined ? c.data : c.data.slice(0, rows) }
  return { kind: 'int', data: rows === undefined ? c.data : c.data.slice(0, rows) }
}

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

/** With `truncate`, a worksheet over maxRows gives its first maxRows rows (and totalRows) instead of failing. */
export function toResultSet(ws: Worksheet, maxRows: number, truncate = false): ResultSet {
  if (ws.rows > maxRows && !truncate) {
    throw new AppError('RESULT_TOO_LARGE', `The result has ${ws.rows} rows, more than ${maxRows} (MAX_RESULT_ROWS); select fewer rows or tabulate.`, {
      rows: ws.rows,
      maxRows,
    })
  }
  const visible = ws.cols.filter((c) => c.visible)
  if (ws.rows <= maxRows) return { cols: visible.map(meta), columns: visible.map((c) => toResultColumn(c.data())), rowCount: ws.rows }
  return { cols: visible.map(meta), columns: visible.map((c) => toResultColumn(c.data(), maxRows)), rowCount: maxRows, totalRows: ws.rows }
}
