/** How block-expansion errors are worded: the position first, then what is wrong and where. */
import { AppError } from '../../shared/errors.js'
import type { ErrorCode } from '../../shared/errors.js'
import type { Loc } from '../ast.js'

/**
 * Where a value being expanded comes from, for messages: the element's position, a label such as
 * `<sel value>`, and the chain of block insertions that led there.
 */
export interface Where {
  readonly loc: Loc
  readonly what: string
  readonly trail: Trail | null
}

/**
 * The chain of block insertions that led to the current point, innermost first (null at the top
 * level). Kept as a linked list and worded only when an error is reported, since deep expansions
 * pass through many frames and almost never fail.
 */
export interface Trail {
  readonly block: string
  /** `inserted`, `expanded` or `called`. */
  readonly verb: string
  readonly line: number
  readonly outer: Trail | null
}

/** ` (in block 'b', inserted at line 4) (in block 'a', …)`, or '' at the top level. */
export function trailText(trail: Trail | null): string {
  let text = ''
  for (let t = trail; t; t = t.outer) text += ` (in block '${t.block}', ${t.verb} at line ${t.line})`
  return text
}

/** An AppError positioned at `loc`, with the insertion trail appended. */
export function blockError(
  loc: Loc,
  message: string,
  trail: Trail | null = null,
  code: ErrorCode = 'CHECK_ERROR',
  detail: Record<string, unknown> = {},
): AppError {
  return new AppError(code, `Line ${loc.line}, column ${loc.col}: ${message}${trailText(trail)}`, { line: loc.line, col: loc.col, ...detail })
}

/**
 * A failure inside a block-level expression, before it is known where the expression sits; the
 * substitution that evaluated it adds the position.
 */
export class ScalarError extends Error {
  override readonly name = 'ScalarError'
}
