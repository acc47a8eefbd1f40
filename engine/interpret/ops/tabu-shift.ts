/**
 * Summaries of a column plus a constant, read off the column's own: for an int column x and a
 * whole number k, sum(x+k) is sum(x) + k·cnt(x), the extremes and edge values move by k, and the
 * counts stay. ClickBench's Q30 sums x+1 … x+89: folded, it is one pass over x instead of 89
 * columns made and summed.
 *
 * Only where the answer is the same bit for bit as summing x+k row by row:
 * - x is an int column and k a whole number (a float column's sums would round differently);
 * - an int x+k never leaves the int range (the evaluator would refuse it and the query run again
 *   with wide integers: x's extremes show it never does, or the column is made as before);
 * - every summing block's sum, and k times its count, stay within 2^53, where adding whole
 *   numbers as doubles is exact in any order, so both ways give the same exact block sums.
 */
import { literalType, type Expr } from '../../ast.js'
import { NA_INT, type Column } from '../../columns/types.js'
import type { PartState } from '../../summaries/fold.js'
import { FIRST, LAST, MAX, MIN, ROWS, SUM, VALID, type FoldPart, type StatePart } from '../../summaries/parts.js'
import type { Shift, Worksheet, WsColumn } from '../worksheet.js'

const INT_MAX = 2147483647
/** Whole numbers up to here add exactly as doubles. */
const EXACT = 2 ** 53

/**
 * `x+k`, `k+x` or `x-k` over an int column x and a whole-number literal k, as a Shift (null for
 * anything else). An int literal keeps the result int (and may overflow); a decimal one such as
 * SQL's compiled `x + 1.0` (sql/compile/expr.ts) makes it float, exactly x+k for int x.
 */
export function shiftOfSum(e: Expr, ws: Worksheet): Shift | null {
  if (e.kind !== 'Bin' || e.wide === true || (e.op !== '+' && e.op !== '-')) return null
  let col: Expr
  let num: Expr
  if (e.left.kind === 'Col' && e.right.kind === 'Num') [col, num] = [e.left, e.right]
  else if (e.op === '+' && e.left.kind === 'Num' && e.right.kind === 'Col') [col, num] = [e.right, e.left]
  else return null
  if (col.kind !== 'Col' || num.kind !== 'Num') return null
  const base = ws.column(col.name)
  const type = literalType(num)
  if (base === undefined || base.type !== 'int' || type === 'bigint') return null
  if (!Number.isInteger(num.value) || Math.abs(num.value) > INT_MAX) return null
  // + 0 turns a -0 literal into 0: x + -0.0 and x - 0.0 are x for every int x, 0 included.
  return { base, k: (e.op === '-' ? -num.value : num.value) + 0, type }
}

/** A summary's source as a shift of another column: a shifted willbe by name, or the sum itself. */
export function shiftOf(e: Expr, ws: Worksheet): Shift | null {
  if (e.kind === 'Col') return ws.column(e.name)?.shift ?? null
  return shiftOfSum(e, ws)
}

/** The parts a shifted source's summary may have: those that follow from x's by a shift. */
const SHIFTABLE: ReadonlySet<StatePart> = new Set<StatePart>([VALID, SUM, MIN, MAX, ROWS, FIRST, LAST])

/** The non-N/A count of each summing block, which a shifted sum needs beside the sum itself. */
export const BLOCK_VALID: FoldPart = { ...VALID, name: 'blockValid', summed: true }

/** The smallest and largest non-N/A value of an int column over the worksheet's rows (null: none). */
export function intRange(col: WsColumn): { min: number; max: number } | null {
  const { source, index } = col.view()
  const data = (source as { data: Int32Array }).data
  // N/A (-2^31) is below every value: it never counts as the largest, and is skipped for the smallest.
  let min = INT_MAX
  let max = NA_INT
  if (index === null) {
    for (let i = 0; i < data.length; i++) {
      const v = data[i]
      if (v > max) max = v
      if (v < min && v !== NA_INT) min = v
    }
  } else {
    for (let i = 0; i < index.length; i++) {
      const r = index[i]
      if (r < 0) continue
      const v = data[r]
      if (v > max) max = v
      if (v < min && v !== NA_INT) min = v
    }
  }
  return max === NA_INT ? null : { min, max }
}

/**
 * Whether the summary with `parts` may read x's parts instead of x+k's: every part shiftable, an
 * int x+k within range, and every block's sums exact.
 * @param rangeOfBase x's extremes (intRange), asked only when the parts allow a fold
 * @param starts where each summing block starts among the rows, plus the row count
 */
export function foldable(parts: readonly StatePart[], shift: Shift, rangeOfBase: () => { min: number; max: number } | null, starts: Int32Array): boolean {
  if (!parts.every((p) => SHIFTABLE.has(p))) return false
  const k = shift.k
  const sums = parts.includes(SUM)
  let longest = 0
  for (let b = 0; b + 1 < starts.length; b++) longest = Math.max(longest, starts[b + 1] - starts[b])
  // Every partial sum of x, of x+k, and k·count are at most rows × (largest |x| + |k|): ints are
  // within 2^31, so over short enough blocks the sums are exact without reading x.
  if (shift.type === 'float' && (!sums || longest * (INT_MAX + Math.abs(k)) <= EXACT)) return true
  const range = rangeOfBase()
  if (range === null) return true
  const { min, max } = range
  if (shift.type === 'int' && (min + k < -INT_MAX || max + k > INT_MAX)) return false
  return !sums || longest * (Math.max(Math.abs(min), Math.abs(max)) + Math.abs(k)) <= EXACT
}

/**
 * The column whose distinct values ucnt may count instead of those of `e`, when `e` is x+k
 * (shifting by k keeps values apart and N/A N/A): x, unless an int x+k could overflow (then null,
 * and `e` is made, refusing as it would).
 */
export function distinctSource(e: Expr, ws: Worksheet): WsColumn | null {
  const shift = shiftOf(e, ws)
  if (shift === null) return null
  const range = shift.type === 'int' ? intRange(shift.base) : null
  if (range !== null && (range.min + shift.k < -INT_MAX || range.max + shift.k > INT_MAX)) return null
  return shift.base
}

/** x's state of `part` as x+k's: block sums plus k × block counts, values moved by k, counts kept. */
export function shiftedState(part: StatePart, state: PartState, shift: Shift, blockCounts: PartState | null): PartState {
  if (part === SUM) {
    return state.map((v, b) => {
      const sums = v as Float64Array
      const counts = blockCounts![b] as Int32Array
      const out = new Float64Array(sums.length)
      for (let g = 0; g < out.length; g++) out[g] = sums[g] + shift.k * counts[g]
      return out
    })
  }
  if (part === MIN || part === MAX || part.kind === 'edge') return [shiftedColumn(state[0] as Column, shift)]
  return state
}

/** An int column's values plus k, as x+k's type: N/A stays N/A (NaN for a float). */
function shiftedColumn(col: Column, shift: Shift): Column {
  const ints = (col as { data: Int32Array }).data
  const k = shift.k
  if (shift.type === 'float') {
    const out = new Float64Array(ints.length)
    for (let i = 0; i < out.length; i++) out[i] = ints[i] === NA_INT ? Number.NaN : ints[i] + k
    return { type: 'float', data: out }
  }
  const out = new Int32Array(ints.length)
  for (let i = 0; i < out.length; i++) out[i] = ints[i] === NA_INT ? NA_INT : ints[i] + k
  return { type: 'int', data: out }
}
