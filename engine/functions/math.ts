/**
 * Math functions as registry rows. N/A propagates everywhere. round(X;Y) reads Y as a rounding
 * unit (round(x;10) → nearest 10; the User's Guide example suggests a unit, not decimal places),
 * default 1; log(X;B) is the natural log unless a base B is given.
 */
import { exactFloats, toBigint, toFloat } from '../columns/index.js'
import { extremeBigints, modBigints, roundBigints } from './math-bigint.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type IntColumn, type NumberColumn, type Value } from '../columns/types.js'
import { arithmetic } from './arith.js'
import { asColumn, callError, constantNumber, isColumn, isScalar, onConstants, requiredValue, valueArg } from './args.js'
import { extremeFloat, extremeInt, modFloat, modInt, roundFloat, roundInt } from './math-binary.js'
import { mathUnary, type UnaryName } from './math-unary.js'
import { textToInt } from './text-to-number.js'
import { onText } from './text.js'
import type { FunctionDef } from './types.js'
import { firstError, needNumber, numericCommon, type TypeResult } from './typing.js'

const NUMERIC = ['int', 'bigint', 'float', 'date'] as const

function numericColumn(v: Value, rows: number, fn: string): NumberColumn {
  const col = asColumn(v, rows, fn, 'X')
  if (col.type === 'text') throw callError(`${fn} needs a number, got text.`)
  return col
}

function unary(name: string, op: UnaryName, intResult: 'keep' | 'int' | 'float', doc: string): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'X', types: NUMERIC }],
    result: ([x]): TypeResult =>
      needNumber(name, 'X', x) ?? (intResult === 'int' ? 'int' : intResult === 'float' || x === 'float' ? 'float' : x === 'bigint' ? 'bigint' : 'int'),
    kernel: (args, ctx) => {
      const v = requiredValue(args, 0, name, 'X')
      if (!isColumn(v)) return onConstants([v], ctx.rows, (c, n) => mathUnary(op, numericColumn(c[0], n, name), n))
      return mathUnary(op, numericColumn(v, ctx.rows, name), ctx.rows)
    },
    doc,
  }
}

/**
 * int(X): X truncated toward zero. X may also be text, read as a decimal number (N/A when it is
 * none): the 1010data Cookbook turns dates built as text into yyyymmdd integers with it.
 */
const intDef: FunctionDef = {
  name: 'int',
  args: [{ kind: 'value', name: 'X', types: [...NUMERIC, 'text'] }],
  result: () => 'int',
  kernel: (args, ctx) => {
    const v = requiredValue(args, 0, 'int', 'X')
    if (v.type === 'text') return onText(v, ctx.rows, 'int', (c) => ({ type: 'int', data: textToInt(c) }))
    if (!isColumn(v)) return onConstants([v], ctx.rows, (c, n) => mathUnary('int', numericColumn(c[0], n, 'int'), n))
    return mathUnary('int', numericColumn(v, ctx.rows, 'int'), ctx.rows)
  },
  doc: "int(X): X truncated toward zero, as an integer (N/A beyond the integer range); a text X is read as a number first (int('20150104'), N/A when it is not one).",
}

const bothInt = (x: ColumnType | null, y: ColumnType | null): boolean => x !== 'float' && y !== 'float'

/** The type of mod(X;Y) and round(X;Y): a decimal with a decimal, else a big integer with one, else an int. */
function wholeResult(x: ColumnType | null, y: ColumnType | null): ColumnType {
  if (!bothInt(x, y)) return 'float'
  return x === 'bigint' || y === 'bigint' ? 'bigint' : 'int'
}

/** A whole-number argument as big integers: a column, or a constant (NA_BIGINT for N/A). */
function bigintsOf(v: Value, rows: number, fn: string): BigInt64Array | bigint {
  if (isScalar(v)) return v.type === 'bigint' ? v.value : BigInt(constantNumber(v, fn, 'Y') ?? NA_BIGINT)
  return toBigint(numericColumn(v, rows, fn)).data
}

