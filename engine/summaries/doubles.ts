/**
 * A summary's source read a run of rows at a time as doubles, N/A as NaN: the form every fold
 * kernel (parts.ts) takes. A stored float column is read in place; anything else is converted
 * into a scratch run small enough to stay in the fast caches. Text reads as its codes (code 0,
 * text N/A, as NaN): codes order like the strings.
 */
import { bigintToFloats } from '../columns/index.js'
import { NA_INT, type Column } from '../columns/types.js'

/** A column as the worksheet sees it: `source` read through `index` (-1: no row, N/A), or in place. */
export interface SourceView {
  readonly source: Column
  readonly index: Int32Array | null
}

/**
 * Rows per run: a run's slots (16 KB) and converted values (32 KB) stay in the fast caches while
 * each summary reads them.
 */
export const RUN_ROWS = 4096

/** Rows read a run at a time as doubles (N/A as NaN) into a fixed array. */
export interface RowRuns {
  /** Where `load` puts the rows; fixed, so callers may read it before calling `load`. */
  readonly array: Float64Array
  /** Makes rows start … start+len-1 (len ≤ RUN_ROWS) readable in `array`; returns the offset of row `start`. */
  load(start: number, len: number): number
}

export class DoubleRuns implements RowRuns {
  /** Where `load` puts the rows; fixed, so callers may read it before calling `load`. */
  readonly array: Float64Array

  /** The source as doubles when it is a float column, or big integers read once as their nearest doubles. */
  private readonly floats: Float64Array | null

  constructor(private readonly view: SourceView) {
    const { source, index } = view
    // Sums and means of big integers are decimals; an extreme kept in the source's type is checked
    // for exactness where it is made back into big integers (parts.ts asTypeOf).
    this.floats = source.type === 'float' ? source.data : source.type === 'bigint' ? bigintToFloats(source.data) : null
    this.array = this.floats !== null && index === null ? this.floats : new Float64Array(RUN_ROWS)
  }

  /** Makes rows start … start+len-1 (len ≤ RUN_ROWS) readable in `array`; returns the offset of row `start`. */
  load(start: number, len: number): number {
    const { source, index } = this.view
    if (this.floats !== null) {
      if (index === null) return start
      floatsThrough(this.floats, index, start, len, this.array)
    } else if (source.type !== 'float' && source.type !== 'bigint') {
      const ints = source.type === 'text' ? source.codes : source.data
      const na = source.type === 'text' ? 0 : NA_INT
      if (index === null) intsAsDoubles(ints, na, start, len, this.array)
      else intsAsDoublesThrough(ints, na, index, start, len, this.array)
    }
    return 0
  }
}

// One monomorphic loop per case: V8 compiles each for one array type and no per-row test of
// which case it is. An index entry of -1 is a row with no source row (N/A).

function floatsThrough(src: Float64Array, index: Int32Array, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const r = index[start + j]
    out[j] = r < 0 ? Number.NaN : src[r]
  }
}

function intsAsDoubles(src: Int32Array, na: number, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = src[start + j]
    out[j] = v === na ? Number.NaN : v
  }
}

function intsAsDoublesThrough(src: Int32Array, na: number, index: Int32Array, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const r = index[start + j]
    const v = r < 0 ? na : src[r]
    out[j] = v === na ? Number.NaN : v
  }
}

/**
 * A value and its weight read together, a run at a time: their product (NaN when either is N/A),
 * or the weight where both are there. Weighted summaries fold these as plain sums.
 */
export class WeightedRuns implements RowRuns {
  readonly array = new Float64Array(RUN_ROWS)
  private readonly value: DoubleRuns
  private readonly weight: DoubleRuns

  constructor(
    value: SourceView,
    weight: SourceView,
    private readonly reads: 'product' | 'weight',
  ) {
    this.value = new DoubleRuns(value)
    this.weight = new DoubleRuns(weight)
  }

  load(start: number, len: number): number {
    const x = this.value.array
    const w = this.weight.array
    const xo = this.value.load(start, len)
    const wo = this.weight.load(start, len)
    if (this.reads === 'product') multiply(x, xo, w, wo, len, this.array)
    else weightsWhereValid(x, xo, w, wo, len, this.array)
    return 0
  }
}

function multiply(x: Float64Array, xo: number, w: Float64Array, wo: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) out[j] = x[xo + j] * w[wo + j]
}

function weightsWhereValid(x: Float64Array, xo: number, w: Float64Array, wo: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = x[xo + j]
    out[j] = v === v ? w[wo + j] : Number.NaN
  }
}

/** The runs a fold part reads: the value itself, or the value with its weight. */
export function runsOf(reads: 'value' | 'product' | 'weight', value: SourceView, weight: SourceView | null): RowRuns {
  if (reads === 'value') return new DoubleRuns(value)
  if (weight === null) throw new Error('a weighted part needs a weight')
  return new WeightedRuns(value, weight, reads)
}
