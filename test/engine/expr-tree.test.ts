/**
 * The shape of parseExpr() trees beyond their canonical form: node locations (a node's first
 * token), the `int` flag, exact node objects, showExpr() on hand-built nodes, exprColumns(), and
 * the nesting cap.
 */
import { expect } from 'chai'
import type { Expr, Loc } from '../../engine/ast.js'
import { MAX_DEPTH, exprColumns, parseExpr, showExpr } from '../../engine/expr/index.js'
import { AppError } from '../../shared/errors.js'

const at = (line: number, col: number): Loc => ({ line, col })

/** Every node of a tree with its path, depth first. */
function nodes(e: Expr, path = 'root'): [string, Expr][] {
  const kids: [string, Expr][] = []
  switch (e.kind) {
    case 'Bin':
      kids.push(...nodes(e.left, `${path}.left`), ...nodes(e.right, `${path}.right`))
      break
    case 'Neg':
    case 'Not':
      kids.push(...nodes(e.operand, `${path}.operand`))
      break
    case 'Call':
      e.args.forEach((a, i) => a && kids.push(...nodes(a, `${path}.args[${i}]`)))
      break
    case 'List':
      e.items.forEach((a, i) => kids.push(...nodes(a, `${path}.items[${i}]`)))
      break
    default:
      break
  }
  return [[path, e], ...kids]
}

/** `path kind line:col` for every node, to compare locations in one assertion. */
const locs = (text: string, vars = false): string[] => nodes(parseExpr(text, { vars })).map(([p, e]) => `${p} ${e.kind} ${e.loc.line}:${e.loc.col}`)

const LOCATIONS: readonly { name: string; expr: string; locs: readonly string[]; vars?: boolean }[] = [
  {
    name: 'a binary node starts at its left operand and a parenthesised one at its (',
    expr: '(a+b)*c',
    locs: ['root Bin 1:1', 'root.left Bin 1:2', 'root.left.left Col 1:2', 'root.left.right Col 1:4', 'root.right Col 1:7'],
  },
  { name: 'a not node starts at its ~', expr: ' ~a', locs: ['root Not 1:2', 'root.operand Col 1:3'] },
  { name: 'a negation starts at its minus', expr: 'x = -y', locs: ['root Bin 1:1', 'root.left Col 1:1', 'root.right Neg 1:5', 'root.right.operand Col 1:6'] },
  { name: 'a negative literal starts at its minus', expr: 'x=- 5', locs: ['root Bin 1:1', 'root.left Col 1:1', 'root.right Num 1:3'] },
  {
    name: 'a call starts at its name and a column list at its first name',
    expr: 'g_sum(st ct;;x)',
    locs: ['root Call 1:1', 'root.args[0] ColList 1:7', 'root.args[2] Col 1:14'],
  },
  {
    name: 'a list starts at its first item',
    expr: "s='a' 'b'",
    locs: ['root Bin 1:1', 'root.left Col 1:1', 'root.right List 1:3', 'root.right.items[0] Str 1:3', 'root.right.items[1] Str 1:7'],
  },
  { name: 'a list led by a negative number starts at the minus', expr: '-1 2', locs: ['root List 1:1', 'root.items[0] Num 1:1', 'root.items[1] Num 1:4'] },
  { name: 'a variable starts at its @', expr: 'f(@v)', vars: true, locs: ['root Call 1:1', 'root.args[0] Var 1:3'] },
  {
    name: 'nodes on later lines carry their line',
    expr: 'a\n  + f(\n b)',
    locs: ['root Bin 1:1', 'root.left Col 1:1', 'root.right Call 2:5', 'root.right.args[0] Col 3:2'],
  },
  {
    name: 'dates and times carry their positions',
    expr: 'd=1/2/03|t=9:30',
    locs: [
      'root Bin 1:1',
      'root.left Bin 1:1',
      'root.left.left Col 1:1',
      'root.left.right Date 1:3',
      'root.right Bin 1:10',
      'root.right.left Col 1:10',
      'root.right.right Time 1:12',
    ],
  },
]

