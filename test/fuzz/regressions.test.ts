/**
 * Inputs that broke the contract of the fuzz properties (targets.ts) before they were fixed: each
 * one threw something other than a 4xx AppError (a 500) or kept the gateway's thread busy for
 * seconds to hours. Kept as examples so the same input never breaks it again; each goes through
 * the same check as the fuzzers (a 4xx AppError or a result, within the time bound).
 */
import { expect } from 'chai'
import fc from 'fast-check'
import type { XmlElement, XmlNode } from '../../engine/ast.js'
import { parseQuery, parseXml } from '../../engine/parse/index.js'
import { CHECK_BUDGET, checkQuery } from '../../engine/check/index.js'
import { BLOCK_LIMITS } from '../../engine/blocks/index.js'
import { matchesPattern } from '../../engine/interpret/patterns.js'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { callWithinContract, LONG_INPUT_HANG_MS } from './targets.js'

const TABLES = new Map<string, readonly ColumnSpec[]>([
  [
    'pub.t',
    [
      { name: 'a', type: 'int' },
      { name: 'state', type: 'text' },
    ],
  ],
])

/** Parses and checks `xml` as the gateway does; returns the AppError it gives, or null when it passes. */
function outcome(xml: string): AppError | null {
  let failure: AppError | null = null
  callWithinContract(
    (text: string) => {
      try {
        checkQuery(parseQuery(text), TABLES)
      } catch (err) {
        if (err instanceof AppError) failure = err
        throw err
      }
    },
    xml,
    LONG_INPUT_HANG_MS,
  )
  return failure
}

/** The text nodes of a tree, with their positions, in document order. */
function textsOf(node: XmlNode): unknown[] {
  return node.kind === 'Text' ? [{ text: node.text, loc: node.loc }] : node.children.flatMap(textsOf)
}

/** Asserts that `xml` is refused with `code` and a message matching `message`. */
function refused(xml: string, code: string, message: RegExp): void {
  const err = outcome(xml)
  expect(err, 'expected a refusal').to.not.equal(null)
  expect(err!.code).to.equal(code)
  expect(err!.message).to.match(message)
}

