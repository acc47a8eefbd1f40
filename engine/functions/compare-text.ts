/**
 * Text comparisons on codes. Two columns are put on one dictionary first; a column against a
 * constant becomes a code comparison against the constant's position in the sorted
 * dictionary (found once by binary search), so no string is touched per row. Text N/A is ''
 * (code 0): '' = '' is 1, and an ordering with '' on either side is 0.
 */
import { lowerBound, lookupCode, unifyText, upperBound } from '../columns/index.js'
import type { TextColumn } from '../columns/types.js'
import { compareInt32, compareInt32Const, type CmpOp } from './compare-loops.js'

/** a op b, row by row. */
export function compareTextColumns(op: CmpOp, a: TextColumn, b: TextColumn, n: number): Int32Array {
  const [x, y] = unifyText(a, b)
  return compareInt32(op, x.codes, y.codes, n, 0)
}

/** a op s for a constant string s. */
export function compareTextConst(op: CmpOp, a: TextColumn, s: string, n: number): Int32Array {
  const { codes, dict } = a
  if (op === '=' || op === '<>') {
    const code = lookupCode(dict, s) // -1 when absent: equal to no row
    return compareInt32Const(op, codes, code, n, 0)
  }
  if (s === '') return new Int32Array(n) // ordering against N/A
  // Entries before lowerBound are < s, entries from upperBound on are > s.
  switch (op) {
    case '<':
      return compareInt32Const('<', codes, lowerBound(dict, s), n, 0)
    case '<=':
      return compareInt32Const('<', codes, upperBound(dict, s), n, 0)
    case '>':
      return compareInt32Const('>=', codes, upperBound(dict, s), n, 0)
    default:
      return compareInt32Const('>=', codes, lowerBound(dict, s), n, 0)
  }
}
