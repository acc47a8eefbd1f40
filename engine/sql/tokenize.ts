/**
 * A lexer for SQLite's dialect that follows SQLite's own tokenizer (src/tokenize.c) rule for rule.
 * The read-only guard is only sound if it splits the text exactly where SQLite does: a string,
 * comment or parameter that ended earlier or later than SQLite's would hide code from the guard.
 * So the odd corners are copied on purpose (a `--` comment ends only at `\n`, a byte-order mark
 * starting a token is whitespace, `:a(x;y)` is one Tcl-style parameter, every non-ASCII character
 * is a name character). Where SQLite stops reading at a NUL, so do our tokens.
 *
 * `tokenize` never throws and its tokens cover the input: their texts concatenate back to it.
 * Text SQLite would refuse becomes an `error` token, for the guard to report with its position.
 */

export type TokenType = 'space' | 'comment' | 'string' | 'blob' | 'ident' | 'number' | 'param' | 'op' | 'error'

/** Why a stretch of text is not a valid token. */
export type LexErrorReason =
  'unterminated-string' | 'unterminated-identifier' | 'unterminated-blob' | 'bad-blob' | 'bad-number' | 'bad-parameter' | 'bad-character' | 'nul'

interface Span {
  readonly text: string
  /** Offset of the first character (UTF-16 code units, like `String.prototype.slice`). */
  readonly start: number
  /** Offset just past the last character. */
  readonly end: number
}

/** A name: bare (`item`) or quoted (`"it""em"`, `` `item` ``, `[item]`); `value` is unquoted. */
export interface IdentToken extends Span {
  readonly type: 'ident'
  readonly value: string
  readonly quoted: boolean
}

export interface ErrorToken extends Span {
  readonly type: 'error'
  readonly reason: LexErrorReason
}

export interface PlainToken extends Span {
  readonly type: Exclude<TokenType, 'ident' | 'error'>
}

export type Token = IdentToken | ErrorToken | PlainToken

const BOM = 0xfeff

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
/** SQLite reads UTF-8 bytes and treats every byte >= 0x80 as a name byte, so every non-ASCII character is one. */
const isIdStart = (c: number): boolean => isLetter(c) || c === 95 || c >= 0x80
const isIdChar = (c: number): boolean => isIdStart(c) || isDigit(c) || c === 36
/** A token may start with \t \n \f \r or space; once inside a run of whitespace, \v counts too. */
const isSpaceStart = (c: number): boolean => c === 9 || c === 10 || c === 12 || c === 13 || c === 32
const isSpace = (c: number): boolean => (c >= 9 && c <= 13) || c === 32
/** The end of the text and a NUL are the same to SQLite: it reads a C string. */
const isEnd = (c: number): boolean => c === 0 || Number.isNaN(c)

const OPERATORS = ['->>', '->', '||', '<=', '<>', '<<', '>=', '>>', '==', '!=']
const SINGLE_OPERATORS = '-/|<>=();+*%,&~.'

