/**
 * Input generators for the fuzz properties (targets.ts): plain hostile strings, and
 * structure-aware generators that produce input shaped like the real thing — macro queries as
 * random trees of the language's elements, expressions from the grammar, SQL token soups, API
 * paths and Cookie headers — so the parsers get past their first character and are exercised deep.
 */
import fc from 'fast-check'
import { FUNCTIONS } from '../../engine/functions/index.js'

/** Strings over every UTF-16 unit, lone surrogates and NUL included. */
export const anyUnits = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: fc.char16bits(), maxLength, size: 'max' })

/** Strings of whole code points from the full range. */
export const anyCodePoints = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength, size: 'max' })

/** Strings mostly of `pieces`, with stray characters of any kind between them. */
function soup(pieces: readonly string[], maxLength: number, glue: fc.Arbitrary<string> = fc.constantFrom('', ' ', ' ', '\n')): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: anyUnits(3) })
  return fc.array(fc.tuple(piece, glue), { maxLength, size: 'max' }).map((parts) => parts.map(([p, g]) => p + g).join(''))
}

// ---------------------------------------------------------------------------------------------
// Expressions (docs/endpoints.md: the macro language; engine/expr/index.ts for the grammar decisions)

const COLUMNS = ['a', 'b', 'x1', 'state', 'sales', 'date', 'store', 'city', 'qty', 'g', 'Sales', 'unknown_col']
const FUNCTION_NAMES = [...Object.keys(FUNCTIONS), 'nosuchfn', 'qv', 'str_to_lst', 'len']
const BIN_OPS = ['^', '*', '/', '+', '-', '=', '<>', '<', '>', '<=', '>=', '&', '|']

/** Literals, valid and almost valid: the lexer's corners (thousands commas, dates, times, escapes). */
const literal: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((d) => d.toFixed(3)),
  fc.constantFrom('1,234', '12,345.67', '1,23', '.5', '5.', '007', '1e3', '9007199254740993', '0.0', '-0'),
  fc
    .tuple(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 33 }), fc.constantFrom('03', '2014', '99', '5', '123', '20145'))
    .map(([m, d, y]) => `${m}/${d}/${y}`),
  fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 70 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}`),
  fc.string({ maxLength: 8 }).map((s) => `'${s.replace(/'/g, "''")}'`),
  fc.constantFrom("''", "'it''s'", "'a\\'b'", "'open", "'multi\nline'", "'é\u0000'"),
)

const name: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...COLUMNS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,6}$/) },
)
const variable: fc.Arbitrary<string> = fc.constantFrom('@v', '@a', '@t', '@missing', '@v.f', '@', '@1')
const space: fc.Arbitrary<string> = fc.constantFrom('', ' ', '  ', '\n', '\t')

/** Expressions from the grammar: operators, calls with empty arguments, lists, `~`, parentheses. */
export const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    name,
    variable,
    fc.array(literal, { minLength: 2, maxLength: 4 }).map((items) => items.join(' ')),
    fc.tuple(tie('e'), fc.constantFrom(...BIN_OPS), space, tie('e')).map(([l, op, s, r]) => `${l}${s}${op}${s}${r}`),
    tie('e').map((e) => `-${e}`),
    tie('e').map((e) => `~${e}`),
    tie('e').map((e) => `(${e})`),
    fc
      .tuple(fc.constantFrom(...FUNCTION_NAMES), fc.array(fc.oneof(tie('e'), fc.constant(''), fc.constant('a,b'), fc.constant('state city')), { maxLength: 5 }))
      .map(([f, args]) => `${f}(${args.join(';')})`),
  ),
})).e

/** Grammar expressions with the odd stray character, to reach the error paths mid-expression. */
export const damagedExpression: fc.Arbitrary<string> = fc
  .tuple(expression, fc.nat(), fc.constantFrom('(', ')', ';', "'", '"', '!=', '{', '}', '@', '#', ',', '\u0000', '\uD800', 'é'))
  .map(([e, at, c]) => e.slice(0, at % (e.length + 1)) + c + e.slice(at % (e.length + 1)))

