/**
 * The arithmetic operators as registry rows: + - * (int op int → int, with a big integer → big
 * integer, otherwise float),
 * / and ^ (always float), and unary minus (`neg`). Dates are plain numbers here: date ± int is
 * an int (20240131 + 1 is not a date). A constant operand stays a constant all the way into
 * the loop.
 */
import { bigintColumn, naColumn, toBigint, toFloat } from '../columns/index.js'
import { bigintArith, bigintNegate, type BigintOperand } from './arith-bigint.js'
import type { Column, FloatColumn, IntColumn, NumberColumn, Scalar, Value } from '../columns/types.js'
import { floatArith, floatNegate, mixedArith, type FloatOp } from './arith-float.js'
import { intArith, intDivide, intNegate, type IntOp } from './arith-int.js'
import { asColumn, callError, isColumn, isScalar, onConstants, requiredValue, scalarIsNA } from './args.js'
import type { FunctionDef } from './types.js'
import { firstError, needNumber, type TypeResult } from './typing.js'

type ArithOp = IntOp | '/' | '^'

const NUMERIC = ['int', 'bigint', 'float', 'date'] as const

/**
 * Result type of a binary arithmetic operator: / and ^ give decimals, as does anything with a
 * decimal; a big integer with an int or big integer stays a big integer; int with int is int.
 */
function arithResult(op: ArithOp, left: Value['type'] | null, right: Value['type'] | null): TypeResult {
  const err = firstError(needNumber(op, 'the left operand', left), needNumber(op, 'the right operand', right))
  if (err) return err
  if (op === '/' || op === '^' || left === 'float' || right === 'float') return 'float'
  if (left === 'bigint' || right === 'bigint') return 'bigint'
  return 'int'
}

type NumOperand = NumberColumn | Exclude<Scalar, { type: 'text' }>

/** a op b over whole columns (at most one side constant). */
export function arithmetic(op: ArithOp, a: Value, b: Value, rows: number): Column {
  if (!isColumn(a) && !isColumn(b)) return onConstants([a, b], rows, (c, n) => arithmetic(op, c[0], c[1], n))
  const left = numeric(a, op)
  const right = numeric(b, op)
  const type = arithResult(op, left.type, right.type) as 'int' | 'bigint' | 'float'
  if ((isScalar(left) && scalarIsNA(left)) || (isScalar(right) && scalarIsNA(right))) return naColumn(type, rows)
  if (type === 'int' && op !== '/' && op !== '^') {
    if (isScalar(left)) return intCol(intArith(op, (right as IntColumn).data, left.value as number, rows, true))
    return intCol(intArith(op, (left as IntColumn).data, isScalar(right) ? (right.value as number) : (right as IntColumn).data, rows))
  }
  if (type === 'bigint') return bigintColumn(bigintArith(op as IntOp, bigintData(left), bigintData(right), rows))
  if (op === '/' && isInt32(left) && isInt32(right)) {
    return floatCol(intDivide(operandData(left) as Int32Array | number, operandData(right) as Int32Array | number, rows))
  }
  if (isColumn(left) && isColumn(right) && isInt32(left) !== isInt32(right) && (left.type === 'float' || right.type === 'float')) {
    const intLeft = isInt32(left)
    const [f, ints] = (intLeft ? [right, left] : [left, right]) as [FloatColumn, IntColumn]
    return floatCol(mixedArith(op as FloatOp, f.data, ints.data, intLeft, rows))
  }
  return floatCol(floatArith(op as FloatOp, floatData(left), floatData(right), rows))
}

function numeric(v: Value, op: string): NumOperand {
  if (v.type === 'text') throw callError(`${op} needs numbers, got text.`)
  if (!isColumn(v) && !isScalar(v)) throw callError(`${op} cannot take a list of values.`)
  return v as NumOperand
}

/** An operand held as Int32 (an int or date column or constant). */
const isInt32 = (v: NumOperand): boolean => v.type === 'int' || v.type === 'date'
const operandData = (v: NumOperand): Int32Array | Float64Array | number => (isScalar(v) ? (v.value as number) : (v as IntColumn | FloatColumn).data)
// A big integer read as a decimal is its nearest float64 (SQLite's reading too).
const floatData = (v: NumOperand): Float64Array | number => (isScalar(v) ? Number(v.value) : toFloat(v).data)
const bigintData = (v: NumOperand): BigintOperand => {
  if (!isScalar(v)) return toBigint(v).data
  return typeof v.value === 'bigint' ? v.value : BigInt(v.value)
}
const intCol = (data: Int32Array): Column => ({ type: 'int', data })
const floatCol = (data: Float64Array): Column => ({ type: 'float', data })

function binary(op: ArithOp, doc: string): FunctionDef {
  return {
    name: op,
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'Y', types: NUMERIC },
    ],
    result: ([x, y]) => arithResult(op, x, y),
    kernel: (args, ctx) => arithmetic(op, requiredValue(args, 0, op, 'X'), requiredValue(args, 1, op, 'Y'), ctx.rows),
    doc,
  }
}

/** -X: negation, keeping int as int (a date negated is just an int). */
function negate(v: Value, rows: number): Column {
  const col = asColumn(v, rows, 'neg', 'X')
  if (col.type === 'text') throw callError('Unary minus needs a number, got text.')
  if (col.type === 'float') return { type: col.type, data: floatNegate(col.data, rows) }
  if (col.type === 'bigint') return bigintColumn(bigintNegate(col.data, rows))
  return intCol(intNegate(col.data, rows))
}

/** Registry rows of + - * / ^ and unary minus. */
export const ARITHMETIC: readonly FunctionDef[] = [
  binary('+', 'X+Y: sum; int+int is int, anything with a decimal is decimal; N/A if either is N/A.'),
  binary('-', 'X-Y: difference; int-int is int; N/A if either is N/A.'),
  binary('*', 'X*Y: product; int*int is int, with a big integer a big integer; N/A if either is N/A.'),
  binary('/', 'X/Y: quotient, always decimal; N/A if either is N/A or Y is 0.'),
  binary('^', 'X^Y: power, always decimal; N/A if either is N/A or the result is not a finite real.'),
  {
    name: 'neg',
    args: [{ kind: 'value', name: 'X', types: NUMERIC }],
    result: ([x]) => needNumber('Unary minus', 'X', x) ?? (x === 'float' || x === 'bigint' ? x : 'int'),
    kernel: (args, ctx) => negate(requiredValue(args, 0, 'neg', 'X'), ctx.rows),
    doc: '-X: negation; N/A stays N/A.',
  },
]
