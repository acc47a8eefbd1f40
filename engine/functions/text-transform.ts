/**
 * Text functions that build text or numbers from text: case, trimming, length, substrings and
 * fixed-width padding. Each runs once per dictionary entry (textFromDictMap / intFromDictMap).
 * Positions and lengths count UTF-16 code units, as JavaScript strings do.
 */
import { intFromDictMap, textFromDictMap, usedCodes } from '../columns/index.js'
import { checkTextBuilt, checkTextWidth } from './text-limits.js'
import { NA_INT, type Column, type TextColumn } from '../columns/types.js'

/** The text-to-text functions that take only X. */
export type TextMap = 'strupcase' | 'strdowncase' | 'strtrim'

/** strupcase / strdowncase / strtrim. */
export function mapText(name: TextMap, x: TextColumn): Column {
  if (name === 'strupcase') return textFromDictMap(x, (s) => s.toUpperCase())
  if (name === 'strdowncase') return textFromDictMap(x, (s) => s.toLowerCase())
  return textFromDictMap(x, (s) => s.trim())
}

/** strlen: the length of each value; N/A for N/A. */
export function textLength(x: TextColumn): Column {
  return { type: 'int', data: intFromDictMap(x, (s) => s.length, NA_INT) }
}

/**
 * substr(X;start;len): `len` characters from the 1-based position `start` (to the end when len
 * is omitted). A start before 1 counts from 1; a substring that is empty is N/A.
 */
export function substring(x: TextColumn, start: number, len: number | null): Column {
  const from = Math.max(0, Math.floor(start) - 1)
  const to = len === null ? Infinity : Math.floor(start) - 1 + Math.max(0, Math.floor(len))
  return textFromDictMap(x, (s) => s.slice(from, Math.max(from, to)))
}

/**
 * padright(X;N): X in a field of N characters, aligned left: its first N characters, padded
 * with spaces on the right. padleft(X;N): aligned right: its last N characters, padded with
 * spaces on the left. (The K-style `N$x` and `-N$x`; with account numbers, padright(account;4)
 * is the 4-digit prefix that `=5391` tests.)
 */
export function pad(x: TextColumn, width: number, side: 'left' | 'right'): Column {
  const fn = side === 'left' ? 'padleft' : 'padright'
  checkTextWidth(fn, 'N', width)
  const w = Math.max(0, Math.floor(width))
  checkTextBuilt(fn, distinctValues(x), w)
  if (side === 'right') return textFromDictMap(x, (s) => s.slice(0, w).padEnd(w, ' '))
  return textFromDictMap(x, (s) => (s.length >= w ? s.slice(s.length - w) : s.padStart(w, ' ')))
}

/** How many distinct non-N/A values the rows of `x` hold (what textFromDictMap builds one text for). */
function distinctValues(x: TextColumn): number {
  if (x.dict.length <= 2 * x.codes.length) return x.dict.length - 1
  const used = usedCodes(x)
  let n = 0
  for (let c = 1; c < used.length; c++) n += used[c]
  return n
}
