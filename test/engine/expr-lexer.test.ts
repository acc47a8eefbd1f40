/**
 * lex() fixtures: token kinds, decoded values and positions, including the context rule for
 * thousands commas (a comma after a name or a comma separates columns, elsewhere it groups digits).
 */
import { expect } from 'chai'
import { lex } from '../../engine/expr/lexer.js'
import type { Token } from '../../engine/expr/token.js'

/** A token as `kind:text@line:col`, the form the fixtures are written in. */
function brief(t: Token): string {
  const kind = t.type === 'op' ? 'op' : t.type
  return `${kind}:${t.text}@${t.loc.line}:${t.loc.col}`
}

const briefAll = (text: string, vars = false): string[] => lex(text, { vars }).map(brief)

interface StreamCase {
  readonly name: string
  readonly text: string
  readonly tokens: readonly string[]
  readonly vars?: boolean
}

const STREAMS: readonly StreamCase[] = [
  { name: 'an operator between names', text: 'a+b', tokens: ['ident:a@1:1', 'op:+@1:2', 'ident:b@1:3', 'eof:@1:4'] },
  {
    name: 'two-character comparison operators as single tokens',
    text: 'a<>b<=c>=d',
    tokens: ['ident:a@1:1', 'op:<>@1:2', 'ident:b@1:4', 'op:<=@1:5', 'ident:c@1:7', 'op:>=@1:8', 'ident:d@1:10', 'eof:@1:11'],
  },
  { name: '< < as two tokens', text: 'a< <b', tokens: ['ident:a@1:1', 'op:<@1:2', 'op:<@1:4', 'ident:b@1:5', 'eof:@1:6'] },
  { name: 'a thousands number inside a call', text: 'f(1,234)', tokens: ['ident:f@1:1', 'op:(@1:2', 'num:1,234@1:3', 'op:)@1:8', 'eof:@1:9'] },
  {
    name: 'a comma-separated column list',
    text: 'g_cnt(a,b;)',
    tokens: ['ident:g_cnt@1:1', 'op:(@1:6', 'ident:a@1:7', 'op:,@1:8', 'ident:b@1:9', 'op:;@1:10', 'op:)@1:11', 'eof:@1:12'],
  },
  { name: 'digits after a name and a comma as a separate number', text: 'a,123', tokens: ['ident:a@1:1', 'op:,@1:2', 'num:123@1:3', 'eof:@1:6'] },
  { name: 'digits after a name as ungrouped', text: 'x 1,234', tokens: ['ident:x@1:1', 'num:1@1:3', 'op:,@1:4', 'num:234@1:5', 'eof:@1:8'] },
  { name: 'digits after a variable as ungrouped', text: '@v 1,234', vars: true, tokens: ['var:@v@1:1', 'num:1@1:4', 'op:,@1:5', 'num:234@1:6', 'eof:@1:9'] },
  { name: 'a grouped number after =', text: '=1,234', tokens: ['op:=@1:1', 'num:1,234@1:2', 'eof:@1:7'] },
  { name: 'a grouped number after a semicolon', text: ';1,234', tokens: ['op:;@1:1', 'num:1,234@1:2', 'eof:@1:7'] },
  { name: 'a grouped number after another number (a list)', text: '1 2,345', tokens: ['num:1@1:1', 'num:2,345@1:3', 'eof:@1:8'] },
  { name: 'a grouped number after a text', text: "'a' 1,234", tokens: ["str:'a'@1:1", 'num:1,234@1:5', 'eof:@1:10'] },
  { name: 'a comma followed by a space as a separator', text: '1, 234', tokens: ['num:1@1:1', 'op:,@1:2', 'num:234@1:4', 'eof:@1:7'] },
  { name: 'a date literal as one token', text: 'x=3/15/03', tokens: ['ident:x@1:1', 'op:=@1:2', 'date:3/15/03@1:3', 'eof:@1:10'] },
  { name: 'a spaced date as a division', text: '3 /15/03', tokens: ['num:3@1:1', 'op:/@1:3', 'num:15@1:4', 'op:/@1:6', 'num:03@1:7', 'eof:@1:9'] },
  { name: 'a time literal as one token', text: 't>9:30', tokens: ['ident:t@1:1', 'op:>@1:2', 'time:9:30@1:3', 'eof:@1:7'] },
  { name: 'a name with its original case in text', text: 'Sales', tokens: ['ident:Sales@1:1', 'eof:@1:6'] },
  { name: 'positions after a tab', text: '\t a', tokens: ['ident:a@1:3', 'eof:@1:4'] },
  { name: 'positions on a second line', text: 'a\n  b', tokens: ['ident:a@1:1', 'ident:b@2:3', 'eof:@2:4'] },
  { name: 'a CRLF line end counted once', text: 'a\r\nb', tokens: ['ident:a@1:1', 'ident:b@2:1', 'eof:@2:2'] },
  { name: 'a lone CR as a line end', text: 'a\rb', tokens: ['ident:a@1:1', 'ident:b@2:1', 'eof:@2:2'] },
  { name: 'the end after a trailing newline', text: 'a\n', tokens: ['ident:a@1:1', 'eof:@2:1'] },
  { name: 'a token after a multi-line text', text: "'x\ny' z", tokens: ["str:'x\ny'@1:1", 'ident:z@2:4', 'eof:@2:5'] },
  { name: 'a variable with a field', text: '@T.Paths', vars: true, tokens: ['var:@T.Paths@1:1', 'eof:@1:9'] },
  { name: 'a leading-dot decimal', text: 'x*.5', tokens: ['ident:x@1:1', 'op:*@1:2', 'num:.5@1:3', 'eof:@1:5'] },
  {
    name: 'every single-character operator',
    text: '^ * / + - = < > & | ~ ( ) ; ,',
    tokens: [
      'op:^@1:1',
      'op:*@1:3',
      'op:/@1:5',
      'op:+@1:7',
      'op:-@1:9',
      'op:=@1:11',
      'op:<@1:13',
      'op:>@1:15',
      'op:&@1:17',
      'op:|@1:19',
      'op:~@1:21',
      'op:(@1:23',
      'op:)@1:25',
      'op:;@1:27',
      'op:,@1:29',
      'eof:@1:30',
    ],
  },
  { name: 'a non-breaking space as white space', text: 'a\u00a0b', tokens: ['ident:a@1:1', 'ident:b@1:3', 'eof:@1:4'] },
]

