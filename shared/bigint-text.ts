/**
 * Whole numbers written as text, read as 64-bit integers (`j`): digits with an optional sign, within
 * ±(2^63 − 1) (−2^63 is the type's N/A and cannot be written). Every door that reads integers from
 * text (CSV, inline tables, JSON digits) reads them here, so all agree on what is one.
 */
import { BIGINT_MAX } from './table.js'

const WHOLE = /^[+-]?\d+$/

/** The integer `text` writes, or null when it is no whole number within the big-integer range. */
export function bigintOfText(text: string): bigint | null {
  if (!WHOLE.test(text)) return null
  const v = BigInt(text)
  return v > BIGINT_MAX || v < -BIGINT_MAX ? null : v
}
