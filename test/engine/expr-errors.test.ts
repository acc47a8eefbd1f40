/**
 * parseExpr() error fixtures: each case is an expression that must be refused with EXPR_ERROR at
 * a given line and column, with a message containing a given fragment (and, where it matters,
 * the offending text in `detail.found`).
 */
import { expect } from 'chai'
import { parseExpr } from '../../engine/expr/index.js'
import { AppError } from '../../shared/errors.js'

interface ErrorCase {
  readonly name: string
  readonly expr: string
  readonly line: number
  readonly col: number
  /** A fragment the message must contain (case-sensitive). */
  readonly has: string
  readonly found?: string
  readonly vars?: boolean
}

const EMPTY: readonly ErrorCase[] = [
  { name: 'an empty text', expr: '', line: 1, col: 1, has: 'Empty expression', found: '' },
  { name: 'a text of spaces', expr: '   ', line: 1, col: 4, has: 'Empty expression' },
  { name: 'a text of newlines and tabs', expr: '\n\t', line: 2, col: 2, has: 'Empty expression' },
]

const HINTS: readonly ErrorCase[] = [
  { name: '!= and suggests <>', expr: 'a != b', line: 1, col: 3, has: "Unknown operator '!=' at column 3: use <>", found: '!=' },
  { name: '! and suggests ~', expr: '!a', line: 1, col: 1, has: 'Unknown character \'!\' at column 1: use ~ for "not"', found: '!' },
  { name: '! after an operator and suggests ~', expr: 'a & !b', line: 1, col: 5, has: 'use ~' },
  { name: '== and suggests =', expr: 'a==b', line: 1, col: 2, has: 'use = to compare', found: '==' },
  { name: '&& and suggests &', expr: 'a && b', line: 1, col: 3, has: 'use & for "and"', found: '&&' },
  { name: '|| and suggests |', expr: 'a || b', line: 1, col: 3, has: 'use | for "or"', found: '||' },
  { name: '=< and suggests <=', expr: 'a =< b', line: 1, col: 3, has: 'use <=' },
  { name: '=> and suggests >=', expr: 'a => b', line: 1, col: 3, has: 'use >=' },
  { name: '>< and suggests <>', expr: 'a >< b', line: 1, col: 3, has: 'use <>' },
  { name: 'double quotes and suggests single quotes', expr: 'state="NY"', line: 1, col: 7, has: 'single quotes', found: '"' },
  { name: '% and suggests mod()', expr: 'x%2', line: 1, col: 2, has: 'mod(x;y)' },
  { name: 'a name starting with _ and says names start with a letter', expr: '_x', line: 1, col: 1, has: 'names start with a letter' },
  { name: 'brackets and says lists need none', expr: 'x=[1 2]', line: 1, col: 3, has: 'without brackets' },
  { name: 'an unsubstituted block expression', expr: '{@x}', line: 1, col: 1, has: 'must be substituted' },
  { name: 'an unknown punctuation character', expr: 'a # b', line: 1, col: 3, has: "Unknown character '#' at column 3", found: '#' },
  { name: 'a question mark', expr: 'a ? b : c', line: 1, col: 3, has: "Unknown character '?'" },
  { name: 'a non-ASCII letter, shown as a code point', expr: 'x=é', line: 1, col: 3, has: 'U+00E9', found: 'é' },
  { name: 'a dot between names', expr: 'a.b', line: 1, col: 2, has: "Unknown character '.'" },
  { name: 'a colon that is not part of a time', expr: 'a:b', line: 1, col: 2, has: "Unknown character ':'" },
]

