/**
 * Binding powers, from the reference's precedence table (§3.2). Higher binds tighter. Every
 * binary level is left-associative (`2^3^2` is `(2^3)^2`, `a|b&c` is `(a|b)&c`): the Pratt loop
 * parses a right operand with the operator's own power and stops at an operator of equal power.
 *
 *   ^            60   power
 *   * /          50
 *   + -          40
 *   = <> < > <= >= 30 comparisons
 *   & |          20   one level: and/or have equal precedence
 *   ~            prefix, lowest: its operand is everything to its right up to the end of the
 *                enclosing parentheses or argument (so `a & ~b=c` is `a & ~(b=c)`)
 *   unary -      70   tighter than ^: `-2^2` is `(-2)^2`
 */
import type { BinOp } from '../ast.js'

export const BP = {
  /** Where no operator binds yet: the start of an expression, parentheses or an argument. */
  none: 0,
  logic: 20,
  compare: 30,
  additive: 40,
  multiplicative: 50,
  power: 60,
  /** Unary minus: its operand is a single primary (or another unary minus). */
  unary: 70,
} as const

export interface InfixRule {
  readonly bp: number
  readonly op: BinOp
}

/** Every binary operator, keyed by its token text. */
export const INFIX: Readonly<Partial<Record<string, InfixRule>>> = {
  '^': { bp: BP.power, op: '^' },
  '*': { bp: BP.multiplicative, op: '*' },
  '/': { bp: BP.multiplicative, op: '/' },
  '+': { bp: BP.additive, op: '+' },
  '-': { bp: BP.additive, op: '-' },
  '=': { bp: BP.compare, op: '=' },
  '<>': { bp: BP.compare, op: '<>' },
  '<': { bp: BP.compare, op: '<' },
  '>': { bp: BP.compare, op: '>' },
  '<=': { bp: BP.compare, op: '<=' },
  '>=': { bp: BP.compare, op: '>=' },
  '&': { bp: BP.logic, op: '&' },
  '|': { bp: BP.logic, op: '|' },
}

/**
 * `~` may start an operand only where nothing tighter than `&`/`|` is waiting for it: at the
 * start of an expression, after `(`, `;`, `&`, `|` or another `~`. After `=` or `+` its
 * "rest of the expression" operand would swallow operators that bind tighter than the one on
 * its left, which the reference's grammar (§3.7) does not allow, so it is an error there.
 */
export const NOT_MAX_BP = BP.logic
