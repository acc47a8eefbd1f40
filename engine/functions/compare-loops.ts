/**
 * Comparison loops giving 0/1, never N/A: `=` is N/A-safe (N/A = N/A is 1, N/A = x is 0),
 * `<>` is its negation, and an ordering with an N/A operand is 0. Int32 loops take the N/A
 * sentinel as a parameter so text codes (N/A = 0) share them with ints (N/A = NA_INT).
 * Results are computed without branches (`+(a < b) & …`): on random data a branch per row
 * mispredicts half the time and costs more than the loop.
 */
export type CmpOp = '=' | '<>' | '<' | '>' | '<=' | '>='

/** The same comparison with the operands swapped: c < x is x > c. */
export const FLIPPED: Readonly<Record<CmpOp, CmpOp>> = { '=': '=', '<>': '<>', '<': '>', '>': '<', '<=': '>=', '>=': '<=' }

/** a op b over two Int32 columns whose N/A is `na`. */
export function compareInt32(op: CmpOp, a: Int32Array, b: Int32Array, n: number, na: number): Int32Array {
  const o = new Int32Array(n)
  switch (op) {
    case '=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] === b[i])
      break
    case '<>':
      for (let i = 0; i < n; i++) o[i] = +(a[i] !== b[i])
      break
    case '<':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        const y = b[i]
        o[i] = +(x < y) & +(x !== na) & +(y !== na)
      }
      break
    case '>':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        const y = b[i]
        o[i] = +(x > y) & +(x !== na) & +(y !== na)
      }
      break
    case '<=':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        const y = b[i]
        o[i] = +(x <= y) & +(x !== na) & +(y !== na)
      }
      break
    case '>=':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        const y = b[i]
        o[i] = +(x >= y) & +(x !== na) & +(y !== na)
      }
      break
  }
  return o
}

/** a op c for an Int32 column whose N/A is `na` and a constant c that is not N/A. */
export function compareInt32Const(op: CmpOp, a: Int32Array, c: number, n: number, na: number): Int32Array {
  const o = new Int32Array(n)
  switch (op) {
    case '=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] === c)
      break
    case '<>':
      for (let i = 0; i < n; i++) o[i] = +(a[i] !== c)
      break
    case '<':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        o[i] = +(x < c) & +(x !== na)
      }
      break
    case '>':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        o[i] = +(x > c) & +(x !== na)
      }
      break
    case '<=':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        o[i] = +(x <= c) & +(x !== na)
      }
      break
    case '>=':
      for (let i = 0; i < n; i++) {
        const x = a[i]
        o[i] = +(x >= c) & +(x !== na)
      }
      break
  }
  return o
}

/** a op b over two float columns (NaN is N/A; orderings with NaN are false by themselves). */
export function compareFloat(op: CmpOp, a: Float64Array, b: Float64Array, n: number): Int32Array {
  const o = new Int32Array(n)
  switch (op) {
    case '=':
    case '<>': {
      const flip = op === '<>' ? 1 : 0
      for (let i = 0; i < n; i++) {
        const x = a[i]
        const y = b[i]
        o[i] = (+(x === y) | (+(x !== x) & +(y !== y))) ^ flip
      }
      break
    }
    case '<':
      for (let i = 0; i < n; i++) o[i] = +(a[i] < b[i])
      break
    case '>':
      for (let i = 0; i < n; i++) o[i] = +(a[i] > b[i])
      break
    case '<=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] <= b[i])
      break
    case '>=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] >= b[i])
      break
  }
  return o
}

/** a op c for a float column and a constant that is not N/A. */
export function compareFloatConst(op: CmpOp, a: Float64Array, c: number, n: number): Int32Array {
  const o = new Int32Array(n)
  switch (op) {
    case '=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] === c)
      break
    case '<>':
      for (let i = 0; i < n; i++) o[i] = +(a[i] !== c)
      break
    case '<':
      for (let i = 0; i < n; i++) o[i] = +(a[i] < c)
      break
    case '>':
      for (let i = 0; i < n; i++) o[i] = +(a[i] > c)
      break
    case '<=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] <= c)
      break
    case '>=':
      for (let i = 0; i < n; i++) o[i] = +(a[i] >= c)
      break
  }
  return o
}
