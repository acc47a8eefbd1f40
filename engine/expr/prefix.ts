/**
 * Prefix handlers: what an operand may start with. Each consumes its tokens and returns a node;
 * the loop in pratt.ts then applies the infix operators that follow.
 */
import type { Expr } from '../ast.js'
import { parseCall } from './call.js'
import { failAfterOperand, failNoOperand } from './messages.js'
import { BP, NOT_MAX_BP } from './precedence.js'
import { describeToken, isConstant, isOp } from './token.js'
import type { ConstantToken, Token } from './token.js'
import type { ExprParser } from './pratt.js'

/** Parses one operand (with its prefix operators) at binding power `minBp`. */
export function parsePrefix(p: ExprParser, minBp: number): Expr {
  const tok = p.ts.peek()
  switch (tok.type) {
    case 'num':
    case 'str':
    case 'date':
    case 'time':
      p.ts.next()
      return listFrom(p, constant(tok))
    case 'ident':
      p.ts.next()
      return p.ts.sees('(') ? parseCall(p, tok) : p.node({ kind: 'Col', name: tok.name, loc: tok.loc }, [])
    case 'var':
      p.ts.next()
      return p.node({ kind: 'Var', name: tok.name, loc: tok.loc }, [])
    case 'op':
      if (tok.op === '(') return group(p, p.ts.next())
      if (tok.op === '-') return negate(p, p.ts.next())
      if (tok.op === '~') return not(p, p.ts.next(), minBp)
      return failNoOperand(p.ts, tok)
    case 'eof':
      return failNoOperand(p.ts, tok)
  }
}

function constant(t: ConstantToken): Expr {
  switch (t.type) {
    case 'num':
      return { kind: 'Num', value: t.value, int: t.int, ...(t.digits !== undefined && { digits: t.digits }), loc: t.loc }
    case 'str':
      return { kind: 'Str', value: t.value, loc: t.loc }
    case 'date':
      return { kind: 'Date', value: t.value, loc: t.loc }
    case 'time':
      return { kind: 'Time', value: t.value, loc: t.loc }
  }
}

/**
 * Constants written side by side form a list (`'NY' 'CA'`, `1 2 3`, `-1 2`). Only constants:
 * `1 -2` stays a subtraction, so a negative number can only be a list's first item.
 */
function listFrom(p: ExprParser, first: Expr): Expr {
  if (!isConstant(p.ts.peek())) return p.node(first, [])
  const items = [first]
  for (let t = p.ts.peek(); isConstant(t); t = p.ts.peek()) {
    p.ts.next()
    items.push(constant(t))
  }
  return p.node({ kind: 'List', items, loc: first.loc }, items)
}

function group(p: ExprParser, open: Token): Expr {
  const inner = p.expr(BP.none)
  const close = p.ts.peek()
  if (!isOp(close, ')')) failAfterOperand(p.ts, close, `')' to close '(' opened at ${p.ts.at(open.loc)}`)
  p.ts.next()
  return inner
}

/** Unary minus binds tighter than `^`; directly before a number it makes a negative literal. */
function negate(p: ExprParser, minus: Token): Expr {
  const t = p.ts.peek()
  if (t.type === 'num') {
    p.ts.next()
    // `0 - v`, not `-v`: a literal -0 would differ from 0 under deep equality and Object.is.
    return listFrom(p, { kind: 'Num', value: 0 - t.value, int: t.int, ...(t.digits !== undefined && { digits: `-${t.digits}` }), loc: minus.loc })
  }
  const operand = p.expr(BP.unary)
  return p.node({ kind: 'Neg', operand, loc: minus.loc }, [operand])
}

/** `~` takes everything to its right, up to the end of the enclosing parentheses or argument. */
function not(p: ExprParser, tilde: Token, minBp: number): Expr {
  if (minBp > NOT_MAX_BP) {
    const before = p.ts.previous(1)
    p.ts.fail(
      `Unexpected '~' at ${p.ts.at(tilde.loc)}${before ? ` after ${describeToken(before)}` : ''}: ` +
        "~ negates everything to its right, so it may only start an expression or follow '&', '|', '(' or ';'; write (~…) in parentheses",
      tilde,
    )
  }
  const operand = p.expr(BP.none)
  return p.node({ kind: 'Not', operand, loc: tilde.loc }, [operand])
}
