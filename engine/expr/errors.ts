/**
 * How expression errors are built and worded. Every failure of the lexer or parser is an
 * `AppError('EXPR_ERROR')` whose detail carries the position and the offending text, so the
 * gateway can point at it; the message repeats the position in words for people reading logs.
 */
import { AppError } from '../../shared/errors.js'
import type { Loc } from '../ast.js'

/** Longest `found` text quoted in a message or detail: an unterminated text may run to the end. */
const FOUND_MAX = 40

/** States a position in words: `column 5`, or `line 2, column 5` once the text has several lines. */
export type PositionText = (loc: Loc) => string

/**
 * A position formatter for one expression. Single-line texts (nearly all attribute values) say
 * only the column; a line number there would be noise.
 */
export function positionText(text: string): PositionText {
  return /[\r\n]/.test(text) ? (loc) => `line ${loc.line}, column ${loc.col}` : (loc) => `column ${loc.col}`
}

/** Shortens long source text for messages, keeping its start (where the problem begins). */
export function clip(text: string): string {
  return text.length > FOUND_MAX ? `${text.slice(0, FOUND_MAX)}…` : text
}

/**
 * The one way expression syntax errors (EXPR_ERROR, from the lexer and parser) are made; a type
 * or name problem found later inside an expression is a CHECK_ERROR, `exprCheckError` in engine/check.
 * @param found the source text of the offending token ('' at the end of the expression)
 */
export function exprSyntaxError(message: string, loc: Loc, found: string): AppError {
  return new AppError('EXPR_ERROR', message, { line: loc.line, col: loc.col, found: clip(found) })
}
