/**
 * Appending makes a new version holding the old rows followed by the new ones (versions are
 * immutable). The old rows are read back from the version the catalog points at; the columns
 * must agree by name (ignoring case) and type, in order, and keep the table's own specs
 * (labels, formats) in the new version.
 */
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import type { ColumnValues, LoadedColumn, TableInput } from '../../engine/index.js'
import type { TableCache } from './table-cache.js'

/** The values of every column of a stored version, in the writer's shapes. */
export async function readVersionValues(tables: TableCache, version: string, path?: string): Promise<TableInput> {
  const meta = await tables.meta(version)
  // A table larger than TABLE_CACHE_MB is refused here (413): appending rereads every old row.
  const data = await Promise.all(meta.columns.map(async (_, i) => valuesOf(await tables.column(version, i, path))))
  return { columns: meta.columns, data }
}

function valuesOf(col: LoadedColumn): ColumnValues {
  if (col.type === 'float') return new Float64Array(col.buffer)
  if (col.type === 'bigint') return new BigInt64Array(col.buffer)
  const ints = new Int32Array(col.buffer)
  if (col.type !== 'text') return ints
  const dict = col.dict!
  const out = new Array<string>(ints.length)
  for (let r = 0; r < ints.length; r++) out[r] = dict[ints[r]]
  return out
}

const describe = (cols: readonly ColumnSpec[]): string => cols.map((c) => `${c.name} (${c.type})`).join(', ')

/** Refuses rows whose columns differ from the table's; the message shows both lists. */
export function checkSameColumns(path: string, table: readonly ColumnSpec[], rows: readonly ColumnSpec[]): void {
  const same = table.length === rows.length && table.every((c, i) => c.name.toLowerCase() === rows[i].name.toLowerCase() && c.type === rows[i].type)
  if (!same) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Columns do not match: the table "${path}" has ${describe(table)}; the rows to append have ${describe(rows)}. Give the same columns, in the same order and of the same types.`,
      { table: path },
    )
  }
}

/** The old table with `more` rows after its own. */
export function appendRows(path: string, old: TableInput, more: TableInput): TableInput {
  checkSameColumns(path, old.columns, more.columns)
  return { columns: old.columns, data: old.data.map((values, i) => concat(values, more.data[i])) }
}

function concat(a: ColumnValues, b: ColumnValues): ColumnValues {
  if (Array.isArray(a)) return [...(a as readonly string[]), ...(b as readonly string[])]
  const out = a instanceof Float64Array ? new Float64Array(a.length + b.length) : new Int32Array(a.length + b.length)
  out.set(a as ArrayLike<number>)
  out.set(b as ArrayLike<number>, a.length)
  return out
}
