/**
 * Operators and punctuation, and the helpful refusals: people arriving from C, SQL or Excel write
 * `!=`, `==`, `&&`, `!` or `"text"`, so those get a message naming the 1010data spelling instead
 * of a bare "unknown character".
 */
import { exprSyntaxError } from './errors.js'
import type { PositionText } from './errors.js'
import type { Source } from './source.js'
import type { OpText, Token } from './token.js'

const TWO_CHAR: readonly OpText[] = ['<>', '<=', '>=']
const ONE_CHAR = '^*/+-=<>&|~();,'

/** Spellings from other languages, longest first, each with the 1010data way to say it. */
const HINTS: readonly (readonly [string, string])[] = [
  ['!=', 'use <> for "not equal"'],
  ['==', 'use = to compare'],
  ['&&', 'use & for "and"'],
  ['||', 'use | for "or"'],
  ['=<', 'use <= for "less than or equal"'],
  ['=>', 'use >= for "greater than or equal"'],
  ['><', 'use <> for "not equal"'],
  ['!', 'use ~ for "not"'],
  ['"', "text is written in single quotes: 'like this'"],
  ['%', 'use mod(x;y) for a remainder'],
  ['[', 'lists are written with spaces between values, without brackets'],
  ['{', 'a {…} block expression must be substituted before the expression is parsed'],
  ['_', 'names start with a letter'],
]

/** First characters of the hints: the common operators skip the search. */
const HINT_STARTS = new Set(HINTS.map(([spelling]) => spelling[0]))

/** Reads the operator at the cursor, or throws naming the character that is none. */
export function lexOperator(src: Source, at: PositionText): Token {
  const loc = src.loc
  const two = src.char() + src.char(1)
  // Two-character spellings first: `=<` must be refused as a whole, not read as `=` then `<`.
  const op = TWO_CHAR.find((o) => o === two)
  if (op) return take(src, op)
  const hint = HINT_STARTS.has(src.char()) ? HINTS.find(([spelling]) => src.text.startsWith(spelling, src.pos)) : undefined
  if (hint && hint[0].length === 2) throw exprSyntaxError(`Unknown operator '${hint[0]}' at ${at(loc)}: ${hint[1]}`, loc, hint[0])
  if (ONE_CHAR.includes(src.char())) return take(src, src.char() as OpText)
  const ch = String.fromCodePoint(src.text.codePointAt(src.pos) ?? 0)
  const shown = /^[\x21-\x7e]$/.test(ch) ? `'${ch}'` : `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
  throw exprSyntaxError(`Unknown character ${shown} at ${at(loc)}${hint ? `: ${hint[1]}` : ''}`, loc, ch)
}

function take(src: Source, op: OpText): Token {
  const loc = src.loc
  src.advance(op.length)
  return { type: 'op', op, text: op, loc }
}
