/**
 * `{…}` substitution in attribute values and text. Braces nest and the innermost are evaluated
 * first, their result pasted as text into the enclosing braces (so `{endswith('{@tbl}';'x')=1}`
 * sees the table name inside quotes). A pasted result is never scanned for braces again, so a
 * variable holding `{` cannot trigger further evaluation.
 */
import { AppError } from '../../shared/errors.js'
import { parseExpr } from '../expr/index.js'
import { BLOCK_LIMITS } from './limits.js'
import { blockError, ScalarError } from './errors.js'
import type { Where } from './errors.js'
import { evalScalar } from './scalar.js'
import type { VarLookup } from './scalar.js'
import { formatScalar } from './scalar-value.js'
import type { Scalar } from './scalar-value.js'

/** A bare `{@name}`: inserted as is, without going through the expression parser. */
const PLAIN_VAR = /^\s*@([a-z][a-z0-9_]*)\s*$/

/** Receives the size of each piece of work: an expression about to be parsed, a value pasted. */
export type Spend = (chars: number) => void

/**
 * Replaces every `{…}` in `text`; throws CHECK_ERROR / EXPR_ERROR positioned at `where`.
 * @param spend told the length of every expression evaluated and every value pasted, so the
 *   caller can bound the total work of an expansion (it may throw to stop it)
 */
export function substitute(text: string, vars: VarLookup, where: Where, spend: Spend = () => {}): string {
  if (!text.includes('{')) return text
  const { out, end } = scan(text, 0, 0, { vars, where, spend })
  if (end < text.length) throw blockError(where.loc, `unbalanced '}' in ${where.what}`, where.trail)
  return out
}

/** What every level of a substitution needs. */
interface Context {
  readonly vars: VarLookup
  readonly where: Where
  readonly spend: Spend
}

/**
 * Reads from `i` up to the `}` closing this depth (or the end at depth 0); returns the substituted
 * text. Recurses once per level of braces, so the depth is capped before the stack runs out.
 */
function scan(text: string, i: number, depth: number, ctx: Context): { out: string; end: number } {
  const { where } = ctx
  if (depth > BLOCK_LIMITS.maxBraceDepth) throw blockError(where.loc, `{…} nested more than ${BLOCK_LIMITS.maxBraceDepth} deep in ${where.what}`, where.trail)
  let out = ''
  while (i < text.length) {
    const brace = nextBrace(text, i, depth > 0)
    out += text.slice(i, brace)
    i = brace
    if (i >= text.length) break
    if (text[i] === '}') return { out, end: i }
    const inner = scan(text, i + 1, depth + 1, ctx)
    if (inner.end >= text.length) throw blockError(where.loc, `'{' at position ${i + 1} of ${where.what} is never closed: expected '}'`, where.trail)
    out += evaluate(inner.out, ctx)
    if (out.length > BLOCK_LIMITS.maxValueLength) throw tooLong(where)
    i = inner.end + 1
  }
  return { out, end: i }
}

/** The offset of the next `{` (or, inside braces, `}`) from `i`; the text's length when there is none. */
function nextBrace(text: string, i: number, inside: boolean): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 123 || (inside && c === 125)) return i
  }
  return i
}

/** The text that replaces one `{…}` whose inner braces are already substituted. */
function evaluate(source: string, { vars, where, spend }: Context): string {
  if (source.trim() === '') throw blockError(where.loc, `empty {} in ${where.what}`, where.trail)
  const plain = PLAIN_VAR.exec(source)
  if (plain) {
    const value = vars(plain[1])
    if (value === undefined) throw blockError(where.loc, `unknown variable @${plain[1]} in ${where.what}`, where.trail, 'CHECK_ERROR', { variable: plain[1] })
    spend(value.length)
    return value
  }
  spend(source.length)
  const show = (s: string): string => `{${s}}`
  const value = evaluateBlockExpr(source, vars, where, show)
  // Formatting refuses values that cannot be written into a query ({10^400}, {(0-1)^0.5}).
  let text: string
  try {
    text = formatScalar(value)
  } catch (err) {
    throw relocate(err, show(shorten(source)), where)
  }
  spend(text.length)
  return text
}

/** An expression as quoted in messages: long ones cut. */
const shorten = (source: string): string => (source.length > 60 ? `${source.slice(0, 60)}…` : source)

/**
 * Parses and evaluates one block expression; failures become AppErrors positioned at `where`.
 * @param show how the expression is quoted in messages
 */
export function evaluateBlockExpr(source: string, vars: VarLookup, where: Where, show: (source: string) => string): Scalar {
  try {
    return evalScalar(parseExpr(source, { vars: true }), vars)
  } catch (err) {
    throw relocate(err, show(shorten(source)), where)
  }
}

/** Positions a ScalarError or an expression syntax error at the element holding the expression. */
export function relocate(err: unknown, shown: string, where: Where): unknown {
  if (err instanceof ScalarError) return blockError(where.loc, `${err.message} in ${shown} of ${where.what}`, where.trail)
  if (err instanceof AppError && err.code === 'EXPR_ERROR') {
    return blockError(where.loc, `${where.what}: block expression ${shown}: ${err.message}`, where.trail, 'EXPR_ERROR', {
      exprLine: err.detail.line,
      exprCol: err.detail.col,
    })
  }
  return err
}

function tooLong(where: Where): AppError {
  return blockError(where.loc, `substitution in ${where.what} produces more than ${BLOCK_LIMITS.maxValueLength} characters`, where.trail)
}
