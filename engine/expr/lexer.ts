/**
 * The expression lexer: text → tokens, with 1-based line/column positions relative to the
 * expression text. White space (including newlines and tabs) only separates tokens; the parser
 * never needs it, because list items and column-list names are told apart by token kind.
 *
 * The comma rule. A comma has two jobs: thousands separator in a number (`12,345.67`) and column
 * separator in a G/O argument (`g_cnt(a,b;)`). Columns are names and names start with a letter,
 * so digits after a comma can only be part of a number, unless the comma itself follows a name
 * or another comma: there we are (or may be) inside a column list, so `a,123` lexes as name,
 * comma, number and the parser reports "expected a column name". Everywhere else (start, after
 * `(`, `;`, an operator or another constant) `digits,digit…` must be a well-formed grouped number:
 * `f(1,234)` is f(1234), and `1,23` or `1234,567` is an error, never two values.
 */
import { exprSyntaxError, positionText } from './errors.js'
import type { PositionText } from './errors.js'
import { lexNumeric } from './lex-number.js'
import { lexOperator } from './lex-operator.js'
import { lexText } from './lex-text.js'
import { Source, isDigit, isLetter, isNameChar, isSpace } from './source.js'
import type { Token } from './token.js'

export interface LexOptions {
  /** Accept `@name` and `@name.field` (inside block-level `{…}` expressions). */
  readonly vars?: boolean
}

/**
 * Splits an expression into tokens, ending with one `eof` token.
 * @throws AppError EXPR_ERROR at the first character that cannot start or continue a token
 */
export function lex(text: string, opts: LexOptions = {}): Token[] {
  const src = new Source(text)
  const at = positionText(text)
  const tokens: Token[] = []
  for (;;) {
    src.skipWhile(isSpace)
    if (src.atEnd) {
      tokens.push({ type: 'eof', text: '', loc: src.loc })
      return tokens
    }
    tokens.push(lexToken(src, at, tokens[tokens.length - 1], opts))
  }
}

function lexToken(src: Source, at: PositionText, prev: Token | undefined, opts: LexOptions): Token {
  const c = src.char()
  if (isDigit(c) || (c === '.' && isDigit(src.char(1)))) return lexNumeric(src, at, allowsGroups(prev))
  if (c === "'") return lexText(src, at)
  if (isLetter(c)) return lexName(src)
  if (c === '@') return lexVar(src, at, opts)
  return lexOperator(src, at)
}

/** See the comma rule above: no thousands groups right after a name or a comma. */
function allowsGroups(prev: Token | undefined): boolean {
  return !(prev && (prev.type === 'ident' || prev.type === 'var' || (prev.type === 'op' && prev.op === ',')))
}

/** A column or function name. Names are case-insensitive, so they are lower-cased here, once. */
function lexName(src: Source): Token {
  const loc = src.loc
  const start = src.pos
  src.skipWhile(isNameChar)
  const text = src.since(start)
  return { type: 'ident', name: text.toLowerCase(), text, loc }
}

/** `@name` or `@name.field`; only block-level expressions have variables. */
function lexVar(src: Source, at: PositionText, opts: LexOptions): Token {
  const loc = src.loc
  const start = src.pos
  src.advance()
  if (!isLetter(src.char())) {
    const found = src.since(start) + src.char()
    throw exprSyntaxError(`Expected a variable name after '@' at ${at(loc)}, found ${found.length > 1 ? `'${found}'` : 'end of expression'}`, loc, found)
  }
  src.skipWhile(isNameChar)
  if (src.char() === '.' && isLetter(src.char(1))) {
    src.advance()
    src.skipWhile(isNameChar)
  }
  const text = src.since(start)
  if (!opts.vars) {
    throw exprSyntaxError(`Variable '${text}' at ${at(loc)} is not allowed here: variables can only be used inside a block expression {…}`, loc, text)
  }
  return { type: 'var', name: text.slice(1).toLowerCase(), text, loc }
}