interface ValueCase {
  readonly text: string
  readonly type: Token['type']
  readonly value: unknown
  readonly int?: boolean
}

const VALUES: readonly ValueCase[] = [
  { text: '12', type: 'num', value: 12, int: true },
  { text: '24.99', type: 'num', value: 24.99, int: false },
  { text: '.5', type: 'num', value: 0.5, int: false },
  { text: '0.5', type: 'num', value: 0.5, int: false },
  { text: '1.0', type: 'num', value: 1, int: false },
  { text: '12,345.67', type: 'num', value: 12345.67, int: false },
  { text: '1,234,567', type: 'num', value: 1234567, int: true },
  { text: '007', type: 'num', value: 7, int: true },
  { text: '2147483647', type: 'num', value: 2147483647, int: true },
  // Past the 32-bit range a whole number is a big integer literal (int, typed bigint), exact up to 2^53, not wrapped.
  { text: '2147483648', type: 'num', value: 2147483648, int: true },
  { text: '9007199254740991', type: 'num', value: 9007199254740991, int: true },
  { text: '123456789.123456789', type: 'num', value: Number('123456789.123456789'), int: false },
  { text: '3/15/03', type: 'date', value: 20030315 },
  { text: '12/31/2014', type: 'date', value: 20141231 },
  { text: '1/1/49', type: 'date', value: 20490101 },
  { text: '1/1/50', type: 'date', value: 19500101 },
  { text: '01/02/03', type: 'date', value: 20030102 },
  { text: '2/29/2024', type: 'date', value: 20240229 },
  { text: '13:45', type: 'time', value: 134500 },
  { text: '9:05:07', type: 'time', value: 90507 },
  { text: '00:00', type: 'time', value: 0 },
  { text: '23:59:59', type: 'time', value: 235959 },
  { text: "'it''s'", type: 'str', value: "it's" },
  { text: "'it\\'s'", type: 'str', value: "it's" },
  { text: "''", type: 'str', value: '' },
  { text: "''''", type: 'str', value: "'" },
  { text: "'a\\b'", type: 'str', value: 'a\\b' },
  { text: "'two\nlines'", type: 'str', value: 'two\nlines' },
  { text: "' fee '", type: 'str', value: ' fee ' },
]

/** The decoded value of a single-token text. */
function decoded(text: string): { type: Token['type']; value: unknown; int?: boolean } {
  const [t] = lex(text)
  switch (t.type) {
    case 'num':
      return { type: t.type, value: t.value, int: t.int }
    case 'str':
    case 'date':
    case 'time':
      return { type: t.type, value: t.value }
    default:
      return { type: t.type, value: t.text }
  }
}

describe('lex()', () => {
  describe('token streams', () => {
    for (const c of STREAMS) {
      it(`splits ${c.name}: ${JSON.stringify(c.text)}`, () => {
        expect(briefAll(c.text, c.vars)).to.deep.equal(c.tokens)
      })
    }
  })

  describe('decoded literal values', () => {
    for (const c of VALUES) {
      it(`decodes ${JSON.stringify(c.text)} as the ${c.type} ${JSON.stringify(c.value)}`, () => {
        const want = c.int === undefined ? { type: c.type, value: c.value } : { type: c.type, value: c.value, int: c.int }
        expect(decoded(c.text)).to.deep.equal(want)
      })
    }
  })

  it('lower-cases names and keeps their written form as text', () => {
    const [t] = lex('G_Sum')
    expect(t).to.include({ type: 'ident', name: 'g_sum', text: 'G_Sum' })
  })

  it('lower-cases variable names and drops the @', () => {
    const [t] = lex('@Tables.Paths', { vars: true })
    expect(t).to.include({ type: 'var', name: 'tables.paths', text: '@Tables.Paths' })
  })

  it('always ends with exactly one end token', () => {
    for (const text of ['', ' ', 'a', "'x'", 'f(a;b)']) {
      const tokens = lex(text)
      expect(tokens.filter((t) => t.type === 'eof')).to.have.length(1)
      expect(tokens[tokens.length - 1].type).to.equal('eof')
    }
  })
})
