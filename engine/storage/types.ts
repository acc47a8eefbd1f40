/** The in-memory shapes of column data that the storage layer writes and reads. */
import type { ColumnType } from '../../shared/table.js'
import type { SharedDictionary } from '../../shared/protocol.js'

/**
 * Values of one column handed to the writer:
 * - int and date: Int32Array, NA_INT for N/A, dates as yyyymmdd;
 * - float: Float64Array, NaN for N/A;
 * - bigint: BigInt64Array, NA_BIGINT (−2^63) for N/A;
 * - text: strings, '' for N/A.
 */
export type ColumnValues = Int32Array | Float64Array | BigInt64Array | readonly string[]

/**
 * One column as loaded from disk into shared memory, ready to hand to worker threads without
 * copying. `buffer` holds Int32 values (int, date, text codes) or Float64 values (float);
 * text columns carry their dictionary, where code 0 is '' (N/A).
 */
export interface LoadedColumn {
  readonly type: ColumnType
  readonly buffer: SharedArrayBuffer
  readonly dict?: string[]
  /** The same dictionary in shared memory, encoded once, for tasks (engine/columns/shared-dictionary.ts). */
  readonly sharedDict?: SharedDictionary
}