function mod(x: Value, y: Value, rows: number): Column {
  if (!isColumn(x) && !isColumn(y)) return onConstants([x, y], rows, (c, n) => mod(c[0], c[1], n))
  if (wholeResult(x.type as ColumnType, y.type as ColumnType) === 'bigint') {
    const a = bigintsOf(x, rows, 'mod')
    const d = bigintsOf(y, rows, 'mod')
    return { type: 'bigint', data: modBigints(typeof a === 'bigint' ? new BigInt64Array(rows).fill(a) : a, d, rows) }
  }
  const a = numericColumn(x, rows, 'mod')
  const b: NumberColumn | number = isScalar(y) ? (constantNumber(y, 'mod', 'Y') ?? NaN) : numericColumn(y, rows, 'mod')
  const divisorType = typeof b === 'number' ? (y.type as ColumnType) : b.type
  if (bothInt(a.type, divisorType)) {
    const d = typeof b === 'number' ? (b !== b ? NA_INT : b) : (b as IntColumn).data
    return { type: 'int', data: modInt(a.data as Int32Array, d, rows) }
  }
  return { type: 'float', data: modFloat(exactNumbers(a, 'mod'), typeof b === 'number' ? b : exactNumbers(b, 'mod'), rows) }
}

/** A column as float64, refusing big integers past ±2^53, whose remainder or rounding would come out wrong. */
function exactNumbers(c: NumberColumn, fn: string): Float64Array {
  return c.type === 'bigint' ? exactFloats(c.data, `${fn}() of a big integer`) : toFloat(c).data
}

/** round(X;Y)'s type: a decimal with a decimal, else X's (a big integer or an int). */
const roundResult = (x: ColumnType | null, y: ColumnType | null): ColumnType => (!bothInt(x, y) ? 'float' : x === 'bigint' ? 'bigint' : 'int')

function round(x: Value, unitArg: Value | null, rows: number): Column {
  if (!isColumn(x)) return onConstants([x], rows, (c, n) => round(c[0], unitArg, n))
  const a = numericColumn(x, rows, 'round')
  const unit = unitArg === null ? 1 : constantNumber(unitArg, 'round', 'Y')
  const type = roundResult(a.type, unitArg === null ? 'int' : (unitArg.type as ColumnType))
  if (type === 'bigint' && a.type === 'bigint') {
    if (unit === null || !(unit > 0) || !Number.isInteger(unit)) return { type: 'bigint', data: new BigInt64Array(rows).fill(NA_BIGINT) }
    return { type: 'bigint', data: roundBigints(a.data, BigInt(unit), rows) }
  }
  const intResult = type === 'int'
  if (unit === null || !(unit > 0))
    return { type: intResult ? 'int' : 'float', data: intResult ? new Int32Array(rows).fill(NA_INT) : new Float64Array(rows).fill(NaN) } as Column
  if (intResult) return { type: 'int', data: roundInt(a.data as Int32Array, unit, rows) }
  return { type: 'float', data: roundFloat(exactNumbers(a, 'round'), unit, rows) }
}

/** log(X;B) = ln X / ln B; a base of 1 or below 0 gives N/A (division by ln 1 = 0, or ln of a negative). */
function logarithm(x: Value, base: Value | null, rows: number): Column {
  const lnOf = (v: Value, n: number): Column =>
    isColumn(v) ? mathUnary('ln', numericColumn(v, n, 'log'), n) : onConstants([v], n, (c, m) => mathUnary('ln', numericColumn(c[0], m, 'log'), m))
  const lnX = lnOf(x, rows)
  if (base === null) return lnX
  if (isScalar(base)) {
    const b = constantNumber(base, 'log', 'B')
    return arithmetic('/', lnX, { kind: 'scalar', type: 'float', value: b === null || !(b > 0) ? NaN : Math.log(b) }, rows)
  }
  return arithmetic('/', lnX, lnOf(base, rows), rows)
}

/** max/min over several values: folds pairwise into one accumulator. */
function extreme(values: readonly Value[], rows: number, isMax: boolean): Column {
  const fn = isMax ? 'max' : 'min'
  if (!values.some(isColumn)) return onConstants(values, rows, (c, n) => extreme(c, n, isMax))
  const type = numericCommon(values.map((v) => v.type))
  if (type === 'bigint') {
    const acc = bigintsOf(values.find(isColumn)!, rows, fn) as BigInt64Array
    const out = acc.slice()
    for (const v of values) if (v !== values.find(isColumn)) extremeBigints(out, bigintsOf(v, rows, fn), rows, isMax)
    return { type, data: out }
  }
  const float = type === 'float'
  const first = values.find(isColumn)!
  const acc = float ? toFloat(numericColumn(first, rows, fn)).data.slice() : (numericColumn(first, rows, fn).data as Int32Array).slice()
  for (const v of values) {
    if (v === first) continue
    const b = isScalar(v) ? (constantNumber(v, fn, 'X') ?? (float ? NaN : NA_INT)) : numericColumn(v, rows, fn)
    if (float) extremeFloat(acc as Float64Array, typeof b === 'number' ? b : toFloat(b).data, rows, isMax)
    else extremeInt(acc as Int32Array, typeof b === 'number' ? b : (b.data as Int32Array), rows, isMax)
  }
  return { type, data: acc } as Column
}