/** Splits SQL into tokens that cover it completely. Never throws. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = []
  for (let i = 0; i < sql.length;) {
    const t = scanToken(sql, i)
    tokens.push(t)
    i = t.end
  }
  return tokens
}

function plain(sql: string, type: PlainToken['type'], start: number, end: number): PlainToken {
  return { type, text: sql.slice(start, end), start, end }
}

function fault(sql: string, reason: LexErrorReason, start: number, end: number): ErrorToken {
  return { type: 'error', reason, text: sql.slice(start, end), start, end }
}

function scanToken(sql: string, i: number): Token {
  const c = sql.charCodeAt(i)
  if (c === 0) return fault(sql, 'nul', i, i + 1)
  if (c === BOM) return plain(sql, 'space', i, i + 1)
  if (isSpaceStart(c)) return plain(sql, 'space', i, skipWhile(sql, i + 1, isSpace))
  switch (sql[i]) {
    case '-':
      if (sql[i + 1] === '-')
        return plain(
          sql,
          'comment',
          i,
          skipWhile(sql, i, (d) => d !== 10 && !isEnd(d)),
        )
      break
    case '/':
      // SQLite reads "/*" with nothing after it as a slash (then a star), not as a comment.
      if (sql[i + 1] === '*' && !isEnd(sql.charCodeAt(i + 2))) return plain(sql, 'comment', i, blockCommentEnd(sql, i))
      break
    case "'":
    case '"':
    case '`':
      return scanQuoted(sql, i)
    case '[':
      return scanBracketed(sql, i)
    case 'x':
    case 'X':
      if (sql[i + 1] === "'") return scanBlob(sql, i)
      break
    case '?':
      return plain(sql, 'param', i, skipWhile(sql, i + 1, isDigit))
    case '$':
    case '@':
    case ':':
    case '#':
      return scanNamedParam(sql, i)
    case '!':
      if (sql[i + 1] !== '=') return fault(sql, 'bad-character', i, i + 1)
      break
    case '.':
      if (isDigit(sql.charCodeAt(i + 1))) return scanNumber(sql, i)
      break
  }
  if (isDigit(c)) return scanNumber(sql, i)
  if (isIdStart(c)) {
    const end = skipWhile(sql, i + 1, isIdChar)
    return { type: 'ident', text: sql.slice(i, end), value: sql.slice(i, end), quoted: false, start: i, end }
  }
  const op = OPERATORS.find((o) => sql.startsWith(o, i))
  if (op !== undefined) return plain(sql, 'op', i, i + op.length)
  if (SINGLE_OPERATORS.includes(sql[i])) return plain(sql, 'op', i, i + 1)
  return fault(sql, 'bad-character', i, i + 1)
}

function skipWhile(sql: string, i: number, pred: (c: number) => boolean): number {
  while (i < sql.length && pred(sql.charCodeAt(i))) i++
  return i
}

/** The end of a `/* … *\/` comment; an unterminated one runs to the end (SQLite accepts that). */
function blockCommentEnd(sql: string, start: number): number {
  // The search starts after "/*", so "/*/" does not close itself.
  for (let i = start + 2; !isEnd(sql.charCodeAt(i)); i++) {
    if (sql[i] === '*' && sql[i + 1] === '/') return i + 2
  }
  return skipWhile(sql, start, (c) => c !== 0)
}

/** `'string'`, `"name"` or `` `name` ``; a doubled delimiter stands for itself. */
function scanQuoted(sql: string, start: number): Token {
  const delim = sql[start]
  for (let i = start + 1; !isEnd(sql.charCodeAt(i)); i++) {
    if (sql[i] !== delim) continue
    if (sql[i + 1] === delim) {
      i++
      continue
    }
    const end = i + 1
    if (delim === "'") return plain(sql, 'string', start, end)
    const value = sql
      .slice(start + 1, i)
      .split(delim + delim)
      .join(delim)
    return { type: 'ident', text: sql.slice(start, end), value, quoted: true, start, end }
  }
  const end = skipWhile(sql, start, (c) => c !== 0)
  return fault(sql, delim === "'" ? 'unterminated-string' : 'unterminated-identifier', start, end)
}

/** `[name]`: SQL Server style, with no escape for `]`. */
function scanBracketed(sql: string, start: number): Token {
  const end = skipWhile(sql, start + 1, (c) => c !== 93 && c !== 0)
  if (sql[end] !== ']') return fault(sql, 'unterminated-identifier', start, end)
  return { type: 'ident', text: sql.slice(start, end + 1), value: sql.slice(start + 1, end), quoted: true, start, end: end + 1 }
}

/** `x'0A1B'`: an even number of hex digits. A bad one still ends at the next quote, as in SQLite. */
function scanBlob(sql: string, start: number): Token {
  const hexEnd = skipWhile(sql, start + 2, isHex)
  if (sql[hexEnd] === "'" && (hexEnd - start) % 2 === 0) return plain(sql, 'blob', start, hexEnd + 1)
  const quote = skipWhile(sql, hexEnd, (c) => c !== 39 && c !== 0)
  if (sql[quote] === "'") return fault(sql, 'bad-blob', start, quote + 1)
  return fault(sql, 'unterminated-blob', start, quote)
}

