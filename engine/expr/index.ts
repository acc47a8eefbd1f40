/**
 * Value expressions of the macro language (reference §3): `parseExpr` turns the text of a
 * `value`, `source` or `{…}` attribute into an `Expr` tree; `showExpr` prints a tree canonically;
 * `exprColumns` lists the columns a tree names.
 *
 * Decisions where the reference is unconfirmed (keep tests and docs in step with these):
 * - Unary minus binds tighter than `^`; `-` before a number literal gives a negative Num, so
 *   `-1 2` is a list, but `1 -2` is a subtraction (a negative number can only start a list).
 * - `~` may only start an expression or follow `&`, `|`, `(`, `;` or `~`; `a = ~b` is an error.
 * - Lists are parsed wherever constants are juxtaposed; where a list is allowed (`=`, `<>`,
 *   list-aware arguments) and whether its items share a type is the checker's decision.
 * - Two-digit years: 00–49 → 20xx, 50–99 → 19xx. Dates and times are range-checked.
 * - `m/d/y` with a one-digit third part (`6/2/3`) or a 3+-digit first/second part is division;
 *   a 3-digit or 5+-digit year is an error.
 * - No exponent notation: `1e3` is an error. `5.` is an error; `.5` is 0.5.
 * - Integers above 2^53-1 are an error rather than silently rounded.
 * - Names start with a letter (`_x` and `2x` are errors) and are lower-cased, variables too.
 * - Text escapes: `''` and `\'` are a quote; any other backslash is literal.
 * - Whitespace between a function name and `(` is allowed (`max (a;b)` is a call).
 * - Column lists are recognised syntactically in any call argument (two or more names).
 */
import type { Expr } from '../ast.js'
import { positionText } from './errors.js'
import { lex } from './lexer.js'
import { parseTokens } from './pratt.js'

export { showExpr } from './show.js'
export { exprColumns } from './columns.js'
export { MAX_ARGS, MAX_DEPTH } from './limits.js'

export interface ParseExprOptions {
  /** Allow `@name` / `@name.field` variables (block-level `{…}` expressions). Default false. */
  readonly vars?: boolean
}

/**
 * Parses one value expression. Positions in the tree and in errors are 1-based line/column
 * within `text`.
 * @throws AppError with code EXPR_ERROR and detail `{ line, col, found }` for any text that is
 *   not exactly one well-formed expression (including empty text)
 */
export function parseExpr(text: string, opts: ParseExprOptions = {}): Expr {
  return parseTokens(lex(text, opts), positionText(text))
}