// ---------------------------------------------------------------------------------------------
// Macro queries as XML trees

const ELEMENTS = [
  'base',
  'table',
  'sel',
  'willbe',
  'colord',
  'col',
  'sort',
  'tabu',
  'tcol',
  'break',
  'link',
  'merge',
  'note',
  'block',
  'blocklet',
  'library',
  'insert',
  'expand',
  'call',
  'let',
  'set',
  'if',
  'then',
  'else',
  'and',
  'or',
  'macro',
  'query',
  'dynamic',
  'widget',
  'do',
  'import',
  'rollup',
  'cols',
  'Sel',
  'WILLBE',
  '__tabula_root__',
  'x:y',
]
const ATTRIBUTES = [
  'table',
  'table2',
  'value',
  'name',
  'cols',
  'col',
  'col2',
  'dir',
  'breaks',
  'cbreaks',
  'fun',
  'source',
  'weight',
  'hide',
  'hard',
  'type',
  'suffix',
  'label',
  'format',
  'width',
  'fixed',
  'depth',
  'block',
  'test',
  'v',
  'a',
  't',
  'sort',
  'rename',
]
const TABLES = ['pub.t', 't', 'pub.u', 'pub.demo.retail.item', '../etc/passwd', 'pub..t', 'PUB.T', 'secret.hidden', '']
const FUNS = ['sum', 'cnt', 'avg', 'min', 'max', 'ucnt', 'first', 'wavg', 'median', 'nope']

/** An attribute value: an expression, a table, a name list, a `{…}` substitution or raw markup characters. */
const attributeValue: fc.Arbitrary<string> = fc.oneof(
  expression,
  fc.constantFrom(...TABLES),
  fc.constantFrom(...FUNS),
  fc.array(name, { maxLength: 4 }).map((names) => names.join(',')),
  fc.constantFrom('{@v}', '{@a}{@a}', '{@missing}', "{strlen('{@v}')}", '{1+}', '{', '}', '{{@v}}', 'a*', '*', '1', '0', 'up', 'down'),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('a<b', 'a & b', 'x>=1', '&amp;', '&#0;', '&#x110000;', '&bogus;', '&#65;'),
)

/** How an attribute is written: double or single quotes (the other quote kept raw inside). */
const attribute: fc.Arbitrary<[string, string]> = fc.tuple(fc.constantFrom(...ATTRIBUTES), attributeValue)

/** Attributes written with double or single quotes (the other quote kept raw inside); names mostly distinct. */
const attributes = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.uniqueArray(attribute, { maxLength, selector: ([n]) => n }), fc.boolean())
    .map(([list, single]) => list.map(([n, v]) => (single ? ` ${n}='${v.replace(/'/g, '&apos;')}'` : ` ${n}="${v.replace(/"/g, '&quot;')}"`)).join(''))

/** Random trees of macro elements; leaves may be text, CDATA or comments. */
export const macroQuery: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...ELEMENTS), attributes(4)).map(([el, attrs]) => `<${el}${attrs}/>`),
    fc
      .tuple(fc.constantFrom(...ELEMENTS), attributes(3), fc.array(tie('node'), { maxLength: 4 }))
      .map(([el, attrs, kids]) => `<${el}${attrs}>${kids.join('')}</${el}>`),
    fc.constantFrom('1,x;2,y', "'a,b',3;", '<![CDATA[1,2;3,4]]>', '<!-- note -->', '<?pi x?>', 'text', ' ', '&', '<', '{@v}'),
  ),
})).node

/** A list of top-level nodes, optionally wrapped in `<macro>`/`<query>`. */
export const macroDocument: fc.Arbitrary<string> = fc
  .tuple(fc.array(macroQuery, { minLength: 1, maxLength: 5 }), fc.constantFrom('', 'macro', 'query'))
  .map(([nodes, wrap]) => (wrap ? `<${wrap}>${nodes.join('\n')}</${wrap}>` : nodes.join('\n')))

