/**
 * The one type inference of uploads: what a text cell looks like (a whole number, a number, a
 * YYYY-MM-DD date, text or N/A), which column type a column's cells suggest, and the cells as
 * values of that type. CSV columns go through cells.ts (the reader classifies most cells from
 * their characters, the rest by textKind); upload_table's JSON values use textKind for their
 * strings and columnTypeOf for the choice, so both kinds of upload infer alike.
 */
import { AppError } from '../errors.js'
import type { ColumnType } from '../table.js'
import { dashedYmd, plainYmd } from '../ymd.js'
import { bigintOfText } from '../bigint-text.js'

/** Kinds of a cell, small integers so a column's kinds fit a Uint8Array. */
export const NA = 0
export const INT = 1
export const FLOAT = 2
export const DATE = 3
export const TEXT = 4
/** A whole number past the 32-bit range, within ±(2^63 − 1): a big integer (`j`). */
export const BIG = 5
export type Kind = typeof NA | typeof INT | typeof FLOAT | typeof DATE | typeof TEXT | typeof BIG
/** How many kinds there are: the length of a column's `seen` flags. */
export const KINDS = 6

export const INT_MAX = 2147483647
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** What each type takes, for messages. */
export const TYPE_WORDS: Readonly<Record<ColumnType, string>> = {
  int: `a whole number between -${INT_MAX} and ${INT_MAX}`,
  bigint: 'a whole number between -9223372036854775807 and 9223372036854775807',
  float: 'a number',
  date: 'a date as YYYY-MM-DD or yyyymmdd',
  text: 'text or a number',
}

// The characters String.prototype.trim removes (and a few it keeps, harmlessly): only a cell
// that starts or ends with one pays for a trim.
export const isSpace = (c: number): boolean =>
  c <= 32 ||
  c === 0xa0 ||
  c === 0xfeff ||
  c === 0x2028 ||
  c === 0x2029 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x1680 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000

/** `v` trimmed, without a new string when there is nothing to trim. */
export function trimmed(v: string): string {
  return v.length > 0 && (isSpace(v.charCodeAt(0)) || isSpace(v.charCodeAt(v.length - 1))) ? v.trim() : v
}

/** The yyyymmdd of a (trimmed) YYYY-MM-DD text, or -1 (cells store it as a number). */
export const dashedDate = (t: string): number => dashedYmd(t) ?? -1

/** Whether a (trimmed) text is a date written yyyymmdd. */
export const plainDate = (t: string): boolean => plainYmd(t) !== null

/** The kind of a trimmed text. A whole number beyond 32 bits is a big integer, beyond 64 bits a float. */
export function textKind(t: string): Kind {
  if (t === '') return NA
  let k = 0
  const first = t.charCodeAt(0)
  if (first === 43 || first === 45) k = 1
  let digits = 0
  for (; k < t.length; k++) {
    const d = t.charCodeAt(k) - 48
    if (d < 0 || d > 9) break
    digits++
  }
  if (k === t.length && digits > 0) return digits <= 9 || Math.abs(Number(t)) <= INT_MAX ? INT : bigintOfText(t) !== null ? BIG : FLOAT
  if (FLOAT_TEXT.test(t)) return FLOAT
  return dashedDate(t) !== -1 ? DATE : TEXT
}

/**
 * The kind of a whole JSON number past the 32-bit range: a big integer while a float64 holds it
 * exactly, else a float (its digits were lost when the JSON was read: send such a value as a
 * string of digits to store it exactly).
 */
export const wholeKind = (v: number): Kind => (Number.isSafeInteger(v) ? BIG : FLOAT)

/**
 * The type a column's kinds suggest: text when any cell is text or none has a value; int or
 * bigint (whole numbers, some past 32 bits) or float for numbers; date for dates, also mixed with whole numbers when every one of them is a
 * yyyymmdd date (`numbersAreDates`, asked only then).
 */
export function columnTypeOf(seen: readonly boolean[], numbersAreDates: () => boolean): ColumnType {
  if (seen[TEXT] || !(seen[INT] || seen[FLOAT] || seen[DATE] || seen[BIG])) return 'text'
  if (!seen[DATE]) return seen[FLOAT] ? 'float' : seen[BIG] ? 'bigint' : 'int'
  if (seen[FLOAT] || seen[BIG] || (seen[INT] && !numbersAreDates())) return 'text'
  return 'date'
}

/** Says which cell did not fit: `row` from 0. */
export type WrongValue = (row: number, type: ColumnType) => AppError
