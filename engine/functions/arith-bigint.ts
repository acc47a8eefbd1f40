/**
 * Big-integer arithmetic: + - * over float64 values that are whole (NaN is N/A). Every whole
 * number up to 2^53 is a float64, and a sum, difference or product whose exact value is within
 * ±(2^53 - 1) comes out of float64 arithmetic exact; one past it comes out at least 2^53, so
 * testing the result is enough to refuse every answer that would not be exact.
 */
import { AppError } from '../../shared/errors.js'
import { BIGINT_MAX } from '../columns/types.js'
import { floatArith } from './arith-float.js'
import type { IntOp } from './arith-int.js'

function overflow(x: number, op: IntOp, y: number): AppError {
  return new AppError(
    'CHECK_ERROR',
    `Big integer overflow: ${x} ${op} ${y} is past ±${BIGINT_MAX} (2^53 - 1), the range held exactly; write one side as a decimal (such as 1000.0) to compute approximately in decimals.`,
  )
}

/** a op b where either side may be a constant (never both), refusing results past ±(2^53 - 1). */
export function bigintArith(op: IntOp, a: Float64Array | number, b: Float64Array | number, n: number): Float64Array {
  const o = floatArith(op, a, b, n)
  for (let i = 0; i < n; i++) {
    const r = o[i]
    if (r > BIGINT_MAX || r < -BIGINT_MAX) throw overflow(typeof a === 'number' ? a : a[i], op, typeof b === 'number' ? b : b[i])
  }
  return o
}
