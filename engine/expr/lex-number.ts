/**
 * Lexing of everything that starts with a digit (or `.digit`): numbers, thousands-comma numbers,
 * date literals (m/d/yy, m/d/yyyy) and time literals (h:mm, h:mm:ss).
 *
 * A date is recognised only when a digit run of 1–2 digits is followed, without spaces, by
 * `/`, 1–2 digits, `/` and at least two digits, or is the year-first `yyyy/m/d` (`2014/01/15`,
 * the yyyymmdd form written with slashes, which 1010data reads as a date, never as 2014÷1÷15);
 * anything else (`6/2/3`, `100/5/20`) stays a division. Once a text has that shape it must be a valid date or it is an error, so a typo in a
 * date never turns silently into arithmetic. Any digits followed by `:` must form a valid time.
 */
import { BIGINT_MAX } from '../../shared/table.js'
import type { Loc } from '../ast.js'
import { dateValue, timeValue } from './calendar.js'
import { exprSyntaxError } from './errors.js'
import type { PositionText } from './errors.js'
import { isDigit, isNameChar } from './source.js'
import type { Source } from './source.js'
import type { Token } from './token.js'

const DATE_SHAPE = /(\d{1,2})\/(\d{1,2})\/(\d{2,})/y
const YEAR_FIRST_SHAPE = /(\d{4})\/(\d{1,2})\/(\d+)/y
const TIME_SHAPE = /(\d+):(\d*)(?::(\d*))?/y
const LITERAL_RUN = /(?:[A-Za-z0-9_.:/]|,(?=\d))*/y

/**
 * Reads the numeric token at the cursor.
 * @param allowGroups whether `12,345` may be one number here: false right after a name or a
 *   comma, where the comma separates column names (see lexer.ts)
 */
export function lexNumeric(src: Source, at: PositionText, allowGroups: boolean): Token {
  const date = src.char() === '.' ? null : matchAt(DATE_SHAPE, src)
  if (date) return lexDate(src, at, date)
  const yearFirst = src.char() === '.' ? null : matchAt(YEAR_FIRST_SHAPE, src)
  if (yearFirst) return lexYearFirstDate(src, at, yearFirst)
  const time = src.char() === '.' ? null : matchAt(TIME_SHAPE, src)
  if (time) return lexTime(src, at, time)
  return lexNumber(src, at, allowGroups)
}

function matchAt(re: RegExp, src: Source): RegExpExecArray | null {
  re.lastIndex = src.pos
  return re.exec(src.text)
}

function lexDate(src: Source, at: PositionText, m: RegExpExecArray): Token {
  const loc = src.loc
  const start = src.pos
  src.advance(m[0].length)
  const yearText = m[3]
  if ((yearText.length !== 2 && yearText.length !== 4) || endsBadly(src)) {
    const found = badRun(src, start)
    throw exprSyntaxError(`Malformed date '${found}' at ${at(loc)}: write m/d/yy or m/d/yyyy (to divide, put spaces around '/')`, loc, found)
  }
  const value = dateValue(Number(m[1]), Number(m[2]), yearText)
  if (typeof value !== 'number') throw exprSyntaxError(`Invalid date '${m[0]}' at ${at(loc)}: ${value.error}`, loc, m[0])
  return { type: 'date', value, text: m[0], loc }
}

function lexYearFirstDate(src: Source, at: PositionText, m: RegExpExecArray): Token {
  const loc = src.loc
  const start = src.pos
  src.advance(m[0].length)
  if (m[3].length > 2 || endsBadly(src)) {
    const found = badRun(src, start)
    throw exprSyntaxError(`Malformed date '${found}' at ${at(loc)}: write yyyy/m/d, m/d/yyyy or yyyymmdd (to divide, put spaces around '/')`, loc, found)
  }
  const value = dateValue(Number(m[2]), Number(m[3]), m[1])
  if (typeof value !== 'number') throw exprSyntaxError(`Invalid date '${m[0]}' at ${at(loc)}: ${value.error} (to divide, put spaces around '/')`, loc, m[0])
  return { type: 'date', value, text: m[0], loc }
}

