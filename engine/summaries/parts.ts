/**
 * The per-group state a summary accumulates row by row, in parts that every evaluator of `<tabu>`
 * and of the decomposable g_ functions handles the same way (interpret/ops/tabu-groups.ts): a
 * whole worksheet, one range of a split run, and the merge of the ranges' partials
 * (parallel/merge.ts). A summary that accumulates (its SummaryDef's `accumulates`) names the
 * parts it needs and how its value follows from them; everything else is here, once.
 *
 * - `rows`: rows per group, which every grouping counts anyway.
 * - `edge`: the source's value at the group's first (or last) row, in the source's type.
 * - `fold`: a per-group vector that a block kernel adds rows into, in row order, and that
 *   merges by adding (counts, sums) or by keeping the smaller or larger (extremes). A `summed`
 *   fold is kept per summing block (parallel/blocks.ts) and its blocks are added in block order
 *   from zero, so that any split of the rows adds the same numbers in the same order.
 */
import { NA_INT, type Column } from '../columns/types.js'
import { bigintFromFloats, pastSafeRange, withinSafeRange } from '../columns/index.js'

export interface FoldPart {
  readonly kind: 'fold'
  /** Names the part's columns among a range's partials. */
  readonly name: string
  /**
   * What a row adds: its `value`; the `product` of value and weight (N/A when either is); or its
   * `weight` where the value is not N/A (the denominator of a weighted mean).
   */
  readonly reads: 'value' | 'product' | 'weight'
  /** The vector's type: counts are int, sums and extremes float (NaN: no value yet). */
  readonly vector: 'int' | 'float'
  readonly fill: number
  /**
   * Adds one run of rows to the vector: `slots[j]` is row j's group and `x[off + j]` its value
   * as a double, N/A as NaN.
   */
  add(slots: Int32Array, x: Float64Array, off: number, len: number, acc: Int32Array | Float64Array): void
  /**
   * The same for rows that are all in group 0 (a tabulation without breaks): `add` with every
   * slot 0, the same additions in the same order, kept in a local rather than stored each row.
   */
  addToOne(x: Float64Array, off: number, len: number, acc: Int32Array | Float64Array): void
  /** How two ranges' vectors combine: their sum, or the smaller or larger value. */
  readonly merge: 'add' | 'min' | 'max'
  /** Kept per summing block (only sums need it: their order of addition changes their bits). */
  readonly summed: boolean
  /** The final vector is read in the source's type (an extreme is one of the values). */
  readonly sourceTyped: boolean
  /**
   * Whether ranges' vectors over a text source merge. A count does; so does an extreme, whose
   * codes travel with their range's dictionary and are put on one (parallel/merge.ts); a sum of
   * text is refused by the checker, and a split run declines it (parallel/aggregate.ts).
   */
  readonly mergesText: boolean
}

export interface RowsPart {
  readonly kind: 'rows'
  readonly name: 'rows'
}

export interface EdgePart {
  readonly kind: 'edge'
  readonly name: 'first' | 'last'
  readonly last: boolean
}

export type StatePart = FoldPart | RowsPart | EdgePart

// --- Block kernels ---------------------------------------------------------------------------
//
// Rows arrive in row order, so every group adds its values in the same order whatever groups
// them (direct slots or group ids), and the results are bit-identical.

/** acc[slot] += value, N/A left out. */
function sumBlock(slots: Int32Array, x: Float64Array, off: number, len: number, s: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    // Adding +0 for N/A changes nothing: a sum that starts at +0 can never become -0. Without a
    // branch, scattered N/A costs no mispredictions.
    s[slots[j]] += v === v ? v : 0
  }
}

/** acc[slot] += value², N/A left out (for var and stdev). */
function squaresBlock(slots: Int32Array, x: Float64Array, off: number, len: number, s: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    s[slots[j]] += v === v ? v * v : 0
  }
}

/** acc[slot] counts the non-N/A values. */
function countValidBlock(slots: Int32Array, x: Float64Array, off: number, len: number, n: Int32Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    n[slots[j]] += v === v ? 1 : 0
  }
}

/**
 * best[slot] = the smallest non-N/A value so far (NaN until there is one). Ties keep the earlier
 * value, which matters only for 0 and -0.
 */
function minBlock(slots: Int32Array, x: Float64Array, off: number, len: number, best: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    const g = slots[j]
    const b = best[g]
    if (v < b || (b !== b && v === v)) best[g] = v
  }
}

/** best[slot] = the largest non-N/A value so far (NaN until there is one); ties as minBlock. */
function maxBlock(slots: Int32Array, x: Float64Array, off: number, len: number, best: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    const g = slots[j]
    const b = best[g]
    if (v > b || (b !== b && v === v)) best[g] = v
  }
}

