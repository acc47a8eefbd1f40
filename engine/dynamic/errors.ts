/** How errors in a dynamic query are worded: the position first, as everywhere in the engine. */
import { AppError } from '../../shared/errors.js'
import type { ErrorCode } from '../../shared/errors.js'
import type { Loc } from '../ast.js'

/** An AppError (CHECK_ERROR unless told) positioned at `loc`, with `{ line, col }` in the detail. */
export function dynamicError(loc: Loc, message: string, code: ErrorCode = 'CHECK_ERROR', detail: Record<string, unknown> = {}): AppError {
  return new AppError(code, `Line ${loc.line}, column ${loc.col}: ${message}`, { line: loc.line, col: loc.col, ...detail })
}

/** `'a', 'b'` or `none` — for messages that list what would have been accepted. */
export function listed(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.map((n) => `'${n}'`).join(', ')
}