describe('inputs the fuzzers and hostile-input probes found', function () {
  // Generous: the inputs are large and the machine may be busy; the failures took minutes or more.
  this.timeout(60_000)

  describe('block expressions', () => {
    it('{10^400} and {(0-1)^0.5} are a CHECK_ERROR naming the expression, not a 500 (found by "expr: grammar")', () => {
      refused('<base table="pub.t"/><willbe name="w" value="{10^400}"/>', 'CHECK_ERROR', /not a finite number in \{10\^400\} of <willbe value>/)
      refused('<base table="pub.t"/><sel value="a={(0-1)^0.5}"/>', 'CHECK_ERROR', /not a finite number/)
    })

    it('100,000 nested braces are a CHECK_ERROR, not a stack overflow', () => {
      refused(
        `<base table="pub.t"/><willbe name="w" value="${'{'.repeat(100_000)}"/>`,
        'CHECK_ERROR',
        new RegExp(`nested more than ${BLOCK_LIMITS.maxBraceDepth} deep`),
      )
    })

    it('a short query whose blocks would parse a 900 KB expression 100,000 times is refused early', () => {
      const lets = [`<let a0="${'x'.repeat(900)}">`]
      for (let i = 1; i <= 10; i++) lets.push(`<let a${i}="{@a${i - 1}}{@a${i - 1}}">`)
      let library = `<library><block name="b0"><if test="{strlen('{@a10}')}>0"></if></block>`
      for (let i = 1; i <= 5; i++) library += `<block name="b${i}">${`<insert block="b${i - 1}"/>`.repeat(10)}</block>`
      const xml = `${library}</library>${lets.join('')}<insert block="b5"/>${'</let>'.repeat(11)}<base table="pub.t"/>`
      expect(xml.length).to.be.below(3000)
      refused(xml, 'CHECK_ERROR', /block expansion produces more than 16000000 characters/)
    })

    it('a block holding a long expression, inserted 100,000 times, is refused before every copy is parsed', () => {
      const long = `a=${'1 '.repeat(200_000)}`
      let library = `<library><block name="b0"><sel value="${long}"/></block>`
      for (let i = 1; i <= 5; i++) library += `<block name="b${i}">${`<insert block="b${i - 1}"/>`.repeat(10)}</block>`
      refused(`${library}</library><base table="pub.t"/><insert block="b5"/>`, 'CHECK_ERROR', /more than \d+ characters of text/)
    })
  })

  describe('expressions', () => {
    it('a call with 200,000 arguments is an EXPR_ERROR, not a stack overflow in the checker', () => {
      refused(`<base table="pub.t"/><willbe name="w" value="max(${Array(200_000).fill('a').join(';')})"/>`, 'EXPR_ERROR', /Too many arguments in 'max\('/)
    })

    it('a call with 10,000 arguments still works', () => {
      expect(outcome(`<base table="pub.t"/><willbe name="w" value="max(${Array(10_000).fill('a').join(';')})"/>`)).to.equal(null)
    })
  })

  describe('XML shape', () => {
    it('a million sibling elements are refused at the 100,001st', () => {
      refused('<note/>'.repeat(1_000_000), 'PARSE_ERROR', /^Line 1, column 700001: the query has more than 100000 elements/)
    })

    it('elements nested 100,000 deep are refused at the 201st level', () => {
      refused('<a>'.repeat(100_000) + '</a>'.repeat(100_000), 'PARSE_ERROR', /^Line 1, column 601: elements are nested more than 200 deep/)
    })

    it('a 5 MB attribute value is refused where it starts', () => {
      refused(
        `<base table="pub.t"/><willbe name="w" value="'${'x'.repeat(5_000_000)}'"/>`,
        'PARSE_ERROR',
        /^Line 1, column 45: an attribute value in <willbe …> is longer than 1000000 characters/,
      )
    })

    it('3 MB of raw < in text are read in one piece (one &lt; at a time took seconds), as &lt; would be', () => {
      const text = `'${'<'.repeat(3_000_000)}'`
      expect(outcome(`<table cols="a">${text}</table>`)).to.equal(null)
      const [table] = parseQuery(`<table cols="a">'<<'</table>`) as { rows?: string[][] }[]
      expect(table.rows).to.deep.equal([['<<']])
    })

    it('text with raw < (or comments and instructions, whose bodies are dropped) reads exactly as with &lt;, and what follows keeps its position (property)', () => {
      const pieces = fc.constantFrom(
        '< ',
        '<=',
        '<1',
        '<<1',
        ' ',
        '1',
        'x ',
        ';',
        ',',
        "'",
        ']',
        ']]',
        ']]>',
        '>',
        '&amp;',
        '&lt;',
        '\n',
        '<![CDATA[<a>]]>',
        '<!-- c -->',
        '<?pi a b?>',
        '<!---->',
      )
      const text = fc.array(pieces, { maxLength: 12 }).map((p) => p.join(''))
      fc.assert(
        fc.property(text, (raw) => {
          const xml = `<a>${raw}<b/></a>`
          const escaped = `<a>${raw.replace(/<(?=[ =1<])/g, '&lt;')}<b/></a>`
          const tree = parseXml(xml)
          expect(JSON.stringify(textsOf(tree))).to.equal(JSON.stringify(textsOf(parseXml(escaped))))
          const b = (tree.children[0] as XmlElement).children.find((c): c is XmlElement => c.kind === 'Element')!
          const before = xml.slice(0, xml.lastIndexOf('<b/>')).split('\n')
          expect(b.loc).to.deep.equal({ line: before.length, col: before[before.length - 1].length + 1 })
        }),
        { seed: 611, numRuns: 500 },
      )
    })

    it('siblings, self-closing tags and closing tags do not count as nesting', () => {
      const wide = '<sel value="a=1"/>'.repeat(300) + '<note>x</note>'.repeat(300)
      expect(outcome(`<base table="pub.t"/>${wide}`)).to.equal(null)
    })
  })

  describe('the checker', () => {
    it('30,000 willbes are checked (in linear time: the quadratic check took over a minute)', () => {
      const willbes = Array.from({ length: 30_000 }, (_, i) => `<willbe name="c${i}" value="a+${i}"/>`).join('')
      expect(outcome(`<base table="pub.t"/>${willbes}<sort col="c29999"/>`)).to.equal(null)
    })

    it('a tabulation with 20,000 breaks and <break> specs is parsed and checked', () => {
      const names = Array.from({ length: 20_000 }, (_, i) => `c${i}`)
      const willbes = names.map((n) => `<willbe name="${n}" value="a"/>`).join('')
      const specs = names.map((n) => `<break col="${n}"/>`).join('')
      expect(outcome(`<base table="pub.t"/>${willbes}<tabu breaks="${names.join(',')}"><tcol fun="cnt"/>${specs}</tabu>`)).to.equal(null)
    })

    it('colord after thousands of willbes is refused once the work passes the budget', () => {
      const willbes = Array.from({ length: 10_000 }, (_, i) => `<willbe name="c${i}" value="1"/>`).join('')
      const patterns = Array.from({ length: 60_000 }, (_, i) => `x${i}*`).join(',')
      refused(`<base table="pub.t"/>${willbes}<colord cols="${patterns}"/>`, 'CHECK_ERROR', new RegExp(`visit more than ${CHECK_BUDGET} columns`))
    })
  })

  describe('colord patterns', () => {
    it('a pattern of many stars against a long name answers at once (the regular expression backtracked for hours)', () => {
      callWithinContract(() => expect(matchesPattern('a'.repeat(60), `${'*a'.repeat(15)}*b`)).to.equal(false), null, LONG_INPUT_HANG_MS)
      const xml = `<base table="pub.t"/><willbe name="${'a'.repeat(60)}" value="1"/><colord cols="${'*a'.repeat(15)}*b,a"/>`
      expect(outcome(xml)).to.equal(null)
    })

    it('matches as before: exact names, leading, trailing and inner stars', () => {
      const cases: [string, string, boolean][] = [
        ['sales', 'sales', true],
        ['sales', 'sale', false],
        ['sales', 's*', true],
        ['sales', '*s', true],
        ['sales', '*l*', true],
        ['sales', 's*x', false],
        ['sales', '*', true],
        ['', '*', true],
        ['', '', true],
        ['ab', 'a**b', true],
        ['abab', '*ab', true],
        ['aab', 'a*ab', true],
        ['ab', 'a*ab', false],
        ['cost_id', '*_id', true],
        ['id', '*_id', false],
        ['a.b', 'a.*', true],
        ['axb', 'a.*', false],
      ]
      for (const [name, pattern, expected] of cases) expect(matchesPattern(name, pattern), `${name} ~ ${pattern}`).to.equal(expected)
    })
  })
})
