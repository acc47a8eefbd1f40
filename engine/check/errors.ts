/** Check errors name the problem and where it is: the operation's line and column. */
import { AppError } from '../../shared/errors.js'
import type { Loc } from '../ast.js'

export function checkError(loc: Loc | undefined, message: string, detail: Record<string, unknown> = {}): AppError {
  const where = loc ? `Line ${loc.line}, column ${loc.col}: ` : ''
  return new AppError('CHECK_ERROR', where + message, { ...(loc ? { line: loc.line, col: loc.col } : {}), ...detail })
}

/**
 * Expression locations count from the start of the attribute value, so an error found inside an
 * expression is reported at its operation, naming the attribute and the column inside it.
 */
export function inExpression(err: unknown, opLoc: Loc, where: string): unknown {
  if (!(err instanceof AppError) || err.code !== 'CHECK_ERROR' || err.detail.exprCol === undefined) return err
  const at = err.detail.exprLine === 1 ? `column ${err.detail.exprCol}` : `line ${err.detail.exprLine}, column ${err.detail.exprCol}`
  return new AppError('CHECK_ERROR', `Line ${opLoc.line}, column ${opLoc.col}, ${where}: ${err.message.replace(/\.$/, '')} (at ${at} of the expression).`, {
    ...err.detail,
    line: opLoc.line,
    col: opLoc.col,
    attribute: where,
  })
}

/**
 * A CHECK_ERROR found inside an expression: positioned within the expression text (exprLine,
 * exprCol) until `inExpression` places it at its operation. Not the lexer/parser's EXPR_ERROR
 * (`exprSyntaxError` in engine/expr/errors.ts).
 */
export function exprCheckError(loc: Loc, message: string, detail: Record<string, unknown> = {}): AppError {
  return new AppError('CHECK_ERROR', message, { exprLine: loc.line, exprCol: loc.col, ...detail })
}
