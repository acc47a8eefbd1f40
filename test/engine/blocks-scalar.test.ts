import { expect } from 'chai'
import { evalScalar, formatScalar } from '../../engine/blocks/index.js'
import { parseExpr } from '../../engine/expr/index.js'

const VARS: Readonly<Record<string, string>> = {
  big: '9007199254740993',
  n: '41',
  x: '2.5',
  tbl: 'pub.fin.monthly',
  s: "O'Brien",
  empty: '',
  csv: 'a, b,,c',
  word: 'Mixed',
}

/** Evaluates a block expression over VARS and returns the text that would replace the braces. */
const run = (src: string): string => formatScalar(evalScalar(parseExpr(src, { vars: true }), (name) => VARS[name]))

function failure(src: string): string {
  try {
    run(src)
  } catch (err) {
    return (err as Error).message
  }
  throw new Error(`expected ${src} to fail`)
}

const VALUES: readonly { src: string; out: string }[] = [
  { src: '1+2*3', out: '7' },
  { src: '2^3', out: '8' },
  { src: '7/2', out: '3.5' },
  { src: '(1+2)*3-4', out: '5' },
  { src: '@n+1', out: '42' },
  { src: '@x*2', out: '5' },
  { src: '-@n', out: '-41' },
  { src: '@tbl', out: 'pub.fin.monthly' },
  { src: "'it''s'", out: "it's" },
  { src: '1 2 3', out: '1 2 3' },
  { src: "'a'='a'", out: '1' },
  { src: "'a'='b'", out: '0' },
  { src: "@word='x' 'Mixed'", out: '1' },
  { src: "@word<>'x' 'Mixed'", out: '0' },
  { src: "@word<>'x' 'y'", out: '1' },
  { src: '@n=40 41', out: '1' },
  { src: '@n>9', out: '1' },
  { src: "'abc'<'abd'", out: '1' },
  { src: '3>=3', out: '1' },
  { src: '2<=1', out: '0' },
  { src: '1=1 & 2=3', out: '0' },
  { src: '1=1 | 2=3', out: '1' },
  { src: '~1=2', out: '1' },
  { src: '~@empty', out: '1' },
  { src: 'qv(@s)', out: "'O''Brien'" },
  { src: 'qv(5)', out: "'5'" },
  { src: "qv('a' 'b')", out: "'a' 'b'" },
  { src: "str_to_lst(@csv;',')", out: 'a b c' },
  { src: "len(str_to_lst(@csv;','))", out: '3' },
  { src: 'len(5)', out: '1' },
  { src: "endswith(@tbl;'monthly' 'weekly')", out: '1' },
  { src: "endswith(@tbl;'daily')", out: '0' },
  { src: "beginswith(@tbl;'pub.')", out: '1' },
  { src: "beginswith_ci(@tbl;'PUB.')", out: '1' },
  { src: "beginswith(@tbl;'PUB.')", out: '0' },
  { src: "contains(@tbl;'fin')", out: '1' },
  { src: "contains_ci(@word;'XED')", out: '1' },
  { src: "endswith_ci(@word;'ED')", out: '1' },
  { src: "if(@n>40;'big';'small')", out: 'big' },
  { src: "if(@n>50;'big';@n>40;'mid';'small')", out: 'mid' },
  { src: "if(1;'taken';@undefined_var)", out: 'taken' },
  { src: 'strupcase(@word)', out: 'MIXED' },
  { src: 'strdowncase(@word)', out: 'mixed' },
  { src: 'strlen(@word)', out: '5' },
  { src: "splice(@word 'x' 12;'-')", out: 'Mixed-x-12' },
  { src: "splice(str_to_lst(@csv;',');'+')", out: 'a+b+c' },
  { src: "splice('a' '';'-')", out: '' },
  { src: "strpick(@tbl;'.';2)", out: 'fin' },
  { src: "strpick(@csv;',';9)", out: '' },
  { src: 'strextract(@word;2;3)', out: 'ixe' },
  { src: 'strextract(@word;3)', out: 'xed' },
  { src: 'width(@word)', out: '5' },
  { src: '0.1+0.2', out: '0.30000000000000004' },
  { src: '1/3*3', out: '1' },
  // Integers past 2^53 (issue 38): written out whole, compared as written, never rounded.
  { src: '9007199254740993', out: '9007199254740993' },
  { src: '-9223372036854775807', out: '-9223372036854775807' },
  { src: '@big', out: '9007199254740993' },
  { src: '@big = 9007199254740993', out: '1' },
  { src: '@big = 9007199254740992', out: '0' },
  { src: '9007199254740991 + 0', out: '9007199254740991' },
  { src: '2^80', out: '1.2089258196146292e+24' },
]

const FAILURES: readonly { src: string; part: string }[] = [
  { src: '@nope', part: 'unknown variable @nope' },
  { src: '@a.b', part: 'package variables (@name.field) are not supported' },
  { src: 'region', part: "'region' is not a variable: write @region" },
  { src: 'nosuch(1)', part: 'nosuch() is not available in a block expression; available: beginswith' },
  { src: 'qv(1;2)', part: 'qv() takes 1 argument, not 2' },
  { src: "strpick(@csv;'';1)", part: 'strpick() needs a non-empty delimiter' },
  { src: "strpick(@csv;',';0)", part: 'strpick() counts pieces from 1, not 0' },
  { src: 'strextract(@word)', part: 'strextract() takes 2 or 3 arguments' },
  { src: "if(1;'a')", part: 'if() takes an odd number of arguments, at least 3' },
  { src: "endswith(;'a')", part: 'argument 1 of endswith() is missing' },
  { src: '1/0', part: 'division by zero' },
  { src: '@word+1', part: "'+' needs a number, not the text 'Mixed'" },
  { src: '@word>1', part: "cannot compare the text 'Mixed' with a number" },
  { src: '1 2 < 3', part: "'<' needs a single value, not a list" },
  { src: "str_to_lst(@csv;'')", part: 'str_to_lst needs a non-empty delimiter' },
  { src: '@word & 1', part: "'&' needs a number, not the text 'Mixed'" },
  { src: '2^2000', part: 'the result is not a finite number' },
  { src: '@big + 1', part: "'+': 9007199254740993 is past ±9007199254740991 (2^53 − 1)" },
  { src: '9007199254740993 > 1', part: 'compute with it in the query itself' },
  { src: '9007199254740991 + 2', part: 'the result 9007199254740992 is past ±9007199254740991' },
  { src: '2^60', part: 'is past ±9007199254740991' },
]

describe('evalScalar()', () => {
  for (const c of VALUES) it(`evaluates ${c.src} to ${c.out}`, () => expect(run(c.src)).to.equal(c.out))
  for (const c of FAILURES) it(`refuses ${c.src}: ${c.part}`, () => expect(failure(c.src)).to.include(c.part))
})
