/**
 * Summaries of a column plus a constant read off the column's own (interpret/ops/tabu-shift.ts)
 * and summaries over one source sharing its folds (tabu-folds.ts): every query's answer must be
 * the answer of the same query with x+k written so that no fold applies, `(x+k)*1`, which makes
 * the column row by row; bit for bit, types and N/A included. Also: the willbe a folded summary
 * reads is never made, and what must not fold does not.
 */
import { expect } from 'chai'
import type { ResultSet } from '../../shared/protocol.js'
import type { Expr } from '../../engine/ast.js'
import { makeTable, runXml, type Cell } from '../helpers/engine.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { step } from '../../engine/interpret/run.js'
import { Worksheet } from '../../engine/interpret/worksheet.js'
import { planFolds } from '../../engine/interpret/ops/tabu-folds.js'
import { BLOCK_VALID, foldable, shiftOf } from '../../engine/interpret/ops/tabu-shift.js'
import { accumulationOf } from '../../engine/summaries/index.js'
import { SUM, VALID } from '../../engine/summaries/parts.js'
import { Rng } from '../../engine/columns/random.js'
import { planParallel } from '../../engine/parallel/plan.js'
import { checkedOps, expectIdentical, single, split, taskOf } from './parallel-harness.js'

const ROWS = 300

/** x: small ints with N/A; big: ints near the int range's ends; f: floats; g: a key; s: text. */
function table(seed: number) {
  const rng = new Rng(seed)
  const col = (f: () => Cell): Cell[] => Array.from({ length: ROWS }, f)
  return makeTable('t', [
    { name: 'x', type: 'int', values: col(() => (rng.next() < 0.2 ? null : rng.int(-1000, 1000))) },
    { name: 'big', type: 'int', values: col(() => (rng.next() < 0.1 ? null : rng.int(2147483000, 2147483647))) },
    { name: 'allna', type: 'int', values: col(() => null) },
    { name: 'f', type: 'float', values: col(() => (rng.next() < 0.2 ? null : rng.int(-500, 500) / 8)) },
    { name: 'g', type: 'int', values: col(() => rng.int(0, 6)) },
    { name: 's', type: 'text', values: col(() => `k${rng.int(0, 4)}`) },
  ])
}

const T = table(39)

/** The answer, or the error's message: a fold must not hide an error nor invent one. */
function answer(xml: string): ResultSet | string {
  try {
    return runXml(xml, [T])
  } catch (e) {
    return e instanceof Error ? `${e.name}` : String(e)
  }
}

/** Both answers alike bit for bit: names, types, every cell (NaN equal to NaN, -0 apart from 0). */
function expectSame(got: ResultSet | string, want: ResultSet | string): void {
  if (typeof want === 'string' || typeof got === 'string') return void expect(got).to.deep.equal(want)
  expect(got.cols).to.deep.equal(want.cols)
  got.columns.forEach((c, i) => {
    const w = want.columns[i]
    expect(c.kind).to.equal(w.kind)
    const a = Array.from((c as { data: ArrayLike<unknown> }).data)
    const b = Array.from((w as { data: ArrayLike<unknown> }).data)
    expect(a.length).to.equal(b.length)
    a.forEach((v, r) => expect(Object.is(v, b[r]), `${got.cols[i].name} row ${r}: ${String(v)} vs ${String(b[r])}`).to.equal(true))
  })
}

const FUNS = ['sum', 'avg', 'min', 'max', 'cnt', 'first', 'last', 'var']
const tabu = (breaks: string, sources: readonly string[]): string =>
  `<tabu${breaks ? ` breaks="${breaks}"` : ''}>${sources.flatMap((s) => FUNS.map((f) => `<tcol fun="${f}" source="${s}"/>`)).join('')}</tabu>`

/** The query over willbes of `values`, and the same with each value made row by row. */
function bothWays(values: readonly string[], breaks: string, after = ''): [string, string] {
  const q = (wrap: (v: string) => string) =>
    `<base table="t"/>${values.map((v, i) => `<willbe name="r${i}" value="${wrap(v)}"/>`).join('')}${after}` +
    tabu(
      breaks,
      values.map((_, i) => `r${i}`),
    )
  return [q((v) => v), q((v) => `(${v})*1`)]
}