const COLUMNS: readonly { name: string; expr: string; cols: readonly string[]; vars?: boolean }[] = [
  { name: 'a column list and other columns in order', expr: 'g_sum(state city;;x)+y', cols: ['state', 'city', 'x', 'y'] },
  { name: 'each column once', expr: 'a+a*b', cols: ['a', 'b'] },
  { name: 'call arguments but not function names', expr: 'max(a;b)', cols: ['a', 'b'] },
  { name: 'nothing for constants', expr: "'a' 'b'", cols: [] },
  { name: 'columns but not variables', expr: '@x+y', cols: ['y'], vars: true },
  { name: 'columns under negation and not', expr: '~-a=b', cols: ['a', 'b'] },
  { name: 'lower-cased names', expr: 'Sales*Qty', cols: ['sales', 'qty'] },
  { name: 'nothing for a call without arguments', expr: 'i_()', cols: [] },
]

const SHOWN: readonly { name: string; node: Expr; shows: string }[] = [
  { name: 'a quote in text doubled', node: { kind: 'Str', value: "a'b", loc: at(1, 1) }, shows: "'a''b'" },
  { name: 'a whole decimal with .0', node: { kind: 'Num', value: 2, int: false, loc: at(1, 1) }, shows: '2.0' },
  { name: 'a negative integer', node: { kind: 'Num', value: -3, int: true, loc: at(1, 1) }, shows: '-3' },
  { name: 'midnight as 00:00:00', node: { kind: 'Time', value: 0, loc: at(1, 1) }, shows: '00:00:00' },
  { name: 'a date with zero padding', node: { kind: 'Date', value: 10102, loc: at(1, 1) }, shows: '0001-01-02' },
  { name: 'a variable with @', node: { kind: 'Var', name: 'a.b', loc: at(1, 1) }, shows: '@a.b' },
  { name: 'a call without arguments', node: { kind: 'Call', name: 'i_', args: [], loc: at(1, 1) }, shows: 'i_()' },
  { name: 'a column list in brackets', node: { kind: 'ColList', names: ['a', 'b'], loc: at(1, 1) }, shows: '[a b]' },
  {
    name: 'a not of a binary node in prefix form',
    node: {
      kind: 'Not',
      loc: at(1, 1),
      operand: {
        kind: 'Bin',
        op: '&',
        loc: at(1, 2),
        left: { kind: 'Bin', op: '=', loc: at(1, 2), left: { kind: 'Col', name: 'state', loc: at(1, 2) }, right: { kind: 'Str', value: 'NY', loc: at(1, 8) } },
        right: {
          kind: 'Bin',
          op: '>',
          loc: at(1, 13),
          left: { kind: 'Col', name: 'x', loc: at(1, 13) },
          right: { kind: 'Num', value: 1, int: true, loc: at(1, 15) },
        },
      },
    },
    shows: "(~ (& (= state 'NY') (> x 1)))",
  },
]

/** The error parseExpr throws for `text`. */
function errorOf(text: string): AppError {
  try {
    parseExpr(text)
  } catch (err) {
    return err as AppError
  }
  expect.fail('expected an error')
}

