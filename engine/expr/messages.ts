/**
 * Wording for "the wrong token came next" errors, shared by the top level, parentheses and
 * calls. Each message says what was found and where, and what would have been accepted there.
 */
import { describeToken, isConstant, startsOperand } from './token.js'
import type { Token } from './token.js'
import type { TokenStream } from './stream.js'

/**
 * Fails because `found` cannot follow a complete operand.
 * @param closer what would close the context: '' at the top level, "')' to close '(' opened at
 *   column 5", "';' or ')' to close 'f(' opened at column 1"
 */
export function failAfterOperand(ts: TokenStream, found: Token, closer: string): never {
  const at = ts.at(found.loc)
  const what = `${describeToken(found)} at ${at}`
  if (startsOperand(found)) {
    const expected = closer ? `an operator or ${closer}` : 'an operator'
    ts.fail(`Expected ${expected}, found ${what}${juxtapositionHint(ts.previous(), found)}`, found)
  }
  if (closer) ts.fail(`Expected ${closer}, found ${what}${punctuationHint(found)}`, found)
  ts.fail(`Unexpected ${what}${punctuationHint(found)}`, found)
}

/** Why two operands side by side are not a list here. */
function juxtapositionHint(prev: Token | undefined, found: Token): string {
  if (!prev) return ''
  if (prev.type === 'ident' && found.type === 'ident') return ' (a list of column names is only allowed as a function argument)'
  if (isConstant(prev) !== isConstant(found) && (isConstant(prev) || isConstant(found))) return ' (a list may only hold constants)'
  return ''
}

function punctuationHint(found: Token): string {
  if (found.type !== 'op') return ''
  switch (found.op) {
    case ')':
      return ": there is no '(' to close"
    case ';':
      return ": ';' only separates the arguments of a function call"
    case ',':
      return ": ',' only separates column names in a function argument (separate list values with spaces)"
    default:
      return ''
  }
}

/** Fails because an operand was expected and `found` cannot start one. */
export function failNoOperand(ts: TokenStream, found: Token): never {
  const prev = ts.previous()
  const after = prev ? ` after ${describeToken(prev)}` : ''
  ts.fail(`Expected a value${after} (a number, text, date, column, function call or '('), found ${describeToken(found)} at ${ts.at(found.loc)}`, found)
}