/** The block kernels for one group: a local accumulator, no slot read or store per row. */

function sumOne(x: Float64Array, off: number, len: number, s: Float64Array): void {
  let sum = s[0]
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    sum += v === v ? v : 0
  }
  s[0] = sum
}

function squaresOne(x: Float64Array, off: number, len: number, s: Float64Array): void {
  let sum = s[0]
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    sum += v === v ? v * v : 0
  }
  s[0] = sum
}

function countValidOne(x: Float64Array, off: number, len: number, n: Int32Array): void {
  let count = 0
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    count += v === v ? 1 : 0
  }
  n[0] += count
}

function minOne(x: Float64Array, off: number, len: number, best: Float64Array): void {
  let b = best[0]
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    if (v < b || (b !== b && v === v)) b = v
  }
  best[0] = b
}

function maxOne(x: Float64Array, off: number, len: number, best: Float64Array): void {
  let b = best[0]
  for (let j = 0; j < len; j++) {
    const v = x[off + j]
    if (v > b || (b !== b && v === v)) b = v
  }
  best[0] = b
}

// --- The parts -------------------------------------------------------------------------------

export const ROWS: RowsPart = { kind: 'rows', name: 'rows' }
export const FIRST: EdgePart = { kind: 'edge', name: 'first', last: false }
export const LAST: EdgePart = { kind: 'edge', name: 'last', last: true }

const fold = (p: Omit<FoldPart, 'kind' | 'reads'> & Partial<Pick<FoldPart, 'reads'>>): FoldPart => ({ kind: 'fold', reads: 'value', ...p })

/** Non-N/A values per group. */
export const VALID = fold({
  name: 'valid',
  vector: 'int',
  fill: 0,
  add: countValidBlock,
  addToOne: countValidOne,
  merge: 'add',
  summed: false,
  sourceTyped: false,
  mergesText: true,
})
/** Sum of the non-N/A values per group (0 when none). */
export const SUM = fold({
  name: 'sum',
  vector: 'float',
  fill: 0,
  add: sumBlock,
  addToOne: sumOne,
  merge: 'add',
  summed: true,
  sourceTyped: false,
  mergesText: false,
})
/** Sum of the squares of the non-N/A values per group (0 when none). */
export const SQUARES = fold({
  name: 'squares',
  vector: 'float',
  fill: 0,
  add: squaresBlock,
  addToOne: squaresOne,
  merge: 'add',
  summed: true,
  sourceTyped: false,
  mergesText: false,
})
/** Sum of value × weight per group, rows where either is N/A left out (0 when none): SUM of other values. */
export const PRODUCTS: FoldPart = { ...SUM, name: 'products', reads: 'product' }
/** Sum of the weights of the rows whose value and weight are not N/A (0 when none). */
export const WEIGHTS: FoldPart = { ...SUM, name: 'weights', reads: 'weight' }
export const MIN = fold({
  name: 'min',
  vector: 'float',
  fill: Number.NaN,
  add: minBlock,
  addToOne: minOne,
  merge: 'min',
  summed: false,
  sourceTyped: true,
  mergesText: true,
})
export const MAX = fold({
  name: 'max',
  vector: 'float',
  fill: Number.NaN,
  add: maxBlock,
  addToOne: maxOne,
  merge: 'max',
  summed: false,
  sourceTyped: true,
  mergesText: true,
})

// --- Reading the parts back ------------------------------------------------------------------

/** A part's final per-group values: counts and sums as vectors, extremes and edges as columns. */
export type PartValue = Int32Array | Float64Array | Column

/**
 * Doubles (NaN = N/A) back in a column's type; text keeps the column's dictionary (its codes were
 * read as doubles, and codes order like the strings).
 */
export function asTypeOf(like: Column, x: Float64Array): Column {
  if (like.type === 'float') return { type: like.type, data: x }
  if (like.type === 'bigint') {
    // Read as doubles, big integers past ±2^53 may have been rounded: refused rather than answered.
    if (!withinSafeRange(like.data)) throw pastSafeRange('The smallest or largest of big integers in a tabulation')
    return bigintFromFloats(x)
  }
  const na = like.type === 'text' ? 0 : NA_INT
  const ints = new Int32Array(x.length)
  for (let i = 0; i < x.length; i++) ints[i] = x[i] !== x[i] ? na : x[i]
  return like.type === 'text' ? { type: 'text', codes: ints, dict: like.dict } : { type: like.type, data: ints }
}

export const intsOf = (v: PartValue): Int32Array => v as Int32Array
export const floatsOf = (v: PartValue): Float64Array => v as Float64Array
export const columnOf = (v: PartValue): Column => v as Column
