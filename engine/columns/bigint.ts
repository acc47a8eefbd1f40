/**
 * Big integers (`j`) beside the kernels written for numbers. A BigInt64Array is read here through
 * an Int32Array over the same bytes (word 2i the low half, 2i+1 the signed high half: every
 * platform Node runs on is little-endian), so conversions and tests run on plain numbers, without a
 * BigInt made per value. A kernel whose result is a decimal reads big integers as the nearest
 * float64 (as SQLite does); one whose result is a big integer reads them exactly (`exactFloats`,
 * or BigInt arithmetic past ±2^53).
 */
import { AppError } from '../../shared/errors.js'
import { NA_BIGINT, NA_FLOAT, NA_INT, SAFE_INT_MAX, type BigIntColumn, type FloatColumn, type IntColumn } from './types.js'

const TWO_32 = 4294967296
/** The high word of NA_BIGINT (its low word is 0). */
const NA_HI = -2147483648

/** The Int32 words of a big integer array, over the same memory (two per value, low first). */
export const bigintWords = (data: BigInt64Array): Int32Array => new Int32Array(data.buffer, data.byteOffset, data.length * 2)

/** A big-integer column over `data` (not copied). NA_BIGINT marks N/A. */
export const bigintColumn = (data: BigInt64Array): BigIntColumn => ({ type: 'bigint', data })

/** Whether word pair (lo, hi) is N/A. */
export const isNaWords = (lo: number, hi: number): boolean => hi === NA_HI && lo === 0

/**
 * The nearest float64 to each value, N/A as NaN: exact within ±2^53, rounded once past it (the
 * high word times 2^32 is exact, so the sum rounds once). For kernels whose answer is a decimal.
 */
export function bigintToFloats(data: BigInt64Array): Float64Array {
  const w = bigintWords(data)
  const out = new Float64Array(data.length)
  for (let i = 0; i < out.length; i++) {
    const lo = w[2 * i]
    const hi = w[2 * i + 1]
    out[i] = hi === NA_HI && lo === 0 ? NA_FLOAT : hi * TWO_32 + (lo >>> 0)
  }
  return out
}

/** Whether every value lies within ±(2^53 − 1), where a float64 holds it exactly (N/A counts as inside). */
export function withinSafeRange(data: BigInt64Array): boolean {
  const w = bigintWords(data)
  for (let i = 0; i < data.length; i++) {
    const hi = w[2 * i + 1]
    // |v| < 2^53 exactly when the high word is within [−2^21, 2^21): one word test per value.
    if (hi >= 2097152 || hi < -2097152) {
      if (hi === NA_HI && w[2 * i] === 0) continue
      return false
    }
    // −2^53 itself has high word −2^21 and low word 0: outside the symmetric range.
    if (hi === -2097152 && w[2 * i] === 0) return false
  }
  return true
}

/**
 * The values as float64, exact: for a kernel that computes a big integer in float64 arithmetic.
 * A value past ±(2^53 − 1) is refused with `what` naming the computation (no rounded answer).
 */
export function exactFloats(data: BigInt64Array, what: string): Float64Array {
  if (!withinSafeRange(data)) throw pastSafeRange(what)
  return bigintToFloats(data)
}

export function pastSafeRange(what: string): AppError {
  return new AppError(
    'CHECK_ERROR',
    `${what} is computed exactly only for big integers within ±${SAFE_INT_MAX} (2^53 − 1), and a value is past it; convert the column to a decimal (such as x * 1.0) to compute approximately.`,
  )
}

/**
 * Whole float64 values (NaN for N/A) as big integers. Values must be whole and within ±2^63; a
 * caller that computed them checks the range first (every whole float64 within ±(2^53 − 1) is
 * converted exactly; past it, the float's own value).
 */
export function bigintFromFloats(values: Float64Array): BigIntColumn {
  const data = new BigInt64Array(values.length)
  const w = bigintWords(data)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v !== v) {
      w[2 * i + 1] = NA_HI
      continue
    }
    const hi = Math.floor(v / TWO_32)
    w[2 * i] = v - hi * TWO_32
    w[2 * i + 1] = hi
  }
  return bigintColumn(data)
}

/** An int or date column as big integers (NA_INT becomes NA_BIGINT). */
export function intToBigint(col: IntColumn): BigIntColumn {
  const src = col.data
  const data = new BigInt64Array(src.length)
  const w = bigintWords(data)
  for (let i = 0; i < src.length; i++) {
    const v = src[i]
    if (v === NA_INT) {
      w[2 * i + 1] = NA_HI
    } else {
      w[2 * i] = v
      w[2 * i + 1] = v < 0 ? -1 : 0
    }
  }
  return bigintColumn(data)
}

/** A big-integer column as decimals (the nearest float64 to each value). */
export const bigintToFloat = (col: BigIntColumn): FloatColumn => ({ type: 'float', data: bigintToFloats(col.data) })

/** Whether a big integer is N/A. */
export const isNaBigint = (v: bigint): boolean => v === NA_BIGINT

/** A big-integer array of `rows` N/A values. */
export const naBigints = (rows: number): BigInt64Array => new BigInt64Array(rows).fill(NA_BIGINT)
