/**
 * Reading kernel arguments: values as columns or constants, G/S/O as prepared by the
 * interpreter. An omitted or absent argument reads as null (one group, every row, worksheet
 * order, or the function's default).
 */
import { AppError } from '../../shared/errors.js'
import { gather, scalarToColumn } from '../columns/index.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type GroupIndex, type Scalar, type ScalarList, type Value } from '../columns/types.js'
import type { KernelArg } from './types.js'

const kindOf = (v: Value): string | undefined => (v as { kind?: string }).kind

/** A constant operand. */
export const isScalar = (v: Value): v is Scalar => kindOf(v) === 'scalar'
/** Juxtaposed constants ('NY' 'CA'). */
export const isList = (v: Value): v is ScalarList => kindOf(v) === 'list'
/** A whole column (columns carry no `kind`). */
export const isColumn = (v: Value): v is Column => kindOf(v) === undefined

/** The type of a value (column, constant or list). */
export const typeOfValue = (v: Value): ColumnType => v.type

/** An error in how a function was called that the checker could not see (e.g. a column where a constant belongs). */
export const callError = (message: string): AppError => new AppError('CHECK_ERROR', message)

/** Value argument i, or null when omitted or absent. */
export function valueArg(args: readonly KernelArg[], i: number): Value | null {
  const a = args[i]
  return a !== undefined && a.kind === 'value' ? a.value : null
}

/** Value argument i, which the function requires. */
export function requiredValue(args: readonly KernelArg[], i: number, fn: string, name: string): Value {
  const v = valueArg(args, i)
  if (v === null) throw callError(`${fn}() needs its argument ${name}.`)
  return v
}

/** G: the group index, or null for one group. */
export function groupArg(args: readonly KernelArg[], i: number): GroupIndex | null {
  const a = args[i]
  return a !== undefined && a.kind === 'group' ? a.groups : null
}

/** S: the 0/1 mask, or null for every row. */
export function maskArg(args: readonly KernelArg[], i: number): Uint8Array | null {
  const a = args[i]
  return a !== undefined && a.kind === 'select' ? a.mask : null
}

/** O: row numbers in O order, or null for worksheet order. */
export function orderArg(args: readonly KernelArg[], i: number): Int32Array | null {
  const a = args[i]
  return a !== undefined && a.kind === 'order' ? a.order : null
}

/** A value as a full column: constants are repeated on every row. Lists are rejected. */
export function asColumn(v: Value, rows: number, fn: string, name: string): Column {
  if (isColumn(v)) return v
  if (isScalar(v)) return scalarToColumn(v, rows)
  throw callError(`${fn}(): the argument ${name} cannot be a list of values.`)
}

/** A constant number argument; null when it is N/A. Columns and lists are rejected. */
export function constantNumber(v: Value, fn: string, name: string): number | null {
  if (!isScalar(v) || v.type === 'text') throw callError(`${fn}(): the argument ${name} must be a constant number.`)
  return scalarIsNA(v) ? null : Number(v.value)
}

/** A constant text argument. Columns and lists are rejected. */
export function constantText(v: Value, fn: string, name: string): string {
  if (!isScalar(v) || v.type !== 'text') throw callError(`${fn}(): the argument ${name} must be a quoted text constant.`)
  return v.value
}

/** True when a constant is N/A (NaN, NA_INT for int/date, '' for text). */
export function scalarIsNA(s: Scalar): boolean {
  if (s.type === 'text') return s.value === ''
  if (s.type === 'bigint') return s.value === NA_BIGINT
  return s.value !== s.value || ((s.type === 'int' || s.type === 'date') && s.value === NA_INT)
}

/**
 * Runs an elementwise kernel whose arguments are all constants on one row, then repeats that
 * row: the kernels themselves then only ever see at least one column.
 */
export function onConstants(values: readonly Value[], rows: number, kernel: (cols: Column[], rows: number) => Column): Column {
  const one = kernel(
    values.map((v) => asColumn(v, 1, '', '')),
    1,
  )
  return gather(one, new Int32Array(rows))
}
