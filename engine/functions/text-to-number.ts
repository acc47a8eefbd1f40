/**
 * Numbers read from text, for int(X) on a text X. The 1010data Cookbook builds dates as text
 * and converts them with int(): int(splice(strpick(d;'/';3) strpick(d;'/';1)
 * strpick(d;'/';2);'')) turns '01/04/2015' into 20150104. A text that is not a plain decimal
 * number (optional sign, digits, optional fraction and exponent, spaces around) is N/A, never 0:
 * 'abc' or '12kg' have no number to give.
 */
import { intFromDictMap } from '../columns/index.js'
import { NA_INT, type TextColumn } from '../columns/types.js'

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** The number a text writes, or NaN when it writes none. */
export function parseDecimal(s: string): number {
  const t = s.trim()
  return DECIMAL.test(t) ? Number(t) : Number.NaN
}

/** int(X) of text: the number truncated toward zero; N/A when there is none or it leaves the int range. */
export function textToInt(x: TextColumn): Int32Array {
  return intFromDictMap(
    x,
    (s) => {
      const t = Math.trunc(parseDecimal(s))
      return (t | 0) === t && t !== NA_INT ? t : NA_INT
    },
    NA_INT,
  )
}