/** An attribute value as XML: `"` escaped, but `<`, `>` and `&` left raw as real queries write them. */
const q = (v: string): string => `"${v.replace(/"/g, '&quot;')}"`

/** Expressions over the columns of pub.t (a int, b float, state text, date date): mostly valid. */
const rowExpression: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a>1',
      'b<=2.5 & a<>3',
      "state='NY' 'CA'",
      'year(date)>2000',
      'a+b*2',
      "contains(state;'N')",
      '~(a=1)',
      'g_sum(state;;b)',
      'if(a>1;b;0)',
    ),
  },
  { weight: 2, arbitrary: expression },
)
const newColumn = fc.constantFrom('c', 'd', 'e1', 'total', 'a', 'Bad-Name', '_x')
const someColumns = fc.array(fc.constantFrom('a', 'b', 'state', 'date', 'c', 'd', 'a*', '*', 'zz'), { maxLength: 3 }).map((c) => c.join(','))

/** One data operation of the language, with plausible attributes. */
const dataOperation = (nested: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    rowExpression.map((e) => `<sel value=${q(e)}/>`),
    fc
      .tuple(newColumn, rowExpression, fc.constantFrom('', ' label="L"', ' format="dec:2"', ' width="x"'))
      .map(([n, e, m]) => `<willbe name=${q(n)} value=${q(e)}${m}/>`),
    fc.tuple(someColumns, someColumns, fc.constantFrom('0', '1', 'yes')).map(([c, h, hard]) => `<colord cols=${q(c)} hide=${q(h)} hard="${hard}"/>`),
    fc.tuple(fc.constantFrom('a', 'b', 'c', 'zz'), fc.constantFrom('up', 'down', 'sideways')).map(([c, d]) => `<sort col="${c}" dir="${d}"/>`),
    fc
      .tuple(someColumns, fc.constantFrom(...FUNS), rowExpression, fc.constantFrom('', 't', 'b'))
      .map(([breaks, fun, src, name]) => `<tabu breaks=${q(breaks)}><tcol fun="${fun}" source=${q(src)}${name ? ` name="${name}"` : ''}/></tabu>`),
    fc
      .tuple(fc.constantFrom('pub.u', 'pub.t', 'pub.none'), fc.constantFrom('exact', 'select', 'include', 'exclude', 'asof'), nested)
      .map(([t, type, inner]) => `<link table2="${t}" col="a" type="${type}" suffix="_2">${inner}</link>`),
    fc.tuple(fc.constantFrom('pub.u', 'pub.t'), nested).map(([t, inner]) => `<merge table2="${t}">${inner}</merge>`),
    fc.constantFrom('<table cols="a,b">1,x;2,y</table>', '<table cols="a">\'x,y\';</table>', '<table depth="3"/>', '<note>n</note>'),
  )

/** Queries that mostly make sense: a base table, then operations, with blocks, variables and conditionals. */
export const macroPipeline: fc.Arbitrary<string> = fc
  .letrec<{ ops: string }>((tie) => ({
    ops: fc
      .array(
        fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          { weight: 4, arbitrary: dataOperation(tie('ops')) },
          tie('ops').map((inner) => `<let v="{@v}1">${inner}</let>`),
          tie('ops').map((inner) => `<blocklet>${inner}</blocklet>`),
          fc
            .tuple(fc.constantFrom('{@v}=1', "{endswith('{@t}';'ly')}", '0', '', '{@nope}'), tie('ops'))
            .map(([test, inner]) => `<if test=${q(test)}><then>${inner}</then></if>`),
          fc.constantFrom('<insert block="b" v="2"/>', '<call block="b"/>', '<expand block="b"/>', '<insert block="missing"/>', '<set v="{@v}{@v}"/>'),
        ),
        { maxLength: 4 },
      )
      .map((ops) => ops.join('')),
  }))
  .ops.chain((ops) =>
    fc
      .constantFrom('<base table="pub.t"/>', '<base table="pub.u"/>', '')
      .map((base) => `<library><block name="b" v="1"><sel value="a={@v}"/></block></library>${base}${ops}`),
  )

