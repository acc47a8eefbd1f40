/**
 * Block-level versions of the text-building functions (functions/text-build.ts, text.ts), with
 * the same rules on values already evaluated: splice(L;D) joins the items of L with D, '' when
 * any item is '' (the N/A of text); strpick(X;D;N) is the Nth piece of X cut at D, '' when there
 * is none; strextract(X;S;L) is L characters from the 1-based position S; width(X) counts the
 * characters of X.
 */
import { ScalarError } from './errors.js'
import { num, str, toNumber, toText } from './scalar-value.js'
import type { Atom, Scalar } from './scalar-value.js'

/** splice(L;D): the items of L (a list or one value) joined with D. */
export function spliceScalar(list: Scalar, delimiter: Scalar): Atom {
  const items = (list.kind === 'list' ? list.items : [list]).map((a) => toText(a, 'splice'))
  return str(items.some((s) => s === '') ? '' : items.join(toText(delimiter, 'splice')))
}

/** strpick(X;D;N): piece N (from 1) of X cut at D. */
export function strpickScalar(x: Scalar, delimiter: Scalar, n: Scalar): Atom {
  const d = toText(delimiter, 'strpick')
  const k = toNumber(n, 'strpick')
  if (d === '') throw new ScalarError("strpick() needs a non-empty delimiter, such as '/'")
  if (!(k >= 1) || !Number.isInteger(k)) throw new ScalarError(`strpick() counts pieces from 1, not ${k}`)
  return str(toText(x, 'strpick').split(d)[k - 1] ?? '')
}

/** strextract(X;S;L): L characters from the 1-based position S (to the end without L). */
export function strextractScalar(x: Scalar, start: Scalar, length: Scalar | undefined): Atom {
  const s = toText(x, 'strextract')
  const from = Math.max(0, Math.floor(toNumber(start, 'strextract')) - 1)
  const to = length === undefined ? s.length : Math.floor(toNumber(start, 'strextract')) - 1 + Math.max(0, Math.floor(toNumber(length, 'strextract')))
  return str(s.slice(from, Math.max(from, to)))
}

/** width(X): the number of characters of X. */
export const widthScalar = (x: Scalar): Atom => num(toText(x, 'width').length)
