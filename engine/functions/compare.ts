/**
 * The comparison operators as registry rows. Results are int 0/1 and never N/A (§3.6 and the
 * §4 recommendation): `=` treats N/A as a value, `<>` is its negation, and `<` `>` `<=` `>=`
 * with an N/A operand give 0 — text '' included, since '' is text's N/A. `=`/`<>` accept a
 * list on the right (any / none). Text compares with text (by code), numbers with numbers
 * (ints and dates as they are, with a decimal as floats); text against a number is an error.
 */
import { scalarToColumn, toBigint, toFloat } from '../columns/index.js'
import { compareBigintFloat, compareBigints } from './compare-bigint.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type IntColumn, type NumberColumn, type Scalar, type Value } from '../columns/types.js'

type NumberScalar = Exclude<Scalar, { type: 'text' }>
import { callError, isColumn, isList, isScalar, onConstants, requiredValue, scalarIsNA } from './args.js'
import { compareFloat, compareFloatConst, compareInt32, compareInt32Const, FLIPPED, type CmpOp } from './compare-loops.js'
import { listMembership } from './compare-list.js'
import { compareTextColumns, compareTextConst } from './compare-text.js'
import type { FunctionDef } from './types.js'
import { describeType, type TypeResult } from './typing.js'

/** Result type of a comparison: int, unless text meets a number. */
export function compareResult(op: string, left: ColumnType | null, right: ColumnType | null): TypeResult {
  if (left === null || right === null) return 'int'
  if ((left === 'text') !== (right === 'text')) {
    const [t, other] = left === 'text' ? [left, right] : [right, left]
    return { error: `${op} cannot compare ${describeType(t)} with ${describeType(other)}` }
  }
  return 'int'
}

/** a op b as a 0/1 int column. */
export function compare(op: CmpOp, a: Value, b: Value, rows: number): Column {
  if (isList(a) && !isList(b) && (op === '=' || op === '<>')) return compare(op, b, a, rows)
  const err = compareResult(op, a.type, b.type)
  if (typeof err === 'object') throw callError(`${err.error}.`)
  if (isList(b)) {
    if (op !== '=' && op !== '<>') throw callError(`${op} cannot take a list of values; only = and <> can.`)
    if (isList(a)) throw callError(`${op} cannot compare two lists.`)
    if (isScalar(a)) return onConstants([a], rows, (c, n) => compare(op, c[0], b, n))
    return int(listMembership(a, b.values, rows, op === '<>'))
  }
  if (isList(a)) throw callError(`${op} cannot take a list on its left.`)
  if (!isColumn(a) && !isColumn(b)) return onConstants([a, b], rows, (c, n) => compare(op, c[0], c[1], n))
  if (isScalar(a)) return compareColumns(FLIPPED[op], b as Column, a, rows)
  return compareColumns(op, a, b as Column | Scalar, rows)
}

function compareColumns(op: CmpOp, a: Column, b: Column | Scalar, n: number): Column {
  if (a.type === 'text') {
    if (isScalar(b)) return int(compareTextConst(op, a, b.value as string, n))
    return int(compareTextColumns(op, a, b as Column & { type: 'text' }, n))
  }
  if (b.type === 'text') throw callError(`${op} cannot compare a number with text.`)
  if (a.type === 'bigint' || b.type === 'bigint') return int(compareWithBigint(op, a, b, n))
  if (isScalar(b)) {
    if (scalarIsNA(b)) return compareWithNA(op, a, n)
    const c = b.value as number
    if (a.type === 'float') return int(compareFloatConst(op, a.data, c, n))
    // The decimal −2^31 is a number below every int, not the int N/A that shares its bits: it
    // compares as any number between it and the smallest int would.
    return int(compareInt32Const(op, a.data, c === NA_INT ? NA_INT - 0.5 : c, n, NA_INT))
  }
  if (a.type !== 'float' && b.type !== 'float') return int(compareInt32(op, a.data, b.data, n, NA_INT))
  return int(compareFloat(op, toFloat(a).data, toFloat(b as IntColumn).data, n))
}

/** a op b where either is a big integer (a is a column): exactly, whatever the other's type. */
function compareWithBigint(op: CmpOp, a: NumberColumn, b: NumberColumn | NumberScalar, n: number): Int32Array {
  if (a.type !== 'bigint') {
    // b is then a big integer: swap the sides (a constant made a column to stand on the left).
    const left = isScalar(b) ? (scalarToColumn(b, n) as NumberColumn) : b
    return compareWithBigint(FLIPPED[op], left, a, n)
  }
  if (isScalar(b)) {
    if (b.type === 'float') return compareBigintFloat(op, a.data, b.value, n)
    if (b.type === 'bigint') return compareBigints(op, a.data, b.value, n)
    return compareBigints(op, a.data, scalarIsNA(b) ? NA_BIGINT : BigInt(b.value), n)
  }
  if (b.type === 'float') return compareBigintFloat(op, a.data, b.data, n)
  return compareBigints(op, a.data, toBigint(b).data, n)
}

/** Against an N/A constant: `=` finds the N/A rows, `<>` the others, orderings nothing. */
function compareWithNA(op: CmpOp, a: Column, n: number): Column {
  if (op !== '=' && op !== '<>') return naColumnZero(n)
  const flip = op === '<>' ? 1 : 0
  const o = new Int32Array(n)
  if (a.type === 'float') for (let i = 0; i < n; i++) o[i] = +(a.data[i] !== a.data[i]) ^ flip
  else if (a.type === 'bigint') for (let i = 0; i < n; i++) o[i] = +(a.data[i] === NA_BIGINT) ^ flip
  else if (a.type !== 'text') for (let i = 0; i < n; i++) o[i] = +(a.data[i] === NA_INT) ^ flip
  return int(o)
}

const naColumnZero = (n: number): Column => ({ type: 'int', data: new Int32Array(n) })
const int = (data: Int32Array): Column => ({ type: 'int', data })

function comparison(op: CmpOp, doc: string): FunctionDef {
  const list = op === '=' || op === '<>'
  return {
    name: op,
    args: [
      { kind: 'value', name: 'X' },
      { kind: 'value', name: 'Y', list },
    ],
    result: ([x, y]) => compareResult(op, x, y),
    kernel: (args, ctx) => compare(op, requiredValue(args, 0, op, 'X'), requiredValue(args, 1, op, 'Y'), ctx.rows),
    doc,
    comparesValues: true,
  }
}

/** Registry rows of = <> < > <= >=. */
export const COMPARISONS: readonly FunctionDef[] = [
  comparison('=', "X=Y: 1 if equal, else 0; N/A=N/A is 1; with a list Y ('NY' 'CA'), 1 if X equals any member."),
  comparison('<>', 'X<>Y: 1 if not equal (the negation of =); with a list Y, 1 if X equals no member.'),
  comparison('<', 'X<Y: 1 if X is less than Y; 0 if either is N/A.'),
  comparison('>', 'X>Y: 1 if X is greater than Y; 0 if either is N/A.'),
  comparison('<=', 'X<=Y: 1 if X is at most Y; 0 if either is N/A.'),
  comparison('>=', 'X>=Y: 1 if X is at least Y; 0 if either is N/A.'),
]