function lexTime(src: Source, at: PositionText, m: RegExpExecArray): Token {
  const loc = src.loc
  const start = src.pos
  src.advance(m[0].length)
  const seconds = m[3] ?? '00'
  if (m[1].length > 2 || m[2].length !== 2 || seconds.length !== 2 || endsBadly(src)) {
    const found = badRun(src, start)
    throw exprSyntaxError(`Malformed time '${found}' at ${at(loc)}: write h:mm or h:mm:ss`, loc, found)
  }
  const value = timeValue(Number(m[1]), Number(m[2]), Number(seconds))
  if (typeof value !== 'number') throw exprSyntaxError(`Invalid time '${m[0]}' at ${at(loc)}: ${value.error}`, loc, m[0])
  return { type: 'time', value, text: m[0], loc }
}

function lexNumber(src: Source, at: PositionText, allowGroups: boolean): Token {
  const loc = src.loc
  const start = src.pos
  const lead = src.skipWhile(isDigit)
  if (allowGroups && src.char() === ',' && isDigit(src.char(1))) lexGroups(src, at, start, loc, lead)
  let int = true
  if (src.char() === '.') {
    if (!isDigit(src.char(1))) fail(src, at, start, loc, 'a decimal point must be followed by a digit')
    src.advance()
    src.skipWhile(isDigit)
    int = false
  }
  checkEnd(src, at, start, loc)
  const text = src.since(start)
  const plain = text.replaceAll(',', '')
  const value = Number(plain)
  // A whole number past the 32-bit range is a big integer (ast.ts literalType), rather than an int
  // that would wrap (3000000000 as -1294967296) or read as N/A; past ±2^53 its digits are kept, as
  // a float64 would round them.
  if (int && !Number.isSafeInteger(value)) {
    if (BigInt(plain) > BIGINT_MAX) {
      throw exprSyntaxError(
        `Integer ${text} at ${at(loc)} is too large: the largest big integer is ${BIGINT_MAX} (2^63 - 1; add '.0' for an approximate decimal)`,
        loc,
        text,
      )
    }
    return { type: 'num', value, int, digits: plain, text, loc }
  }
  return { type: 'num', value, int, text, loc }
}

/** Reads `,ddd` groups after the leading digits; any other digits after a comma are an error. */
function lexGroups(src: Source, at: PositionText, start: number, loc: Loc, lead: number): void {
  const why = 'a thousands comma needs 1 to 3 digits before the first comma and exactly 3 after each (list values are separated by spaces, not commas)'
  if (lead > 3) fail(src, at, start, loc, why)
  while (src.char() === ',' && isDigit(src.char(1))) {
    src.advance()
    if (src.skipWhile(isDigit) !== 3) fail(src, at, start, loc, why)
  }
}

/** A number glued to a letter, `_` or a second `.` is a typo, not two tokens. */
function checkEnd(src: Source, at: PositionText, start: number, loc: Loc): void {
  const c = src.char()
  if (c === '.') fail(src, at, start, loc, 'a number has at most one decimal point')
  if (!isNameChar(c)) return
  const exponent = (c === 'e' || c === 'E') && (isDigit(src.char(1)) || ('+-'.includes(src.char(1)) && isDigit(src.char(2))))
  fail(
    src,
    at,
    start,
    loc,
    exponent ? 'there is no exponent notation (write 1000, not 1e3)' : "a number cannot be followed directly by a letter or '_' (names start with a letter)",
  )
}

function fail(src: Source, at: PositionText, start: number, loc: Loc, why: string): never {
  const found = badRun(src, start)
  throw exprSyntaxError(`Malformed number '${found}' at ${at(loc)}: ${why}`, loc, found)
}

/** After a date or time, a character that would continue it makes the whole run malformed. */
function endsBadly(src: Source): boolean {
  const c = src.char()
  return isNameChar(c) || c === '.' || c === '/' || c === ':'
}

/** The malformed literal as the user sees it: the run of literal-like characters from `start`. */
function badRun(src: Source, start: number): string {
  LITERAL_RUN.lastIndex = start
  return LITERAL_RUN.exec(src.text)?.[0] ?? ''
}