describe('tabulations of a column plus a constant (tabu-shift.ts)', () => {
  const SHIFTS = ['x+5', 'x-7', '3+x', 'x+-4', 'x-0', 'x+2147482647', 'big+1', 'big-1', 'allna+9', 'f+1', 'x+1.0', 'x-2.5', 'x*2', '5-x']
  for (const breaks of ['', 'g', 's']) {
    it(`gives the unfolded answers${breaks ? ` by ${breaks}` : ''}, overflow and N/A included`, () => {
      for (const v of SHIFTS) {
        const [folded, plain] = bothWays([v], breaks)
        expectSame(answer(folded), answer(plain))
      }
    })
  }

  it('gives the unfolded answers for sum(x), sum(x+1) … sum(x+89) in one tabulation', () => {
    const values = Array.from({ length: 89 }, (_, k) => `x+${k + 1}`)
    const [folded, plain] = bothWays(values, 'g')
    expectSame(answer(folded), answer(plain))
  })

  it('counts distinct values of x+k as those of x, overflow and N/A included', () => {
    for (const breaks of ['', 'g', 's'])
      for (const v of ['x+5', '3+x', 'x-1.0', 'big+1000', 'big-1', 'allna+1', 'f+1']) {
        const q = (w: string) =>
          `<base table="t"/><willbe name="r" value="${w}"/><tabu${breaks ? ` breaks="${breaks}"` : ''}><tcol fun="ucnt" source="r"/><tcol fun="ucnt" source="${w}"/></tabu>`
        expectSame(answer(q(v)), answer(q(`(${v})*1`)))
      }
  })

  it('gives the unfolded answers when the willbe is also read elsewhere', () => {
    for (const after of ['<sel value="r0>3"/>', '<willbe name="y" value="r0*2"/>', '<sort col="x"/>', '<colord cols="r0,x,g,s"/>']) {
      const [folded, plain] = bothWays(['x+5'], 'g', after)
      expectSame(answer(folded), answer(plain))
    }
  })

  it('refuses an overflow as the unfolded query does', () => {
    expect(answer(bothWays(['big+1000'], '')[0])).to.be.a('string')
  })

  it('never makes the willbe a folded summary reads, and makes one it cannot fold', () => {
    const run = (xml: string) => {
      const ops = checkQuery(parseQuery(xml, {}), new Map([['t', T.columns.map((c) => c.spec)]])).ops
      const tables = new Map([['t', T]])
      let ws = new Worksheet(0, [])
      const seen: Worksheet[] = []
      for (const op of ops) {
        seen.push(ws)
        ws = step(op, ws, tables)
      }
      return seen[seen.length - 1]
    }
    const folded = run('<base table="t"/><willbe name="r" value="x+5"/><tabu breaks="g"><tcol fun="sum" source="r"/><tcol fun="avg" source="r"/></tabu>')
    expect(folded.column('r')!.computed).to.equal(false)
    expect(run('<base table="t"/><willbe name="r" value="x+5"/><tabu breaks="g"><tcol fun="ucnt" source="r"/></tabu>').column('r')!.computed).to.equal(false)
    const unfoldable = run('<base table="t"/><willbe name="r" value="x+5"/><tabu breaks="g"><tcol fun="var" source="r"/></tabu>')
    expect(unfoldable.column('r')!.computed).to.equal(true)
  })

  it('plans sums of x, x+1 … x+89 as one fold of x: its sum and its count per block', () => {
    const base = step(
      checkQuery(parseQuery('<base table="t"/>', {}), new Map([['t', T.columns.map((c) => c.spec)]])).ops[0],
      new Worksheet(0, []),
      new Map([['t', T]]),
    )
    const col = (name: string): Expr => ({ kind: 'Col', name, loc: { line: 1, col: 1 } })
    const num = (value: number, int: boolean): Expr => ({ kind: 'Num', value, int, loc: { line: 1, col: 1 } })
    const plus = (k: number, int: boolean): Expr => ({ kind: 'Bin', op: '+', left: col('x'), right: num(k, int), loc: { line: 1, col: 1 } })
    const sum = accumulationOf('sum')
    // As the macro form writes them (int literals) and as SQL compiles them (decimal literals).
    for (const int of [true, false]) {
      const summaries = [col('x'), ...Array.from({ length: 89 }, (_, k) => plus(k + 1, int))].map((source) => ({ accumulates: sum, source, weight: null }))
      const plan = planFolds(base, summaries, Int32Array.of(0, base.rows))
      expect(plan.specs).to.have.length(1)
      expect(plan.specs[0].parts).to.deep.equal([SUM, BLOCK_VALID])
      expect(plan.sourceTypes[1]).to.equal(int ? 'int' : 'float')
    }
    // A float column's sums would round differently: not shifted, one fold per source.
    expect(shiftOf({ kind: 'Bin', op: '+', left: col('f'), right: num(1, true), loc: { line: 1, col: 1 } }, base)).to.equal(null)
    const floats = planFolds(
      base,
      [1, 2].map((k) => ({
        accumulates: accumulationOf('avg'),
        source: { kind: 'Bin', op: '+', left: col('f'), right: num(k, true), loc: { line: 1, col: 1 } } as Expr,
        weight: null,
      })),
      Int32Array.of(0, base.rows),
    )
    expect(floats.specs).to.have.length(2)
    expect(floats.specs[0].parts).to.deep.equal([VALID, SUM])
  })

  it('gives the same bits split into parts and summing blocks as the unfolded query run whole', () => {
    const values = ['x+5', 'x-7', '3+x', 'x+2147482647', 'big-1', 'f+1']
    const [folded, plain] = bothWays(values, 'g')
    const ops = checkedOps(folded, [T])
    expect(planParallel(ops), 'the query has a plan').to.not.equal(null)
    const task = taskOf(ops, [T])
    // Blocks of 16 rows: the folded block sums must be the unfolded ones, block by block.
    const alone = single(taskOf(checkedOps(plain, [T]), [T]), 16)
    expectIdentical(single(task, 16), alone, 'one part')
    for (const parts of [2, 3, 7]) expectIdentical(split(task, parts, 16)!.result, alone, `${parts} parts`)
  })

  it('folds a sum only while every block sums exactly, and an int x+k only inside the int range', () => {
    const base = step(
      checkQuery(parseQuery('<base table="t"/>', {}), new Map([['t', T.columns.map((c) => c.spec)]])).ops[0],
      new Worksheet(0, []),
      new Map([['t', T]]),
    )
    const x = base.column('x')!
    const sum = accumulationOf('sum').parts
    const blocks = (...rows: number[]) => Int32Array.from(rows.reduce<number[]>((a, r) => [...a, a[a.length - 1] + r], [0]))
    const unread = () => {
      throw new Error('x read')
    }
    const wide = () => ({ min: -2147483647, max: 2147483647 })
    // Blocks of 2^21 rows of any ints plus up to 2^31 sum exactly: x is not even read.
    expect(foldable(sum, { base: x, k: 2 ** 31 - 1, type: 'float' }, unread, blocks(2 ** 21, 5))).to.equal(true)
    // A block of 2^23 rows of ints near ±2^31 may not; of small ints it does.
    expect(foldable(sum, { base: x, k: 1, type: 'float' }, wide, blocks(5, 2 ** 23))).to.equal(false)
    expect(foldable(sum, { base: x, k: 1, type: 'float' }, () => ({ min: -1000, max: 1000 }), blocks(5, 2 ** 23))).to.equal(true)
    // Extremes need no exact sums, but an int x+k must stay an int.
    const minmax = accumulationOf('min').parts
    expect(foldable(minmax, { base: x, k: 1, type: 'float' }, unread, blocks(2 ** 30))).to.equal(true)
    expect(foldable(minmax, { base: x, k: 1, type: 'int' }, () => ({ min: 0, max: 2147483646 }), blocks(9))).to.equal(true)
    expect(foldable(minmax, { base: x, k: 2, type: 'int' }, () => ({ min: 0, max: 2147483646 }), blocks(9))).to.equal(false)
    expect(foldable(minmax, { base: x, k: -1, type: 'int' }, () => ({ min: -2147483646, max: 0 }), blocks(9))).to.equal(true)
    expect(foldable(minmax, { base: x, k: -2, type: 'int' }, () => ({ min: -2147483646, max: 0 }), blocks(9))).to.equal(false)
    // var's sum of squares does not follow from x's by a shift.
    expect(foldable(accumulationOf('var').parts, { base: x, k: 1, type: 'int' }, () => null, blocks(9))).to.equal(false)
  })
})
