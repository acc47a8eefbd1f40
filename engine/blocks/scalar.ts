/**
 * The evaluator of block-level `{…}` expressions: arithmetic, comparisons (with lists), `& | ~`,
 * variables and the block functions, over trees from parseExpr(…, { vars: true }). It runs at
 * expansion time on single values, so it is a plain recursive walk, not a column kernel.
 */
import type { BinOp, Expr } from '../ast.js'
import { ScalarError } from './errors.js'
import { callBlockFunction } from './scalar-functions.js'
import { atomOf, bool, isNumericText, isTrue, num, quote, str, toNumber } from './scalar-value.js'
import type { Atom, Scalar } from './scalar-value.js'

/** Reads a variable; undefined when it is not bound. */
export type VarLookup = (name: string) => string | undefined

/**
 * Evaluates a block expression.
 * @throws ScalarError with a message that does not yet say where the expression is
 */
export function evalScalar(e: Expr, vars: VarLookup): Scalar {
  switch (e.kind) {
    case 'Num':
      // A literal past 2^53 keeps its digits, as text: inserted as written, refused by arithmetic.
      return e.digits !== undefined ? str(e.digits) : num(e.value)
    case 'Date':
    case 'Time':
      return num(e.value)
    case 'Str':
      return str(e.value)
    case 'List':
      return { kind: 'list', items: e.items.map((item) => atomOf(evalScalar(item, vars), 'a list item')) }
    case 'Var':
      return readVar(e.name, vars)
    case 'Col':
      throw new ScalarError(`'${e.name}' is not a variable: write @${e.name} to use a variable in a block expression`)
    case 'ColList':
      throw new ScalarError(`a list of names (${e.names.join(' ')}) has no value in a block expression`)
    case 'Neg':
      return num(-toNumber(evalScalar(e.operand, vars), "'-'"))
    case 'Not':
      return bool(!isTrue(evalScalar(e.operand, vars), "'~'"))
    case 'Bin':
      return evalBin(e.op, evalScalar(e.left, vars), evalScalar(e.right, vars))
    case 'Call':
      return callBlockFunction(e.name, e.args, (arg) => evalScalar(arg, vars))
  }
}

function readVar(name: string, vars: VarLookup): Scalar {
  if (name.includes('.')) throw new ScalarError(`@${name}: package variables (@name.field) are not supported`)
  const value = vars(name)
  if (value === undefined) throw new ScalarError(`unknown variable @${name}`)
  return str(value)
}

function evalBin(op: BinOp, l: Scalar, r: Scalar): Scalar {
  const what = `'${op}'`
  switch (op) {
    case '^':
      return num(toNumber(l, what) ** toNumber(r, what))
    case '*':
      return num(toNumber(l, what) * toNumber(r, what))
    case '/': {
      const d = toNumber(r, what)
      if (d === 0) throw new ScalarError('division by zero')
      return num(toNumber(l, what) / d)
    }
    case '+':
      return num(toNumber(l, what) + toNumber(r, what))
    case '-':
      return num(toNumber(l, what) - toNumber(r, what))
    case '&':
      return bool(isTrue(l, what) && isTrue(r, what))
    case '|':
      return bool(isTrue(l, what) || isTrue(r, what))
    case '=':
    case '<>':
      return bool(memberOf(l, r, op) === (op === '='))
    default:
      return bool(ordered(op, compare(atomOf(l, what), atomOf(r, what), what)))
  }
}

/** `x = a b c` is true when x equals any member; `x <> a b c` when it equals none. */
function memberOf(l: Scalar, r: Scalar, op: BinOp): boolean {
  if (l.kind === 'list' && r.kind === 'list') throw new ScalarError(`'${op}' cannot compare two lists`)
  const [one, many] = l.kind === 'list' ? [r as Atom, l.items] : [l, r.kind === 'list' ? r.items : [r]]
  return many.some((m) => compare(one, m, `'${op}'`) === 0)
}

/**
 * Compares two values: numerically when both are numbers or one is a number and the other numeric
 * text, as text when both are text; a number against non-numeric text is an error.
 */
function compare(a: Atom, b: Atom, what: string): number {
  if (a.kind === 'str' && b.kind === 'str') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0
  for (const x of [a, b]) {
    if (x.kind === 'str' && !isNumericText(x.value)) throw new ScalarError(`${what} cannot compare the text ${quote(x.value)} with a number`)
  }
  const d = toNumber(a, what) - toNumber(b, what)
  return d < 0 ? -1 : d > 0 ? 1 : 0
}

function ordered(op: BinOp, c: number): boolean {
  switch (op) {
    case '<':
      return c < 0
    case '>':
      return c > 0
    case '<=':
      return c <= 0
    default:
      return c >= 0
  }
}
