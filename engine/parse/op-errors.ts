/** Errors of the operation builder: the element's line first, then what is wrong with it. */
import { AppError } from '../../shared/errors.js'
import type { XmlElement } from '../ast.js'

/** CHECK_ERROR `Line L: message`, with the element's line and column in the detail. */
export function opError(el: XmlElement, message: string, detail: Record<string, unknown> = {}): AppError {
  return new AppError('CHECK_ERROR', `Line ${el.loc.line}: ${message}`, { line: el.loc.line, col: el.loc.col, element: el.name, ...detail })
}

/** CHECK_ERROR for a feature the engine refuses rather than guessing at its meaning. */
export function unsupported(el: XmlElement, what: string): AppError {
  return opError(el, `${what} is not supported`)
}
