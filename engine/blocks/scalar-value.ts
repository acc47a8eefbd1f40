/**
 * Values of block-level `{…}` expressions and the conversions between them. Variables always
 * hold text; arithmetic reads text that looks like a number as that number.
 */
import { ScalarError } from './errors.js'

/** One value: a number or a text. */
export type Atom = { readonly kind: 'num'; readonly value: number } | { readonly kind: 'str'; readonly value: string }
/** A block-expression value: one value or a list of them (`'a' 'b'`, str_to_lst). */
export type Scalar = Atom | { readonly kind: 'list'; readonly items: readonly Atom[] }

const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/** Value constructors. */
export const num = (value: number): Atom => ({ kind: 'num', value })
export const str = (value: string): Atom => ({ kind: 'str', value })
export const bool = (b: boolean): Atom => num(b ? 1 : 0)

/** Whether a text reads as a number (`12`, `-3.5`, `1e3`). */
export function isNumericText(s: string): boolean {
  return NUMERIC.test(s)
}

/** The value as one item; lists are refused with `what` naming the use. */
export function atomOf(v: Scalar, what: string): Atom {
  if (v.kind === 'list') throw new ScalarError(`${what} needs a single value, not a list`)
  return v
}

/** Whole numbers past this are not all exact as doubles, which block expressions compute in. */
const SAFE = Number.MAX_SAFE_INTEGER
const WHOLE = /^\s*[+-]?\d+\s*$/

/** The value as a number; text must look like one (a whole number within ±(2^53 − 1), if whole). */
export function toNumber(v: Scalar, what: string): number {
  const a = atomOf(v, what)
  if (a.kind === 'num') return a.value
  if (!isNumericText(a.value)) throw new ScalarError(`${what} needs a number, not the text ${quote(a.value)}`)
  const n = Number(a.value)
  if (Math.abs(n) > SAFE && WHOLE.test(a.value))
    throw new ScalarError(
      `${what}: ${a.value.trim()} is past ±${SAFE} (2^53 − 1), where a block expression's arithmetic would round it; compute with it in the query itself (a willbe), which holds 64-bit integers exactly`,
    )
  return n
}

/** The value as text; numbers are written as they would be inserted. */
export function toText(v: Scalar, what: string): string {
  const a = atomOf(v, what)
  return a.kind === 'str' ? a.value : formatNumber(a.value)
}

/** True for a non-zero number or numeric text; empty text is false; other text is an error. */
export function isTrue(v: Scalar, what: string): boolean {
  const a = atomOf(v, what)
  if (a.kind === 'str' && a.value.trim() === '') return false
  return toNumber(a, what) !== 0
}

/** The shortest text of a number, as inserted into the query. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new ScalarError('the result is not a finite number')
  // Past 2^53 a double is whole and prints as digits (below 1e21) that the query would read as an
  // exact integer, though it may be rounded.
  if (Math.abs(n) > SAFE && Math.abs(n) < 1e21)
    throw new ScalarError(
      `the result ${String(n)} is past ±${SAFE} (2^53 − 1), where a block expression's arithmetic may have rounded it; compute it in the query itself (a willbe), which holds 64-bit integers exactly`,
    )
  return Object.is(n, -0) ? '0' : String(n)
}

/** The text that replaces `{…}`: text as is, numbers shortest, lists space-separated. */
export function formatScalar(v: Scalar): string {
  if (v.kind === 'list') return v.items.map(formatScalar).join(' ')
  return v.kind === 'str' ? v.value : formatNumber(v.value)
}

/** A text quoted for messages. */
export function quote(s: string): string {
  return `'${s.length > 40 ? `${s.slice(0, 40)}…` : s}'`
}