function variadic(name: 'max' | 'min'): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'X', types: NUMERIC }],
    repeatFrom: 0,
    minArgs: 1,
    result: (types) => firstError(...types.map((t, i) => needNumber(name, `argument ${i + 1}`, t))) ?? numericCommon(types.filter((t) => t !== null)),
    kernel: (args, ctx) =>
      extreme(
        args.map((_, i) => requiredValue(args, i, name, 'X')),
        ctx.rows,
        name === 'max',
      ),
    doc: `${name}(X;Y;…): the ${name === 'max' ? 'largest' : 'smallest'} of the values, row by row; N/A if any is N/A.`,
  }
}

/** Registry rows of the math functions. */
export const MATH: readonly FunctionDef[] = [
  unary('abs', 'abs', 'keep', 'abs(X): absolute value.'),
  unary('ceil', 'ceil', 'keep', 'ceil(X): smallest whole number >= X (ints unchanged).'),
  unary('ceiling', 'ceil', 'keep', 'ceiling(X): same as ceil(X).'),
  unary('floor', 'floor', 'keep', 'floor(X): largest whole number <= X (ints unchanged).'),
  intDef,
  unary('sign', 'sign', 'int', 'sign(X): -1, 0 or 1.'),
  unary('sqrt', 'sqrt', 'float', 'sqrt(X): square root; N/A for negative X.'),
  unary('exp', 'exp', 'float', 'exp(X): e to the power X; N/A on overflow.'),
  unary('ln', 'ln', 'float', 'ln(X): natural logarithm; N/A for X <= 0.'),
  unary('log10', 'log10', 'float', 'log10(X): base-10 logarithm; N/A for X <= 0.'),
  {
    name: 'log',
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'B', types: NUMERIC, optional: true },
    ],
    result: ([x, b]) => firstError(needNumber('log', 'X', x), needNumber('log', 'B', b)) ?? 'float',
    kernel: (args, ctx) => logarithm(requiredValue(args, 0, 'log', 'X'), valueArg(args, 1), ctx.rows),
    doc: 'log(X;B): logarithm of X to base B (natural logarithm when B is omitted).',
  },
  {
    name: 'mod',
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'Y', types: NUMERIC },
    ],
    result: ([x, y]) => firstError(needNumber('mod', 'X', x), needNumber('mod', 'Y', y)) ?? wholeResult(x, y),
    kernel: (args, ctx) => mod(requiredValue(args, 0, 'mod', 'X'), requiredValue(args, 1, 'mod', 'Y'), ctx.rows),
    doc: 'mod(X;Y): remainder of X/Y with the sign of Y (mod(-1;7) = 6); N/A when Y is 0.',
  },
  {
    name: 'round',
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'Y', types: NUMERIC, optional: true, constant: true },
    ],
    result: ([x, y]) => firstError(needNumber('round', 'X', x), needNumber('round', 'Y', y)) ?? roundResult(x, y),
    kernel: (args, ctx) => round(requiredValue(args, 0, 'round', 'X'), valueArg(args, 1), ctx.rows),
    doc: 'round(X;Y): X rounded to the nearest multiple of Y (default 1), halves away from zero.',
  },
  {
    name: 'pow',
    args: [
      { kind: 'value', name: 'X', types: NUMERIC },
      { kind: 'value', name: 'Y', types: NUMERIC },
    ],
    result: ([x, y]) => firstError(needNumber('pow', 'X', x), needNumber('pow', 'Y', y)) ?? 'float',
    kernel: (args, ctx) => arithmetic('^', requiredValue(args, 0, 'pow', 'X'), requiredValue(args, 1, 'pow', 'Y'), ctx.rows),
    doc: 'pow(X;Y): X to the power Y, as X^Y.',
  },
  variadic('max'),
  variadic('min'),
]