const MISSING_OPERATOR: readonly ErrorCase[] = [
  { name: 'two names side by side outside a call', expr: 'a b', line: 1, col: 3, has: 'Expected an operator, found name', found: 'b' },
  { name: 'a name after a text', expr: "'NY' state", line: 1, col: 6, has: 'a list may only hold constants' },
  { name: 'a name after a list of numbers', expr: '1 2 x', line: 1, col: 5, has: 'Expected an operator' },
  { name: 'a number after a call', expr: 'f(x) 1', line: 1, col: 6, has: 'Expected an operator' },
  { name: 'a name after parentheses', expr: '(a) b', line: 1, col: 5, has: 'Expected an operator' },
  { name: 'a text after a name', expr: "a 'x'", line: 1, col: 3, has: 'a list may only hold constants' },
  { name: 'a variable after a number', expr: 'x=1 @y', line: 1, col: 5, has: 'Expected an operator', vars: true },
  { name: 'a ~ after an operand', expr: 'a & b ~c', line: 1, col: 7, has: "Expected an operator, found '~'" },
  { name: 'a name after a call with omitted arguments', expr: 'g_sum(g;;x) y', line: 1, col: 13, has: 'Expected an operator' },
  { name: 'two names inside parentheses', expr: '(a b)', line: 1, col: 4, has: "Expected an operator or ')' to close '(' opened at column 1" },
  { name: 'three names side by side', expr: 'a b c', line: 1, col: 3, has: 'only allowed as a function argument' },
  // 'f(a+1 b)' parses now: expressions side by side in an argument are a list (splice's L), which
  // the checker refuses anywhere else (test/engine/functions-text-build.test.ts).
  { name: 'a ( after a number', expr: '2(3)', line: 1, col: 2, has: 'Expected an operator' },
]

const UNBALANCED: readonly ErrorCase[] = [
  {
    name: 'an unclosed parenthesis at the end',
    expr: '(a+b',
    line: 1,
    col: 5,
    has: "Expected ')' to close '(' opened at column 1, found end of expression at column 5",
    found: '',
  },
  {
    name: 'an unclosed parenthesis after =',
    expr: 'x = (1',
    line: 1,
    col: 7,
    has: "Expected ')' to close '(' opened at column 5, found end of expression at column 7",
  },
  { name: 'one of two parentheses unclosed', expr: '((a)', line: 1, col: 5, has: "'(' opened at column 1" },
  {
    name: 'an unclosed call after an argument',
    expr: 'f(a;b',
    line: 1,
    col: 6,
    has: "Expected ';' or ')' to close 'f(' opened at column 1, found end of expression",
  },
  { name: 'an unclosed call right after its (', expr: 'f(', line: 1, col: 3, has: "Expected an argument or ')' to close 'f(' opened at column 1" },
  { name: 'an unclosed call after a semicolon', expr: 'if(a;', line: 1, col: 6, has: "Expected an argument or ')' to close 'if(' opened at column 1" },
  { name: 'an unclosed call after a column list', expr: 'g_cnt(a b', line: 1, col: 10, has: "to close 'g_cnt(' opened at column 1" },
  {
    name: 'a semicolon inside plain parentheses',
    expr: 'if(a;(b;c))',
    line: 1,
    col: 8,
    has: "Expected ')' to close '(' opened at column 6, found ';' at column 8",
  },
  { name: 'a stray closing parenthesis', expr: 'a)', line: 1, col: 2, has: "Unexpected ')' at column 2: there is no '(' to close", found: ')' },
  { name: 'a semicolon outside a call', expr: 'a;b', line: 1, col: 2, has: "';' only separates the arguments of a function call" },
  { name: 'a comma outside a call', expr: 'a,b', line: 1, col: 2, has: "',' only separates column names" },
  { name: 'a comma between list values', expr: "x='a','b'", line: 1, col: 6, has: 'separate list values with spaces' },
  { name: 'a closing parenthesis alone', expr: ')', line: 1, col: 1, has: "Expected a value (a number, text, date, column, function call or '('), found ')'" },
  {
    name: 'a comma after a call argument expression',
    expr: 'f(x+1,y)',
    line: 1,
    col: 6,
    has: "Expected ';' or ')' to close 'f(' opened at column 1, found ','",
  },
  { name: 'an unclosed call nested in parentheses', expr: '(f(a)', line: 1, col: 6, has: "Expected ')' to close '(' opened at column 1" },
]

const MISSING_OPERAND: readonly ErrorCase[] = [
  { name: 'a trailing operator', expr: 'a+', line: 1, col: 3, has: "Expected a value after '+'", found: '' },
  { name: 'a leading binary operator', expr: '*a', line: 1, col: 1, has: "Expected a value (a number, text, date, column, function call or '('), found '*'" },
  { name: 'two binary operators in a row', expr: 'a+*b', line: 1, col: 3, has: "Expected a value after '+'" },
  { name: 'empty parentheses', expr: '()', line: 1, col: 2, has: "Expected a value after '('" },
  { name: 'a trailing operator inside a call', expr: 'f(a+)', line: 1, col: 5, has: "Expected a value after '+'" },
  { name: 'a lone ~', expr: '~', line: 1, col: 2, has: "Expected a value after '~'" },
  { name: 'a lone minus', expr: '-', line: 1, col: 2, has: "Expected a value after '-'" },
  { name: 'a trailing comparison', expr: 'x>=', line: 1, col: 4, has: "Expected a value after '>='" },
  { name: 'a leading comma in a call', expr: 'f(,a)', line: 1, col: 3, has: "found ','" },
  { name: 'an operator before a closing parenthesis', expr: '(a-)', line: 1, col: 4, has: "Expected a value after '-'" },
]

