/**
 * parseExpr() on random input: whatever it is given, it either returns a well-formed tree or
 * throws AppError EXPR_ERROR with a position; it never throws anything else and never hangs.
 * The generator is seeded, so a failure names a reproducible input.
 */
import { expect } from 'chai'
import type { Expr } from '../../engine/ast.js'
import { exprColumns, parseExpr, showExpr } from '../../engine/expr/index.js'
import { AppError } from '../../shared/errors.js'
import { randomStream } from '../../engine/demo/random.js'

/** Expression-ish pieces, valid and not, glued together at random. */
const FRAGMENTS = [
  'a',
  'state',
  'G_SUM',
  'i_',
  'x1',
  '(',
  ')',
  ';',
  ',',
  ' ',
  '  ',
  '\n',
  '\t',
  '\r\n',
  '+',
  '-',
  '*',
  '/',
  '^',
  '=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  '&',
  '|',
  '~',
  '1',
  '0',
  '12',
  '24.99',
  '.5',
  '5.',
  '1,234',
  '12,345.67',
  '1,23',
  '007',
  '1e3',
  '99999999999999999',
  '3/15/03',
  '12/31/2014',
  '2/30/14',
  '3/15/035',
  '13:45',
  '9:05:07',
  '25:00',
  '1:5',
  '12:',
  "'NY'",
  "'CA'",
  "''",
  "'it''s'",
  "'a\\'b'",
  "'",
  "'open",
  "'multi\nline'",
  '@v',
  '@v.f',
  '@',
  '!',
  '!=',
  '==',
  '&&',
  '||',
  '"',
  '%',
  '{',
  '}',
  '[',
  ']',
  '.',
  ':',
  '_',
  '#',
  'é',
  '\u0000',
  'f(',
  'g_sum(g;;x)',
  'i_()',
  'f(;)',
  'if(',
  'between(date;',
  'g_cnt(a,b;)',
  'state city',
  'a,b',
]

function fragmentText(next: () => number): string {
  const n = 1 + Math.floor(next() * 14)
  let text = ''
  for (let i = 0; i < n; i++) text += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]
  return text
}

function charText(next: () => number): string {
  const n = Math.floor(next() * 30)
  let text = ''
  for (let i = 0; i < n; i++) text += String.fromCharCode(next() < 0.9 ? 32 + Math.floor(next() * 95) : Math.floor(next() * 0x3000))
  return text
}

/** Every node of a tree. */
function allNodes(e: Expr): Expr[] {
  switch (e.kind) {
    case 'Bin':
      return [e, ...allNodes(e.left), ...allNodes(e.right)]
    case 'Neg':
    case 'Not':
      return [e, ...allNodes(e.operand)]
    case 'Call':
      return [e, ...e.args.flatMap((a) => (a ? allNodes(a) : []))]
    case 'List':
      return [e, ...e.items.flatMap(allNodes)]
    default:
      return [e]
  }
}

/** Parses `text` and checks the contract; returns whether it parsed. */
function checkOne(text: string, vars: boolean): boolean {
  let tree: Expr
  try {
    tree = parseExpr(text, { vars })
  } catch (err) {
    const where = `for ${JSON.stringify(text)}`
    expect(err, where).to.be.instanceOf(AppError)
    const e = err as AppError
    expect(e.code, where).to.equal('EXPR_ERROR')
    expect(e.detail.line, where).to.be.a('number').and.at.least(1)
    expect(e.detail.col, where).to.be.a('number').and.at.least(1)
    expect(e.detail.found, where).to.be.a('string')
    return false
  }
  const lines = text.split(/\r\n|\r|\n/)
  // Checked by hand, not with expect(), so a 20,000-node tree does not build 20,000 messages.
  const misplaced = allNodes(tree).find((n) => n.loc.line < 1 || n.loc.line > lines.length || n.loc.col < 1 || n.loc.col > lines[n.loc.line - 1].length)
  if (misplaced) expect.fail(`${misplaced.kind} at ${misplaced.loc.line}:${misplaced.loc.col} is outside ${JSON.stringify(text)}`)
  expect(showExpr(tree)).to.be.a('string')
  expect(exprColumns(tree)).to.be.an('array')
  return true
}

describe('parseExpr() robustness', function () {
  // Generous limits: the point is "never hangs", not a benchmark on a busy CI machine.
  this.timeout(60_000)

  it('throws only EXPR_ERROR on 3,000 random strings of expression fragments, with valid trees otherwise', () => {
    const next = randomStream(1010)
    let parsed = 0
    const started = Date.now()
    for (let i = 0; i < 3000; i++) if (checkOne(fragmentText(next), next() < 0.5)) parsed++
    // Both outcomes must be exercised, or the generator tests nothing.
    expect(parsed).to.be.within(30, 2970)
    expect(Date.now() - started).to.be.below(20_000)
  })

  it('throws only EXPR_ERROR on 2,000 strings of random characters', () => {
    const next = randomStream(2024)
    for (let i = 0; i < 2000; i++) checkOne(charText(next), next() < 0.5)
  })

  it('handles long inputs in linear time', () => {
    const long = Array.from({ length: 900 }, (_, i) => `if(c${i};'v${i}';0)`).join(' | ')
    const started = Date.now()
    expect(checkOne(long, false)).to.equal(true)
    expect(checkOne(`'${'x'.repeat(200_000)}`, false)).to.equal(false)
    expect(checkOne(`x=${Array.from({ length: 20_000 }, (_, i) => String(i)).join(' ')}`, false)).to.equal(true)
    expect(Date.now() - started).to.be.below(10_000)
  })
})
