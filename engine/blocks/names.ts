/** The naming rule for block variables: a lower-case letter, then lower-case letters, digits, `_`. */
import type { Loc } from '../ast.js'
import { blockError } from './errors.js'
import type { Trail } from './errors.js'

const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/

/** Throws CHECK_ERROR unless `name` is a valid variable name; `what` says where it was declared. */
export function checkVariableName(name: string, loc: Loc, what: string, trail: Trail | null): void {
  if (!VARIABLE_NAME.test(name)) {
    throw blockError(loc, `'${name}' in ${what} is not a valid variable name: use a lower-case letter, then lower-case letters, digits or '_'`, trail)
  }
}