const MISPLACED_NOT: readonly ErrorCase[] = [
  { name: '~ right after =', expr: 'a=~b', line: 1, col: 3, has: "Unexpected '~' at column 3 after '='", found: '~' },
  { name: '~ right after +', expr: 'a+~b', line: 1, col: 3, has: "after '+'" },
  { name: '~ right after unary minus', expr: '-~a', line: 1, col: 2, has: "Unexpected '~'" },
  { name: '~ right after ^', expr: 'a^~b', line: 1, col: 3, has: 'write (~…) in parentheses' },
  { name: '~ right after <', expr: 'x<~y', line: 1, col: 3, has: "follow '&', '|', '(' or ';'" },
  { name: '~ right after *', expr: 'x * ~ y', line: 1, col: 5, has: "after '*'" },
]

const COLUMN_LISTS: readonly ErrorCase[] = [
  { name: 'a trailing comma in a column list', expr: 'f(a,)', line: 1, col: 5, has: "Expected a column name after ',' at column 4, found ')' at column 5" },
  { name: 'two commas in a row in a column list', expr: 'f(a,,b)', line: 1, col: 5, has: 'Expected a column name' },
  { name: 'a number after a comma in a column list', expr: 'f(a, 1)', line: 1, col: 6, has: 'found number 1' },
  { name: 'digits right after a comma in a column list', expr: 'g_cnt(a,123)', line: 1, col: 9, has: 'Expected a column name', found: '123' },
  { name: 'a text after a comma in a column list', expr: "f(a,'b')", line: 1, col: 5, has: 'Expected a column name' },
  { name: 'a column list used in arithmetic', expr: 'f(a b + 1)', line: 1, col: 7, has: "after the column list 'a b' in f(…) at column 1" },
  { name: 'a call inside a column list', expr: 'g_sum(a b(x);;)', line: 1, col: 10, has: 'a column list holds only column names' },
  { name: 'a text after a column list', expr: "f(a b 'x')", line: 1, col: 7, has: 'a column list holds only column names' },
  { name: 'a column list outside a call in parentheses', expr: '(a, b)', line: 1, col: 3, has: "Expected ')' to close '(' opened at column 1, found ','" },
]

const NUMBERS: readonly ErrorCase[] = [
  { name: 'exponent notation', expr: '1e3', line: 1, col: 1, has: 'no exponent notation', found: '1e3' },
  { name: 'upper-case exponent notation', expr: 'x*2E5', line: 1, col: 3, has: 'no exponent notation' },
  { name: 'negative exponent notation', expr: '1e-3', line: 1, col: 1, has: 'no exponent notation' },
  { name: 'a trailing decimal point', expr: '5.', line: 1, col: 1, has: 'a decimal point must be followed by a digit', found: '5.' },
  { name: 'two decimal points', expr: '1.2.3', line: 1, col: 1, has: 'at most one decimal point', found: '1.2.3' },
  { name: 'a number glued to letters', expr: 'x=12abc', line: 1, col: 3, has: 'cannot be followed directly by a letter', found: '12abc' },
  { name: 'a number glued to an underscore', expr: '1_000', line: 1, col: 1, has: 'cannot be followed directly' },
  { name: 'a two-digit thousands group', expr: '1,23', line: 1, col: 1, has: 'exactly 3 after each', found: '1,23' },
  { name: 'four digits before a thousands comma', expr: '1234,567', line: 1, col: 1, has: '1 to 3 digits before the first comma' },
  { name: 'a short last thousands group', expr: '1,000,00', line: 1, col: 1, has: "Malformed number '1,000,00'" },
  { name: 'a short group before a decimal point', expr: '12,34.5', line: 1, col: 1, has: 'Malformed number' },
  { name: 'a comma-separated pair of numbers in a call', expr: 'f(1,2)', line: 1, col: 3, has: 'not commas' },
  { name: 'a comma-separated list of numbers', expr: 'x=1,2', line: 1, col: 3, has: 'list values are separated by spaces' },
  { name: 'an integer beyond 2^63 − 1', expr: '9223372036854775808', line: 1, col: 1, has: 'too large' },
  { name: 'a thousands-comma number ending in a point', expr: '1,000.', line: 1, col: 1, has: 'decimal point must be followed' },
]

