/** Calling function-registry kernels directly in tests, with plain values (null = N/A). */
import { FUNCTIONS } from '../../engine/functions/index.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type Scalar, type Value } from '../../engine/columns/types.js'

export type V = number | bigint | string | null

/** A constant operand of the given type; null becomes that type's N/A. */
export function scalar(type: ColumnType, v: V): Scalar {
  if (type === 'text') return { kind: 'scalar', type, value: (v as string | null) ?? '' }
  if (type === 'bigint') return { kind: 'scalar', type, value: v === null ? NA_BIGINT : BigInt(v) }
  return { kind: 'scalar', type, value: v === null ? (type === 'float' ? NaN : NA_INT) : (v as number) }
}

/** Runs a registry kernel whose arguments are all values. */
export function runKernel(name: string, args: readonly Value[], rows: number): Column {
  return FUNCTIONS[name].kernel(
    args.map((value) => ({ kind: 'value' as const, value })),
    { rows },
  )
}
