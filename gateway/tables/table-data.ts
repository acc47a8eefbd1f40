/**
 * A stored table version read as a kept result, so the index widget (`!cols`, `!rows`, `!data`,
 * `!head`) serves a table the way it serves a query result. Nothing is run and nothing is copied
 * whole: the columns come from the table cache (shared memory, loaded once per version), numbers
 * and text codes are handed out as views over it, with the version's dictionary. A version larger
 * than TABLE_CACHE_MB is never loaded whole: a range reads only the row segments that hold it
 * (docs/large-tables.md).
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, type TableMeta } from '../../shared/table.js'
import type { LoadedColumn } from '../../engine/index.js'
import type { TableRecord } from '../catalog/records.js'
import type { TableCache } from './table-cache.js'
import type { ReadableResult } from '../query/results/readable-result.js'

/** Rows [from, to) of a loaded column, sharing the cached buffer (text as its codes and dictionary). */
function columnRows(col: LoadedColumn, from: number, to: number): ResultColumn {
  switch (col.type) {
    case 'float':
      return { kind: 'float', data: new Float64Array(col.buffer, from * 8, to - from) }
    case 'bigint':
      return { kind: 'bigint', data: new BigInt64Array(col.buffer, from * 8, to - from) }
    case 'text':
      return { kind: 'coded', codes: new Int32Array(col.buffer, from * 4, to - from), dict: col.dict! }
    default:
      return { kind: 'int', data: new Int32Array(col.buffer, from * 4, to - from) }
  }
}

/**
 * Where each catalog column lives in the version's files. Matched by name because the catalog
 * record is what users edit (labels, descriptions); the files are what was written.
 */
function fileIndexes(table: TableRecord, meta: TableMeta): number[] {
  return table.columns.map((c, i) => {
    const at = meta.columns.findIndex((m) => m.name === c.name)
    return at >= 0 ? at : i
  })
}

/**
 * The data of a table version as a ReadableResult. Labels, descriptions and formats come from the
 * catalog record (they can be edited without a new version); the row count from the version.
 */
export function tableData(tables: TableCache, table: TableRecord): ReadableResult {
  const cols = table.columns.map(columnMeta)
  return {
    cols,
    rowCount: table.rows,
    async rows(from, to): Promise<ResultSet> {
      const meta = await tables.meta(table.version)
      // Clipped to the files themselves: a view past the end of a buffer would throw.
      const f = Math.max(0, Math.min(from, meta.rows))
      const t = Math.max(f, Math.min(to, meta.rows))
      if (!(await tables.fits(table.version))) {
        const window = await tables.window(table.version, table.path, table.title, f, t)
        const dicts = await tables.dictionaries(table.version)
        const columns = fileIndexes(table, meta).map((i) =>
          columnRows({ type: meta.columns[i].type, buffer: window.columns[i].buffer, dict: dicts[i] as string[] }, 0, t - f),
        )
        return { cols, rowCount: t - f, columns }
      }
      const loaded = await Promise.all(fileIndexes(table, meta).map((i) => tables.column(table.version, i, table.path)))
      return { cols, rowCount: t - f, columns: loaded.map((col) => columnRows(col, f, t)) }
    },
  }
}