const DATES: readonly ErrorCase[] = [
  { name: 'February 30', expr: '2/30/14', line: 1, col: 1, has: "Invalid date '2/30/14' at column 1: day 30 is not between 1 and 28", found: '2/30/14' },
  { name: 'month 13', expr: 'd=13/1/14', line: 1, col: 3, has: 'month 13 is not between 1 and 12' },
  { name: 'month 0', expr: '0/1/14', line: 1, col: 1, has: 'month 0' },
  { name: 'day 0', expr: '1/0/14', line: 1, col: 1, has: 'day 0' },
  { name: 'February 29 of a common year', expr: '2/29/2001', line: 1, col: 1, has: 'day 29 is not between 1 and 28' },
  { name: 'February 29 of 1900, a century non-leap year', expr: '2/29/1900', line: 1, col: 1, has: 'between 1 and 28' },
  { name: 'April 31', expr: '4/31/14', line: 1, col: 1, has: 'between 1 and 30' },
  { name: 'year 0000', expr: '1/1/0000', line: 1, col: 1, has: 'year 0000' },
  { name: 'a three-digit year', expr: '3/15/035', line: 1, col: 1, has: "Malformed date '3/15/035'", found: '3/15/035' },
  { name: 'a five-digit year', expr: '3/15/20141', line: 1, col: 1, has: 'write m/d/yy or m/d/yyyy' },
  { name: 'a date glued to a letter', expr: '3/15/03x', line: 1, col: 1, has: 'Malformed date', found: '3/15/03x' },
  { name: 'a date followed by another slash', expr: '3/15/03/2', line: 1, col: 1, has: 'Malformed date' },
  { name: 'a date followed by a decimal point', expr: '3/15/03.5', line: 1, col: 1, has: 'Malformed date' },
  { name: 'a division shaped like an impossible date (day first)', expr: 'x = 20/10/30', line: 1, col: 5, has: 'month 20 is not between 1 and 12' },
]

const TIMES: readonly ErrorCase[] = [
  { name: 'hour 25', expr: '25:00', line: 1, col: 1, has: "Invalid time '25:00' at column 1: hour 25", found: '25:00' },
  { name: 'hour 24', expr: 't=24:00', line: 1, col: 3, has: 'hour 24 is not between 0 and 23' },
  { name: 'minute 60', expr: '12:60', line: 1, col: 1, has: 'minute 60' },
  { name: 'second 60', expr: '12:30:60', line: 1, col: 1, has: 'second 60' },
  { name: 'one-digit minutes', expr: '1:5', line: 1, col: 1, has: "Malformed time '1:5' at column 1: write h:mm or h:mm:ss" },
  { name: 'three-digit hours', expr: '123:45', line: 1, col: 1, has: 'Malformed time' },
  { name: 'three-digit minutes', expr: '12:345', line: 1, col: 1, has: 'Malformed time' },
  { name: 'a colon with nothing after it', expr: '12:', line: 1, col: 1, has: 'Malformed time', found: '12:' },
  { name: 'a second colon with nothing after it', expr: '12:30:', line: 1, col: 1, has: 'Malformed time' },
  { name: 'one-digit seconds', expr: '12:30:5', line: 1, col: 1, has: 'Malformed time' },
  { name: 'a time glued to a letter', expr: '12:30x', line: 1, col: 1, has: 'Malformed time' },
  { name: 'a time with four parts', expr: '1:23:45:67', line: 1, col: 1, has: 'Malformed time' },
]

