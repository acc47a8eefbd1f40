/**
 * strfollow(X;Y;B): the 1-based position of the first character where X and Y differ (a
 * string that ends first differs just past its end), 0 when they are equal. Case is ignored if
 * and only if B is 0. N/A rules as 1010data documents them: both N/A gives 0, one N/A gives 1.
 * Positions count Unicode code points; case folding is per code point (toLowerCase).
 */
import type { Column } from '../columns/types.js'

const fold = (c: string, ci: boolean): string => (ci ? c.toLowerCase() : c)

/** strfollow of one pair of non-N/A strings. */
export function followPosition(x: string, y: string, ci: boolean): number {
  const a = Array.from(x)
  const b = Array.from(y)
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (fold(a[i], ci) !== fold(b[i], ci)) return i + 1
  return a.length === b.length ? 0 : n + 1
}

/** strfollow over whole columns (X and Y text, B a number column). */
export function strfollow(x: Column & { type: 'text' }, y: Column & { type: 'text' }, b: Column, rows: number): Int32Array {
  const out = new Int32Array(rows)
  for (let r = 0; r < rows; r++) {
    const xs = x.dict[x.codes[r]]
    const ys = y.dict[y.codes[r]]
    if (xs === '' || ys === '') {
      out[r] = xs === ys ? 0 : 1
      continue
    }
    // Only a B of exactly 0 ignores case; N/A (NaN, NA_INT) is not 0, so it does not.
    out[r] = followPosition(xs, ys, b.type !== 'text' && b.data[r] === 0)
  }
  return out
}
