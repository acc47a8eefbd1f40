/**
 * Comparisons of big integers, exact over the whole 64-bit range, with the N/A rules of every
 * comparison (compare-loops.ts): `=` matches N/A with N/A, orderings with an N/A operand give 0.
 * Two big integers compare by their words (the high word signed, then the low word unsigned).
 * A big integer x against a decimal y compares as floats, and that is exact: rounding is
 * monotone, so when the float nearest x differs from y it lies on x's side of y; only when it
 * equals y (a whole number, when past 2^53) are x and y compared as integers.
 */
import { bigintWords } from '../columns/bigint.js'
import type { CmpOp } from './compare-loops.js'

const TWO_32 = 4294967296
const NA_HI = -2147483648

/** The 0/1 answer of `op` from an order (−1, 0, 1) of two values, when neither is N/A. */
function answer(op: CmpOp, order: number): number {
  switch (op) {
    case '=':
      return +(order === 0)
    case '<>':
      return +(order !== 0)
    case '<':
      return +(order < 0)
    case '>':
      return +(order > 0)
    case '<=':
      return +(order <= 0)
    case '>=':
      return +(order >= 0)
  }
}

/** `op` with one or both operands N/A: only `=` (both) and `<>` (one) hold. */
const withNA = (op: CmpOp, bothNA: boolean): number => (op === '=' ? +bothNA : op === '<>' ? +!bothNA : 0)

/** a op b over big integers; b a column or a constant (NA_BIGINT for N/A). */
export function compareBigints(op: CmpOp, a: BigInt64Array, b: BigInt64Array | bigint, n: number): Int32Array {
  const aw = bigintWords(a)
  const bw = typeof b === 'bigint' ? bigintWords(new BigInt64Array(n === 0 ? 0 : 1).fill(b)) : bigintWords(b)
  const step = typeof b === 'bigint' ? 0 : 2
  if (op === '=' || op === '<>') return equalWords(aw, bw, step, n, op === '<>')
  const o = new Int32Array(n)
  for (let i = 0, j = 0; i < n; i++, j += step) {
    const ah = aw[2 * i + 1]
    const al = aw[2 * i] >>> 0
    const bh = bw[j + 1]
    const bl = bw[j] >>> 0
    const aNA = ah === NA_HI && al === 0
    const bNA = bh === NA_HI && bl === 0
    if (aNA || bNA) {
      o[i] = withNA(op, aNA && bNA)
      continue
    }
    o[i] = answer(op, ah < bh ? -1 : ah > bh ? 1 : al < bl ? -1 : al > bl ? 1 : 0)
  }
  return o
}

/**
 * = and <> are equality of both words, N/A rules included: N/A is one bit pattern, equal to
 * itself and to no value. No order is worked out, so no branch per row.
 */
function equalWords(aw: Int32Array, bw: Int32Array, step: number, n: number, negate: boolean): Int32Array {
  const o = new Int32Array(n)
  const flip = +negate
  for (let i = 0, j = 0; i < n; i++, j += step) o[i] = (+(aw[2 * i] === bw[j]) & +(aw[2 * i + 1] === bw[j + 1])) ^ flip
  return o
}

/** a op b for big integers a and decimals b (a column, or a constant; NaN is N/A). */
export function compareBigintFloat(op: CmpOp, a: BigInt64Array, b: Float64Array | number, n: number): Int32Array {
  const o = new Int32Array(n)
  const aw = bigintWords(a)
  for (let i = 0; i < n; i++) {
    const hi = aw[2 * i + 1]
    const lo = aw[2 * i]
    const y = typeof b === 'number' ? b : b[i]
    const aNA = hi === NA_HI && lo === 0
    if (aNA || y !== y) {
      o[i] = withNA(op, aNA && y !== y)
      continue
    }
    const x = hi * TWO_32 + (lo >>> 0)
    if (x !== y) {
      o[i] = answer(op, x < y ? -1 : 1)
      continue
    }
    // x rounds to y: within ±2^53 that is equality, past it y is whole and compares exactly.
    const exact = a[i]
    const whole = BigInt(y)
    o[i] = answer(op, exact < whole ? -1 : exact > whole ? 1 : 0)
  }
  return o
}