const TEXTS: readonly ErrorCase[] = [
  { name: 'an unterminated text', expr: "'abc", line: 1, col: 1, has: "Unterminated text starting at column 1: expected a closing '", found: "'abc" },
  { name: 'an unterminated text after =', expr: "x='abc", line: 1, col: 3, has: 'Unterminated text' },
  { name: 'a text whose last quote is backslash-escaped', expr: "'it\\'", line: 1, col: 1, has: 'Unterminated text' },
  { name: 'a text ending in a doubled quote', expr: "'a''", line: 1, col: 1, has: 'Unterminated text' },
  { name: 'an unterminated text on the second line', expr: "x=\n'abc", line: 2, col: 1, has: 'starting at line 2, column 1' },
  {
    name: 'a very long unterminated text, clipped in found',
    expr: `'${'x'.repeat(100)}`,
    line: 1,
    col: 1,
    has: 'Unterminated text',
    found: `'${'x'.repeat(39)}…`,
  },
]

const VARIABLES: readonly ErrorCase[] = [
  { name: 'a variable when vars are off, naming it', expr: '@x', line: 1, col: 1, has: "Variable '@x' at column 1 is not allowed here", found: '@x' },
  { name: 'a variable argument when vars are off', expr: 'qv(@search_string)', line: 1, col: 4, has: "'@search_string'" },
  { name: 'a variable field when vars are off, naming it whole', expr: '@x.y+1', line: 1, col: 1, has: "Variable '@x.y'", found: '@x.y' },
  { name: 'an @ without a name', expr: '@', line: 1, col: 1, has: "Expected a variable name after '@'", vars: true },
  { name: 'an @ followed by a digit', expr: '@1', line: 1, col: 1, has: "found '@1'", vars: true },
  { name: 'an @ at the end after =', expr: 'x = @', line: 1, col: 5, has: 'found end of expression', vars: true },
]

const POSITIONS: readonly ErrorCase[] = [
  { name: 'two names side by side on the second line', expr: 'a +\n  b c', line: 2, col: 5, has: 'at line 2, column 5' },
  {
    name: 'an unclosed call spanning lines',
    expr: 'f(a;\n b',
    line: 2,
    col: 3,
    has: 'opened at line 1, column 1, found end of expression at line 2, column 3',
  },
  { name: 'an unclosed parenthesis spanning lines', expr: '(a\n+b', line: 2, col: 3, has: "'(' opened at line 1, column 1" },
  { name: 'a variable after a CRLF line end', expr: 'x\r\n= @y', line: 2, col: 3, has: 'line 2, column 3' },
  { name: 'a name after a multi-line text', expr: "'a\nb' c", line: 2, col: 4, has: 'line 2, column 4' },
  { name: 'a tab counted as one column', expr: '\ta b', line: 1, col: 4, has: 'column 4' },
  { name: 'a lone carriage return as a line end', expr: 'a\r!b', line: 2, col: 1, has: 'line 2, column 1' },
  { name: 'a hint on the third line', expr: 'a\n&\nb != c', line: 3, col: 3, has: "Unknown operator '!=' at line 3, column 3" },
]

const GROUPS: readonly (readonly [string, readonly ErrorCase[]])[] = [
  ['empty text', EMPTY],
  ['other languages’ operators and unknown characters', HINTS],
  ['missing operators', MISSING_OPERATOR],
  ['unbalanced parentheses and misplaced separators', UNBALANCED],
  ['missing operands', MISSING_OPERAND],
  ['misplaced ~', MISPLACED_NOT],
  ['column lists', COLUMN_LISTS],
  ['malformed numbers', NUMBERS],
  ['invalid dates', DATES],
  ['invalid times', TIMES],
  ['text literals', TEXTS],
  ['variables', VARIABLES],
  ['positions in multi-line text', POSITIONS],
]

/** What parseExpr threw, or a failure when it returned. */
function thrownBy(text: string, vars: boolean | undefined): AppError {
  try {
    parseExpr(text, { vars })
  } catch (err) {
    expect(err).to.be.instanceOf(AppError)
    return err as AppError
  }
  expect.fail(`parsed without an error: ${JSON.stringify(text)}`)
}

describe('parseExpr() errors', () => {
  for (const [title, cases] of GROUPS) {
    describe(title, () => {
      for (const c of cases) {
        it(`refuses ${c.name} (${JSON.stringify(c.expr).slice(0, 40)}) at ${c.line}:${c.col}`, () => {
          const err = thrownBy(c.expr, c.vars)
          expect(err.code).to.equal('EXPR_ERROR')
          expect(err.message).to.include(c.has)
          expect({ line: err.detail.line, col: err.detail.col }).to.deep.equal({ line: c.line, col: c.col })
          if (c.found !== undefined) expect(err.detail.found).to.equal(c.found)
        })
      }
    })
  }
})