describe('parseExpr() trees', () => {
  describe('node locations', () => {
    for (const c of LOCATIONS) {
      it(`locates nodes where ${c.name}`, () => expect(locs(c.expr, c.vars)).to.deep.equal(c.locs))
    }
  })

  describe('exact nodes', () => {
    it('builds a negative integer literal, not a negation', () => {
      expect(parseExpr('-12')).to.deep.equal({ kind: 'Num', value: -12, int: true, loc: at(1, 1) })
    })
    it('marks a number written with a point as not an integer', () => {
      expect(parseExpr('3.0')).to.deep.equal({ kind: 'Num', value: 3, int: false, loc: at(1, 1) })
    })
    it('marks a thousands-comma decimal as not an integer', () => {
      expect(parseExpr('12,345.67')).to.deep.include({ kind: 'Num', value: 12345.67, int: false })
    })
    it('never produces a negative zero', () => {
      const e = parseExpr('-0')
      expect(e.kind === 'Num' && Object.is(e.value, 0)).to.equal(true)
    })
    it('builds a call with null for omitted arguments', () => {
      expect(parseExpr('g_sum(g;;x)')).to.deep.equal({
        kind: 'Call',
        name: 'g_sum',
        args: [{ kind: 'Col', name: 'g', loc: at(1, 7) }, null, { kind: 'Col', name: 'x', loc: at(1, 10) }],
        loc: at(1, 1),
      })
    })
    it('builds a list of dates as yyyymmdd values', () => {
      expect(parseExpr('3/15/03 1/1/2014')).to.deep.equal({
        kind: 'List',
        items: [
          { kind: 'Date', value: 20030315, loc: at(1, 1) },
          { kind: 'Date', value: 20140101, loc: at(1, 9) },
        ],
        loc: at(1, 1),
      })
    })
    it('builds a time as an hhmmss value', () => {
      expect(parseExpr('13:45')).to.deep.equal({ kind: 'Time', value: 134500, loc: at(1, 1) })
    })
    it('builds a variable without its @', () => {
      expect(parseExpr('@X.Y', { vars: true })).to.deep.equal({ kind: 'Var', name: 'x.y', loc: at(1, 1) })
    })
  })

  describe('showExpr()', () => {
    for (const c of SHOWN) {
      it(`shows ${c.name}`, () => expect(showExpr(c.node)).to.equal(c.shows))
    }
  })

  describe('exprColumns()', () => {
    for (const c of COLUMNS) {
      it(`lists ${c.name}`, () => expect(exprColumns(parseExpr(c.expr, { vars: c.vars }))).to.deep.equal(c.cols))
    }
  })

  describe('nesting cap', () => {
    it(`accepts a sum whose tree is exactly ${MAX_DEPTH} levels deep`, () => {
      const text = Array.from({ length: MAX_DEPTH }, (_, i) => `a${i}`).join('+')
      expect(exprColumns(parseExpr(text))).to.have.length(MAX_DEPTH)
    })
    it('refuses a sum one level deeper with EXPR_ERROR', () => {
      const err = errorOf(Array.from({ length: MAX_DEPTH + 1 }, () => 'a').join('+'))
      expect(err.code).to.equal('EXPR_ERROR')
      expect(err.message).to.include('nested too deeply')
    })
    it('accepts deep but bounded parentheses', () => {
      const n = Math.floor(MAX_DEPTH / 2)
      expect(showExpr(parseExpr(`${'('.repeat(n)}a${')'.repeat(n)}`))).to.equal('a')
    })
    it('refuses parentheses nested past the cap instead of overflowing the stack', () => {
      const n = MAX_DEPTH * 20
      expect(errorOf(`${'('.repeat(n)}a${')'.repeat(n)}`).message).to.include('nested too deeply')
    })
    it('refuses a long run of ~ instead of overflowing the stack', () => {
      expect(errorOf(`${'~'.repeat(MAX_DEPTH * 20)}a`).code).to.equal('EXPR_ERROR')
    })
    it('refuses a long run of unary minus instead of overflowing the stack', () => {
      expect(errorOf(`${'-'.repeat(MAX_DEPTH * 20)}a`).code).to.equal('EXPR_ERROR')
    })
    it('refuses deeply nested calls instead of overflowing the stack', () => {
      const n = MAX_DEPTH * 20
      expect(errorOf(`${'f('.repeat(n)}a${')'.repeat(n)}`).code).to.equal('EXPR_ERROR')
    })
  })
})
