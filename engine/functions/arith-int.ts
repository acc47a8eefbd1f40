/**
 * Integer arithmetic loops: + - * of Int32 columns and constants, giving Int32 (N/A in → N/A
 * out), and / giving floats (x/0 → N/A). A result past the 32-bit range (or equal to -2^31, which
 * is N/A) is an error naming the values and what to write instead: neither a wrapped number nor
 * an N/A that looks like missing data. (Integers past 32 bits await the `j` type.) One loop per
 * operator and shape so each stays monomorphic and tight.
 */
import { AppError } from '../../shared/errors.js'
import { NA_INT } from '../columns/types.js'

/** The refusal of a result past the 32-bit range. */
function overflow(x: number, op: '+' | '-' | '*', y: number): AppError {
  const r = op === '+' ? x + y : op === '-' ? x - y : x * y
  return new AppError(
    'CHECK_ERROR',
    `Integer overflow: ${x} ${op} ${y} is ${r}, past the 32-bit integer range (-2147483647 to 2147483647); write one side as a decimal (such as 1000.0) to compute in decimals.`,
    // The evaluator names the operator, and the gateway runs the query again with it wide (expr/widening.ts).
    { intOverflow: true },
  )
}

/** True when r, the exact result of two ints that are not N/A, is not an int the column can hold. */
const outside = (r: number): boolean => (r | 0) !== r || r === NA_INT

/** The operators that keep int operands int. */
export type IntOp = '+' | '-' | '*'

/** a op b over columns, or a column and a constant (`c` on the left when `constLeft`). */
export function intArith(op: IntOp, a: Int32Array, b: Int32Array | number, n: number, constLeft = false): Int32Array {
  if (typeof b === 'number') {
    if (op === '+') return addConst(a, b, n)
    if (op === '*') return mulConst(a, b, n)
    return constLeft ? subFromConst(b, a, n) : addConst(a, -b, n)
  }
  if (op === '+') return add(a, b, n)
  if (op === '-') return sub(a, b, n)
  return mul(a, b, n)
}

function add(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    if (x === NA_INT || y === NA_INT) o[i] = NA_INT
    else {
      const r = x + y
      if (outside(r)) throw overflow(x, '+', y)
      o[i] = r
    }
  }
  return o
}

function sub(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    if (x === NA_INT || y === NA_INT) o[i] = NA_INT
    else {
      const r = x - y
      if (outside(r)) throw overflow(x, '-', y)
      o[i] = r
    }
  }
  return o
}

function mul(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    if (x === NA_INT || y === NA_INT) o[i] = NA_INT
    else {
      const r = x * y
      if (outside(r)) throw overflow(x, '*', y)
      o[i] = r
    }
  }
  return o
}

function addConst(a: Int32Array, c: number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    if (x === NA_INT) o[i] = NA_INT
    else {
      const r = x + c
      if (outside(r)) throw c < 0 ? overflow(x, '-', -c) : overflow(x, '+', c)
      o[i] = r
    }
  }
  return o
}

function subFromConst(c: number, a: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    if (x === NA_INT) o[i] = NA_INT
    else {
      const r = c - x
      if (outside(r)) throw overflow(c, '-', x)
      o[i] = r
    }
  }
  return o
}

function mulConst(a: Int32Array, c: number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    if (x === NA_INT) o[i] = NA_INT
    else {
      const r = x * c
      if (outside(r)) throw overflow(x, '*', c)
      o[i] = r
    }
  }
  return o
}

/** Integer division as floats: N/A or a zero divisor gives NaN. */
export function intDivide(a: Int32Array | number, b: Int32Array | number, n: number): Float64Array {
  const o = new Float64Array(n)
  if (typeof a === 'number') {
    const bb = b as Int32Array
    for (let i = 0; i < n; i++) {
      const y = bb[i]
      o[i] = y === NA_INT || y === 0 ? NaN : a / y
    }
  } else if (typeof b === 'number') {
    if (b === 0) return o.fill(NaN)
    for (let i = 0; i < n; i++) {
      const x = a[i]
      o[i] = x === NA_INT ? NaN : x / b
    }
  } else {
    for (let i = 0; i < n; i++) {
      const x = a[i]
      const y = b[i]
      o[i] = x === NA_INT || y === NA_INT || y === 0 ? NaN : x / y
    }
  }
  return o
}

/** -x, N/A staying N/A (-NA_INT would overflow, and no other Int32 negates out of range). */
export function intNegate(a: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    o[i] = x === NA_INT ? NA_INT : -x
  }
  return o
}
