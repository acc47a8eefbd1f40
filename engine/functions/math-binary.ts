/**
 * Loops of the two-argument math functions: mod (floored: the result has the sign of Y, so
 * mod(-1;7) is 6, which is what day-of-week and bucket arithmetic want), round to a unit, and
 * the pairwise max/min that `max(a;b;c…)` folds over. N/A in → N/A out.
 */
import { NA_INT } from '../columns/types.js'

/** x mod y with the sign of y; y = 0 → N/A. Int32 arrays in, Int32 out. */
export function modInt(a: Int32Array, b: Int32Array | number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = typeof b === 'number' ? b : b[i]
    if (x === NA_INT || y === NA_INT || y === 0) o[i] = NA_INT
    else {
      const r = x % y
      o[i] = r !== 0 && r < 0 !== y < 0 ? r + y : r
    }
  }
  return o
}

/** x mod y with the sign of y for floats; y = 0 → N/A. */
export function modFloat(a: Float64Array, b: Float64Array | number, n: number): Float64Array {
  const o = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = typeof b === 'number' ? b : b[i]
    const r = x % y // NaN for N/A operands and for y = 0
    o[i] = r !== 0 && r < 0 !== y < 0 ? r + y : r
  }
  return o
}

/**
 * x rounded to the nearest multiple of `unit`, halves away from zero. The tiny relative nudge
 * makes decimal halves that binary floats store just below .5 (1.005 / 0.01 = 100.4999…)
 * round the way they were written.
 */
export function roundTo(x: number, unit: number): number {
  const q = Math.abs(x) / unit
  const r = Math.floor(q + 0.5 + q * 1e-12) * unit
  return x < 0 ? -r : r
}

/** round over a float column. */
export function roundFloat(a: Float64Array, unit: number, n: number): Float64Array {
  const o = new Float64Array(n)
  for (let i = 0; i < n; i++) o[i] = roundTo(a[i], unit)
  return o
}

/** round over an int column by an integer unit (N/A beyond the Int32 range). */
export function roundInt(a: Int32Array, unit: number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const r = x === NA_INT ? NA_INT : roundTo(x, unit)
    o[i] = (r | 0) === r ? r : NA_INT
  }
  return o
}

/** Pairwise max (or min) of Int32 values; N/A if either is N/A. Writes into `acc`. */
export function extremeInt(acc: Int32Array, b: Int32Array | number, n: number, isMax: boolean): void {
  for (let i = 0; i < n; i++) {
    const x = acc[i]
    const y = typeof b === 'number' ? b : b[i]
    acc[i] = x === NA_INT || y === NA_INT ? NA_INT : isMax === x > y ? x : y
  }
}

/** Pairwise max (or min) of floats; NaN if either is NaN. Writes into `acc`. */
export function extremeFloat(acc: Float64Array, b: Float64Array | number, n: number, isMax: boolean): void {
  for (let i = 0; i < n; i++) {
    const x = acc[i]
    const y = typeof b === 'number' ? b : b[i]
    acc[i] = x !== x || y !== y ? NaN : isMax === x > y ? x : y
  }
}
