/**
 * The `!cols` dictionary as a result set, so it renders in every format by the same code as any
 * other result (column-major JSON gives `{"name": […], "label": […], …}`).
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta, ColumnType } from '../../shared/table.js'
import { columnMeta } from '../../shared/table.js'

type Property = keyof Omit<ColumnMeta, 'logical'>

/** Properties reported per app, in order (SPEC §2.3): sql reports fewer. */
const PROPERTIES: Readonly<Record<'run' | 'sql', readonly Property[]>> = {
  run: ['name', 'label', 'desc', 'type', 'fixed', 'width', 'format'],
  sql: ['name', 'label', 'width'],
}

/** fixed and width are integers; every other property is text. */
function typeOf(property: Property): ColumnType {
  return property === 'fixed' || property === 'width' ? 'int' : 'text'
}

function column(cols: readonly ColumnMeta[], property: Property): ResultColumn {
  if (typeOf(property) === 'int') {
    return { kind: 'int', data: Int32Array.from(cols, (m) => Number(m[property])) }
  }
  return { kind: 'text', data: cols.map((m) => String(m[property])) }
}

/** Build the `!cols` table: one row per result column, one column per property of the app. */
export function colsTable(cols: readonly ColumnMeta[], app: 'run' | 'sql'): ResultSet {
  const properties = PROPERTIES[app]
  return {
    cols: properties.map((p) => columnMeta({ name: p, type: typeOf(p) })),
    columns: properties.map((p) => column(cols, p)),
    rowCount: cols.length,
  }
}
