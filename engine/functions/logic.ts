/**
 * The logical operators & | and ~ (`not`). Any non-zero number is true; N/A is false (§3.5
 * leaves N/A open; false keeps every result 0/1, so selections never meet N/A). Results are int
 * 0/1. & and | are not short-circuit: both sides are whole columns already.
 */
import { NA_INT, type Column, type Value } from '../columns/types.js'
import { asColumn, callError, isColumn, onConstants, requiredValue } from './args.js'
import type { FunctionDef } from './types.js'
import { firstError, needNumber } from './typing.js'
import { bigintWords } from '../columns/index.js'

/** 0/1 per row: the value is non-zero and not N/A. */
export function truthy(col: Column, n: number): Int32Array {
  if (col.type === 'text') throw callError('A logical operator needs numbers (0/1), got text.')
  const o = new Int32Array(n)
  if (col.type === 'float') {
    const d = col.data
    for (let i = 0; i < n; i++) {
      const v = d[i]
      o[i] = +(v !== 0) & +(v === v)
    }
  } else if (col.type === 'bigint') {
    // Non-zero and not N/A (high word −2^31, low word 0) on the words.
    const w = bigintWords(col.data)
    for (let i = 0; i < n; i++) {
      const lo = w[2 * i]
      const hi = w[2 * i + 1]
      o[i] = +((lo | hi) !== 0) & +(hi !== -2147483648 || lo !== 0)
    }
  } else {
    const d = col.data
    for (let i = 0; i < n; i++) {
      const v = d[i]
      o[i] = +(v !== 0) & +(v !== NA_INT)
    }
  }
  return o
}

function logical(op: '&' | '|', a: Value, b: Value, rows: number): Column {
  if (!isColumn(a) && !isColumn(b)) return onConstants([a, b], rows, (c, n) => logical(op, c[0], c[1], n))
  // A constant side decides alone (x & 0, x | 1) or drops out (x & 1, x | 0).
  if (!isColumn(a)) return logical(op, b, a, rows)
  const x = truthy(a, rows)
  if (!isColumn(b)) {
    const c = truthy(asColumn(b, 1, op, 'Y'), 1)[0]
    if ((op === '&') === (c === 1)) return { type: 'int', data: x }
    return { type: 'int', data: new Int32Array(rows).fill(c) }
  }
  const y = truthy(b, rows)
  if (op === '&') for (let i = 0; i < rows; i++) x[i] &= y[i]
  else for (let i = 0; i < rows; i++) x[i] |= y[i]
  return { type: 'int', data: x }
}

function not(a: Value, rows: number): Column {
  if (!isColumn(a)) return onConstants([a], rows, (c, n) => not(c[0], n))
  const x = truthy(a, rows)
  for (let i = 0; i < rows; i++) x[i] ^= 1
  return { type: 'int', data: x }
}

const NUMERIC = ['int', 'bigint', 'float', 'date'] as const

function binary(op: '&' | '|', doc: string): FunctionDef {
  return {
    name: op,
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'Y', types: NUMERIC },
    ],
    result: ([x, y]) => firstError(needNumber(op, 'the left operand', x), needNumber(op, 'the right operand', y)) ?? 'int',
    kernel: (args, ctx) => logical(op, requiredValue(args, 0, op, 'X'), requiredValue(args, 1, op, 'Y'), ctx.rows),
    doc,
  }
}

/** Registry rows of &, | and ~ (`not`). */
export const LOGIC: readonly FunctionDef[] = [
  binary('&', 'X&Y: 1 if both are true (non-zero, not N/A), else 0.'),
  binary('|', 'X|Y: 1 if either is true (non-zero, not N/A), else 0.'),
  {
    name: 'not',
    args: [{ kind: 'value', name: 'X', types: NUMERIC }],
    result: ([x]) => needNumber('~', 'X', x) ?? 'int',
    kernel: (args, ctx) => not(requiredValue(args, 0, 'not', 'X'), ctx.rows),
    doc: '~X: 1 if X is false (0 or N/A), else 0.',
  },
]
