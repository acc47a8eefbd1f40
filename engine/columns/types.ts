/**
 * The column representation every operation and kernel shares. Whole columns as typed arrays:
 * integers and dates in Int32Array with NA_INT for N/A, floats in Float64Array with NaN for N/A,
 * big integers in BigInt64Array with NA_BIGINT (−2^63) for N/A, text as Int32 dictionary codes into a sorted string table whose entry 0 is '' (text N/A).
 *
 * Invariant for text: `dict` is sorted (JavaScript string order), has no duplicates, and
 * `dict[0] === ''`. Two codes of one column therefore compare like their strings, so equality,
 * ordering, grouping and sorting of text run on integers.
 */
import type { ColumnType } from '../../shared/table.js'

export { NA_INT, NA_FLOAT, NA_BIGINT, BIGINT_MAX, SAFE_INT_MAX, isWideType, bytesPerValue } from '../../shared/table.js'
export type { ColumnType }

export type IntColumn = { readonly type: 'int' | 'date'; readonly data: Int32Array }
export type FloatColumn = { readonly type: 'float'; readonly data: Float64Array }
export type BigIntColumn = { readonly type: 'bigint'; readonly data: BigInt64Array }
export type TextColumn = { readonly type: 'text'; readonly codes: Int32Array; readonly dict: readonly string[] }

/** A column of numbers: what arithmetic, comparisons and numeric summaries read. */
export type NumberColumn = IntColumn | FloatColumn | BigIntColumn

export type Column = NumberColumn | TextColumn

/**
 * The type two numeric types meet at, when one column takes values of both (merge, if, parts put
 * together): a decimal if either is, else a big integer if either is, else the first side's (an
 * int beside a date keeps the first's kind, as it always has). Never narrower than either side.
 */
export function widerNumber(a: ColumnType, b: ColumnType): ColumnType {
  if (a === 'float' || b === 'float') return 'float'
  if (a === 'bigint' || b === 'bigint') return 'bigint'
  return a
}

/** A column of decimals (Float64Array, NaN for N/A). */
export const isFloat = (c: Column): c is FloatColumn => c.type === 'float'

/** A column of big integers (BigInt64Array, NA_BIGINT for N/A). */
export const isBigInt = (c: Column): c is BigIntColumn => c.type === 'bigint'

/** A constant operand, kept unbroadcast so kernels need not allocate a column for it. */
export type Scalar =
  | { readonly kind: 'scalar'; readonly type: 'int' | 'date' | 'float'; readonly value: number }
  | { readonly kind: 'scalar'; readonly type: 'bigint'; readonly value: bigint }
  | { readonly kind: 'scalar'; readonly type: 'text'; readonly value: string }

/** Juxtaposed constants (`'NY' 'CA'`), only meaningful to =, <> and list-aware functions. */
export type ScalarList =
  /**
   * A list of numbers, each member exactly as written: a big integer as a bigint (also beside
   * decimals), N/A as NaN (an int's N/A is not the number −2^31 here).
   */
  | { readonly kind: 'list'; readonly type: 'int' | 'date' | 'float' | 'bigint'; readonly values: readonly (number | bigint)[] }
  | { readonly kind: 'list'; readonly type: 'text'; readonly values: readonly string[] }

/** What a value argument evaluates to. */
export type Value = Column | Scalar | ScalarList

/**
 * Rows grouped by the values of some columns: `ids[row]` is the row's group number, from 0 to
 * `count - 1`, numbered in order of first appearance. N/A is a value like any other.
 */
export interface GroupIndex {
  readonly ids: Int32Array
  readonly count: number
}

export const columnLength = (c: Column): number => (c.type === 'text' ? c.codes.length : c.data.length)

export const isNumericType = (t: ColumnType): boolean => t !== 'text'