/** Fragments that matter to the XML pre-scan and sax, glued at random. */
export const xmlSoup: fc.Arbitrary<string> = soup(
  [
    '<',
    '>',
    '/>',
    '</',
    '<sel',
    '<base',
    ' value="',
    ' table="',
    '"',
    "'",
    '=',
    '&',
    '&lt;',
    '&#',
    ';',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '<?',
    '?>',
    '<!DOCTYPE x [<!ENTITY e "x">]>',
    '<!ENTITY',
    '&e;',
    '<!',
    '{',
    '}',
    '@v',
    '\uFEFF',
    '\u0000',
    'é',
    '\uD800',
  ],
  40,
  fc.constant(''),
)

// ---------------------------------------------------------------------------------------------
// Long repetitions: what finds stack overflows and quadratic loops that short inputs never reach

/** Pieces whose repetition nests, chains or multiplies something. */
const REPEATED = [
  '{',
  '}',
  '(',
  ')',
  '-',
  '~',
  'a+',
  'a<',
  'a;',
  'a,',
  '1 ',
  "'x' ",
  "''",
  '@',
  '\\',
  '&amp;',
  '&',
  '<',
  '\n',
  '<a>',
  '</a>',
  '<note/>',
  '<sel value="a=1"/>',
  '<willbe name="c" value="1"/>',
  '<insert block="b"/>',
  '<!--x-->',
  '<![CDATA[',
  '{@v}',
]

/** Where the repetition goes: anywhere an attacker could put it in a query. */
const REPETITION_PLACES: readonly ((s: string) => string)[] = [
  (s) => s,
  (s) => `<base table="pub.t"/><willbe name="w" value="${s}"/>`,
  (s) => `<base table="pub.t"/><sel value="a=1 | ${s}"/>`,
  (s) => `<base table="pub.t"/><willbe name="w" value="max(${s})"/>`,
  (s) => `<let v="${s}"><base table="pub.t"/><willbe name="w" value="{@v}"/></let>`,
  (s) => `<library><block name="b"><sel value="a=1"/>${s}</block></library><base table="pub.t"/><insert block="b"/>`,
  (s) => `<base table="pub.t"/><colord cols="${s}"/>`,
  (s) => `<base table="pub.t"/><table cols="a">${s}</table>`,
]

/** One piece repeated up to 200,000 times (at most about 400 KB), placed somewhere in a query. */
export const repeatedQuery: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...REPEATED), fc.integer({ min: 1, max: 200_000 }), fc.constantFrom(...REPETITION_PLACES))
  .map(([piece, times, place]) => place(piece.repeat(Math.min(times, Math.floor(400_000 / piece.length)))))

// ---------------------------------------------------------------------------------------------
// SQL

