/**
 * Big-integer arithmetic: + - * over signed 64-bit values (NA_BIGINT is N/A), exact, with a
 * result past ±(2^63 − 1) refused as an overflow rather than wrapped. Most values are small: while
 * both operands and the result lie within ±(2^53 − 1) the value is computed in float64, which is
 * exact there; only the rest are computed as BigInts.
 */
import { AppError } from '../../shared/errors.js'
import { bigintWords } from '../columns/bigint.js'
import { BIGINT_MAX, NA_BIGINT } from '../columns/types.js'
import type { IntOp } from './arith-int.js'

const TWO_32 = 4294967296
const SAFE = Number.MAX_SAFE_INTEGER
const NA_HI = -2147483648

function overflow(x: bigint, op: IntOp, y: bigint): AppError {
  return new AppError(
    'CHECK_ERROR',
    `Big integer overflow: ${x} ${op} ${y} is past ±${BIGINT_MAX} (2^63 − 1), the range of a big integer; write one side as a decimal (such as 1000.0) to compute approximately in decimals.`,
  )
}

/** An operand: a column of big integers, or one constant. */
export type BigintOperand = BigInt64Array | bigint

/** a op b where either side may be a constant (never both). */
export function bigintArith(op: IntOp, a: BigintOperand, b: BigintOperand, n: number): BigInt64Array {
  const out = new BigInt64Array(n)
  const ow = bigintWords(out)
  const aw = typeof a === 'bigint' ? null : bigintWords(a)
  const bw = typeof b === 'bigint' ? null : bigintWords(b)
  const ac = typeof a === 'bigint' ? a : 0n
  const bc = typeof b === 'bigint' ? b : 0n
  // A constant's float value, or NaN where it is N/A or past ±2^53 (every row then goes exact).
  const af = typeof a === 'bigint' ? safeFloat(a) : 0
  const bf = typeof b === 'bigint' ? safeFloat(b) : 0
  if (ac === NA_BIGINT || bc === NA_BIGINT) return out.fill(NA_BIGINT)
  for (let i = 0; i < n; i++) {
    let x = af
    let y = bf
    if (aw !== null) {
      const lo = aw[2 * i]
      const hi = aw[2 * i + 1]
      if (hi === NA_HI && lo === 0) {
        ow[2 * i + 1] = NA_HI
        continue
      }
      x = hi >= -2097152 && hi < 2097152 ? hi * TWO_32 + (lo >>> 0) : NaN
    }
    if (bw !== null) {
      const lo = bw[2 * i]
      const hi = bw[2 * i + 1]
      if (hi === NA_HI && lo === 0) {
        ow[2 * i + 1] = NA_HI
        continue
      }
      y = hi >= -2097152 && hi < 2097152 ? hi * TWO_32 + (lo >>> 0) : NaN
    }
    const r = op === '+' ? x + y : op === '-' ? x - y : x * y
    if (r <= SAFE && r >= -SAFE) {
      // r is whole and exact: write its two words.
      const h = Math.floor(r / TWO_32)
      ow[2 * i] = r - h * TWO_32
      ow[2 * i + 1] = h
    } else {
      // NaN (an operand past ±2^53) or a result past it: compute exactly.
      const xb = aw === null ? ac : (a as BigInt64Array)[i]
      const yb = bw === null ? bc : (b as BigInt64Array)[i]
      const exact = op === '+' ? xb + yb : op === '-' ? xb - yb : xb * yb
      if (exact > BIGINT_MAX || exact < -BIGINT_MAX) throw overflow(xb, op, yb)
      out[i] = exact
    }
  }
  return out
}

/** A big integer as a float64 when that is exact (within ±(2^53 − 1)), else NaN. */
function safeFloat(v: bigint): number {
  const f = Number(v)
  return f <= SAFE && f >= -SAFE ? f : NaN
}

/** −x for every value; N/A stays N/A (−(2^63 − 1) … 2^63 − 1 is symmetric, so nothing overflows). */
export function bigintNegate(a: BigInt64Array, n: number): BigInt64Array {
  const out = new BigInt64Array(n)
  const aw = bigintWords(a)
  const ow = bigintWords(out)
  for (let i = 0; i < n; i++) {
    const lo = aw[2 * i]
    const hi = aw[2 * i + 1]
    if (hi === NA_HI && lo === 0) {
      ow[2 * i + 1] = NA_HI
      continue
    }
    // Two's complement: invert both words and add one, carrying into the high word.
    const nlo = (~lo + 1) | 0
    ow[2 * i] = nlo
    ow[2 * i + 1] = (~hi + (nlo === 0 ? 1 : 0)) | 0
  }
  return out
}
