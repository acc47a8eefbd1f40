/**
 * Integer arithmetic loops: + - * of Int32 columns and constants, giving Int32 (N/A in → N/A
 * out; a result outside the Int32 range is N/A rather than silently wrong), and / giving
 * floats (x/0 → N/A). One loop per operator and shape so each stays monomorphic and tight.
 */
import { NA_INT } from '../columns/types.js'

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

// (r | 0) !== r catches results outside Int32; r = -2^31 passes but is NA_INT, which is right too.
function add(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    const r = x + y
    o[i] = x === NA_INT || y === NA_INT || (r | 0) !== r ? NA_INT : r
  }
  return o
}

function sub(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    const r = x - y
    o[i] = x === NA_INT || y === NA_INT || (r | 0) !== r ? NA_INT : r
  }
  return o
}

function mul(a: Int32Array, b: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    const r = x * y
    o[i] = x === NA_INT || y === NA_INT || (r | 0) !== r ? NA_INT : r
  }
  return o
}

function addConst(a: Int32Array, c: number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const r = x + c
    o[i] = x === NA_INT || (r | 0) !== r ? NA_INT : r
  }
  return o
}

function subFromConst(c: number, a: Int32Array, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const r = c - x
    o[i] = x === NA_INT || (r | 0) !== r ? NA_INT : r
  }
  return o
}

function mulConst(a: Int32Array, c: number, n: number): Int32Array {
  const o = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const r = x * c
    o[i] = x === NA_INT || (r | 0) !== r ? NA_INT : r
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