/** Integer, float or hex literal, with `_` digit separators; name characters stuck to it make it invalid. */
function scanNumber(sql: string, start: number): Token {
  const digits = (c: number): boolean => isDigit(c) || c === 95
  let i: number
  if (sql[start] === '0' && (sql[start + 1] === 'x' || sql[start + 1] === 'X') && isHex(sql.charCodeAt(start + 2))) {
    i = skipWhile(sql, start + 3, (c) => isHex(c) || c === 95)
  } else {
    i = skipWhile(sql, start, digits)
    if (sql[i] === '.') i = skipWhile(sql, i + 1, digits)
    const sign = sql[i + 1] === '+' || sql[i + 1] === '-'
    if ((sql[i] === 'e' || sql[i] === 'E') && (isDigit(sql.charCodeAt(i + 1)) || (sign && isDigit(sql.charCodeAt(i + 2))))) {
      i = skipWhile(sql, i + 2, digits)
    }
  }
  const end = skipWhile(sql, i, isIdChar)
  return end > i || !separatorsFit(sql, start, end) ? fault(sql, 'bad-number', start, end) : plain(sql, 'number', start, end)
}

/** SQLite accepts a `_` in a number only between two (hex) digits; it checks after lexing, so do we. */
function separatorsFit(sql: string, start: number, end: number): boolean {
  const hex = sql[start] === '0' && (sql[start + 1] === 'x' || sql[start + 1] === 'X')
  const fits = hex ? isHex : isDigit
  for (let i = sql.indexOf('_', start); i >= 0 && i < end; i = sql.indexOf('_', i + 1)) {
    if (!fits(sql.charCodeAt(i - 1)) || !fits(sql.charCodeAt(i + 1))) return false
  }
  return true
}

/**
 * `:name`, `@name`, `$name`, `#name`, including Tcl forms: `$a::b` and `$a(anything up to ')')`.
 * The second form can swallow `;` or quotes, which is exactly why it must be mirrored.
 */
function scanNamedParam(sql: string, start: number): Token {
  let named = false
  let i = start + 1
  for (; i < sql.length; i++) {
    const c = sql.charCodeAt(i)
    if (isIdChar(c)) {
      named = true
    } else if (sql[i] === '(' && named) {
      const close = skipWhile(sql, i + 1, (d) => d !== 41 && d !== 0 && !isSpace(d))
      if (sql[close] === ')') return plain(sql, 'param', start, close + 1)
      return fault(sql, 'bad-parameter', start, close)
    } else if (sql[i] === ':' && sql[i + 1] === ':') {
      i++
    } else {
      break
    }
  }
  return named ? plain(sql, 'param', start, i) : fault(sql, 'bad-parameter', start, i)
}

/** True for tokens SQLite reads; false for whitespace and comments. */
export const isSignificant = (t: Token): boolean => t.type !== 'space' && t.type !== 'comment'

/** The index of the first significant token at or after `from` (or before it, with step -1); -1 if none. */
export function seekSignificant(tokens: readonly Token[], from: number, step: 1 | -1 = 1): number {
  for (let i = from; i >= 0 && i < tokens.length; i += step) if (isSignificant(tokens[i])) return i
  return -1
}

/** True when the token is the operator `text` (`.`, `;`, `(` …). */
export const isOp = (t: Token | undefined, text: string): boolean => t !== undefined && t.type === 'op' && t.text === text

/**
 * Lower-cases ASCII letters only. SQLite folds the case of names and keywords this way, and
 * JavaScript's full Unicode folding disagrees with it (`'ınsert'.toUpperCase()` is `'INSERT'`).
 */
export const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase())

/** The keyword a bare name spells, upper-cased the ASCII way; undefined for quoted names and other tokens. */
export function keywordOf(t: Token | undefined): string | undefined {
  if (t === undefined || t.type !== 'ident' || t.quoted) return undefined
  return t.value.replace(/[a-z]+/g, (m) => m.toUpperCase())
}
