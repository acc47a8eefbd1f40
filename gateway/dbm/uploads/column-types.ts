/**
 * The type of each column of an upload. A column declared in `cols` keeps its type. Otherwise
 * the first chunk with a value decides it, as upload_table infers types; a later chunk may widen
 * int to float, and a date column takes yyyymmdd numbers, but a chunk whose values do not fit the
 * column (text in a number column) is refused with the advice to declare the type.
 */
import { isYmd, type ChunkValues } from '../../../engine/index.js'
import { AppError } from '../../../shared/errors.js'
import type { ChunkText } from '../../../shared/csv/chunk-text.js'
import { NA_BIGINT, NA_INT, type ColumnSpec, type ColumnType } from '../../../shared/table.js'
import type { ColumnState, UploadState } from './state.js'

/**
 * The chunk's values of one column in the column's type, deciding or widening the type where the
 * values allow it; null when the chunk has only N/A for a column that has no type yet (or for
 * which N/A is all it has). Throws when the values do not fit.
 */
export function reconcile(state: UploadState, col: ColumnState, spec: ColumnSpec, values: ChunkValues): { type: ColumnType; values: ChunkValues } | null {
  const allNa = isAllNa(spec.type, values)
  if (allNa && (col.type === null || spec.type !== col.type)) return null
  if (col.type === null || col.type === spec.type) return { type: spec.type, values }
  // Numbers widen: int to bigint to float, the column's file rewritten once (apply-chunk.ts).
  if ((col.type === 'int' && (spec.type === 'float' || spec.type === 'bigint')) || (col.type === 'bigint' && spec.type === 'float'))
    return { type: spec.type, values }
  // A chunk narrower than its column is written in the column's type.
  if (col.type === 'float' && spec.type === 'bigint')
    return { type: 'float', values: Float64Array.from(values as BigInt64Array, (x) => (x === NA_BIGINT ? NaN : Number(x))) }
  if (col.type === 'float' && spec.type === 'int') return { type: 'float', values: Float64Array.from(values as Int32Array, (x) => (x === NA_INT ? NaN : x)) }
  if (col.type === 'bigint' && spec.type === 'int')
    return { type: 'bigint', values: BigInt64Array.from(values as Int32Array, (x) => (x === NA_INT ? NA_BIGINT : BigInt(x))) }
  if (col.type === 'date' && spec.type === 'int' && (values as Int32Array).every((x) => x === NA_INT || isYmd(x))) return { type: 'date', values }
  throw new AppError(
    'INVALID_PARAMETER',
    `Column "${col.name}" was read as ${col.type} from the first ${state.rows} rows, but chunk ${state.chunks + 1} has ${spec.type} values in it; declare the column's type in "cols" of upload_begin (for example {"name": "${col.name}", "type": "text"}) and upload again.`,
    { parameter: 'cols', column: col.name },
  )
}

function isAllNa(type: ColumnType, values: ChunkValues): boolean {
  if (type === 'text') return (values as ChunkText).values.length === 0
  if (type === 'float') return (values as Float64Array).every((x) => Number.isNaN(x))
  if (type === 'bigint') return (values as BigInt64Array).every((x) => x === NA_BIGINT)
  return (values as Int32Array).every((x) => x === NA_INT)
}