const SQL_WORDS = [
  'SELECT',
  'select',
  'FROM',
  'WHERE',
  'WITH',
  'VALUES',
  'AS',
  'UNION',
  'ALL',
  'IN',
  'JOIN',
  'ON',
  'GROUP',
  'BY',
  'ORDER',
  'LIMIT',
  'INSERT',
  'INTO',
  'UPDATE',
  'SET',
  'DELETE',
  'REPLACE',
  'CREATE',
  'TABLE',
  'DROP',
  'ALTER',
  'ATTACH',
  'DETACH',
  'DATABASE',
  'PRAGMA',
  'VACUUM',
  'REINDEX',
  'ANALYZE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
  'RETURNING',
  'CONFLICT',
  'load_extension',
  'readfile',
  'writefile',
  'fts3_tokenizer',
  'replace',
  'count',
  'sqlite_master',
  // Lookalikes: Cyrillic letters, a dotless i, fullwidth letters, a zero-width space.
  'SЕLЕCT',
  'ınsert',
  'ＳＥＬＥＣＴ',
  'DEL\u200BETE',
  'İNSERT',
]
const SQL_PIECES = [
  'pub.demo.retail.item',
  '"pub.demo.retail.item"',
  '[pub.t]',
  '`pub.t`',
  'i.store',
  't.begin',
  'pub.release.notes',
  '"we""ird"',
  '"a.b"',
  "'x'",
  "'it''s'",
  "'; DROP TABLE t; --'",
  "'",
  '"',
  '`',
  '[',
  "x'0A'",
  "x'0'",
  "X'zz'",
  '0x1F',
  '1_000',
  '1__0',
  '1e5',
  '1.5e',
  '.5',
  '12abc',
  '?',
  '?1',
  ':a',
  '@a',
  '$a',
  '$a(x;y)',
  '$a::b',
  '#x',
  ':',
  '-- c\n',
  '-- c',
  '/* c */',
  '/*',
  '*/',
  '/* ; DELETE */',
  ';',
  ';;',
  '(',
  ')',
  ',',
  '*',
  '.',
  '=',
  '!=',
  '!',
  '||',
  '->>',
  '\u0000',
  '\uFEFF',
  '\v',
  'é',
  '\uD800',
  '\u2028',
]

/** Keyword-heavy token soups, joined with and without spaces and comments. */
export const sqlSoup: fc.Arbitrary<string> = soup([...SQL_WORDS, ...SQL_PIECES], 24, fc.constantFrom('', ' ', ' ', '\n', '/**/', '\t'))

/** A read-only statement followed by something hostile: the guard must see past strings and comments. */
export const sqlTail: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('select 1', 'SELECT * FROM pub.t', 'with x as (select 1) select * from x', 'values (1)'), sqlSoup)
  .map(([head, tail]) => `${head} ${tail}`)

// ---------------------------------------------------------------------------------------------
// API paths and cookies

const PATH_SEGMENTS = [
  'v1',
  'prime-latest',
  'v2',
  'api',
  'api:json',
  'sql',
  'run',
  'new',
  'dbm',
  'ls',
  'index',
  '!data',
  '!cols',
  '@index',
  'data',
  '7',
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '\u0000',
  '%',
  '%E0%A4%A',
  '%zz',
  'ü',
  '%C3%BC',
  '\uD800',
  'pub.demo.retail.item',
  '..%2f..',
  ':json',
  ':json.rows',
  ':xml',
  ':',
  'a:b:c',
  '!',
  '@',
  'x'.repeat(300),
]
const SUFFIXES = ['', ':json', ':json.rows', ':json.keyed', ':text', ':html', ':', ':JSON', ':json:json', ':json.', ':%6Aso%6E']

/** `/v1/api/...` shapes with hostile segments and suffixes. */
export const apiPath: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('/v1/api', '/prime-latest/api', '/v1/api:json', '/v2/api', '/v1', '', '//v1/api', '/%76%31/api'),
    fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PATH_SEGMENTS) }, { weight: 1, arbitrary: anyUnits(6) }), { maxLength: 6 }),
    fc.constantFrom(...SUFFIXES),
    fc.boolean(),
  )
  .map(([head, segs, suffix, slash]) => `${head}${segs.map((s) => `/${s}`).join('')}${suffix}${slash ? '/' : ''}`)

/** Cookie headers with session values well-formed, quoted, percent-encoded, duplicated or broken. */
export const cookieHeader: fc.Arbitrary<string> = soup(
  [
    'session=',
    'session',
    'Session=',
    ' session =',
    'other=1',
    'admin|sid|epw',
    '"admin|sid|epw"',
    'a%7Cb%7Cc',
    '%',
    '%E0%A4%A',
    '|',
    '||',
    '"',
    ';',
    '; ',
    '=',
    '==',
    'é',
    '\u0000',
    '\uD800',
    '%00',
    'x'.repeat(50),
  ],
  16,
  fc.constant(''),
)
