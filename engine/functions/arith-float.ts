/**
 * Float arithmetic loops. NaN is N/A and propagates by itself through + - *; / by zero and
 * results of ^ that are not finite (0^-1, overflow) or not real ((-8)^0.5) become N/A, and
 * NaN^0 is N/A too (Math.pow would say 1). One loop per operator and shape.
 */
import { NA_INT } from '../columns/types.js'

export type FloatOp = '+' | '-' | '*' | '/' | '^'

/** a op b; either side may be a constant (never both). */
export function floatArith(op: FloatOp, a: Float64Array | number, b: Float64Array | number, n: number): Float64Array {
  if (typeof a === 'number') return constLeft(op, a, b as Float64Array, n)
  if (typeof b === 'number') return constRight(op, a, b, n)
  const o = new Float64Array(n)
  switch (op) {
    case '+':
      for (let i = 0; i < n; i++) o[i] = a[i] + b[i]
      break
    case '-':
      for (let i = 0; i < n; i++) o[i] = a[i] - b[i]
      break
    case '*':
      for (let i = 0; i < n; i++) o[i] = a[i] * b[i]
      break
    case '/':
      for (let i = 0; i < n; i++) {
        const y = b[i]
        o[i] = y === 0 ? NaN : a[i] / y
      }
      break
    case '^':
      for (let i = 0; i < n; i++) o[i] = power(a[i], b[i])
      break
  }
  return o
}

function constRight(op: FloatOp, a: Float64Array, c: number, n: number): Float64Array {
  const o = new Float64Array(n)
  switch (op) {
    case '+':
      for (let i = 0; i < n; i++) o[i] = a[i] + c
      break
    case '-':
      for (let i = 0; i < n; i++) o[i] = a[i] - c
      break
    case '*':
      for (let i = 0; i < n; i++) o[i] = a[i] * c
      break
    case '/':
      if (c === 0) return o.fill(NaN)
      for (let i = 0; i < n; i++) o[i] = a[i] / c
      break
    case '^':
      for (let i = 0; i < n; i++) o[i] = power(a[i], c)
      break
  }
  return o
}

function constLeft(op: FloatOp, c: number, b: Float64Array, n: number): Float64Array {
  if (op === '+' || op === '*') return constRight(op, b, c, n)
  const o = new Float64Array(n)
  switch (op) {
    case '-':
      for (let i = 0; i < n; i++) o[i] = c - b[i]
      break
    case '/':
      for (let i = 0; i < n; i++) {
        const y = b[i]
        o[i] = y === 0 ? NaN : c / y
      }
      break
    case '^':
      for (let i = 0; i < n; i++) o[i] = power(c, b[i])
      break
  }
  return o
}

/** x^y, N/A unless both are numbers and the result is a finite real. */
export function power(x: number, y: number): number {
  const r = Math.pow(x, y)
  return x === x && r - r === 0 ? r : NaN
}

/** -x (NaN stays NaN). */
export function floatNegate(a: Float64Array, n: number): Float64Array {
  const o = new Float64Array(n)
  for (let i = 0; i < n; i++) o[i] = -a[i]
  return o
}

/**
 * a op b for a float column and an int (or date) column, the int side read in place (N/A as
 * NaN) instead of converted into a float column first: `amount/qty` over 10M rows then writes one
 * 80 MB column, not two. `intLeft` says which side the int column is on.
 */
export function mixedArith(op: FloatOp, f: Float64Array, ints: Int32Array, intLeft: boolean, n: number): Float64Array {
  const o = new Float64Array(n)
  switch (op) {
    case '+':
      for (let i = 0; i < n; i++) {
        const k = ints[i]
        o[i] = k === NA_INT ? NaN : f[i] + k
      }
      break
    case '*':
      for (let i = 0; i < n; i++) {
        const k = ints[i]
        o[i] = k === NA_INT ? NaN : f[i] * k
      }
      break
    case '-':
      if (intLeft)
        for (let i = 0; i < n; i++) {
          const k = ints[i]
          o[i] = k === NA_INT ? NaN : k - f[i]
        }
      else
        for (let i = 0; i < n; i++) {
          const k = ints[i]
          o[i] = k === NA_INT ? NaN : f[i] - k
        }
      break
    case '/':
      if (intLeft)
        for (let i = 0; i < n; i++) {
          const k = ints[i]
          const y = f[i]
          o[i] = k === NA_INT || y === 0 ? NaN : k / y
        }
      else
        for (let i = 0; i < n; i++) {
          const k = ints[i]
          o[i] = k === NA_INT || k === 0 ? NaN : f[i] / k
        }
      break
    case '^':
      for (let i = 0; i < n; i++) {
        const k = ints[i]
        o[i] = k === NA_INT ? NaN : intLeft ? power(k, f[i]) : power(f[i], k)
      }
      break
  }
  return o
}
