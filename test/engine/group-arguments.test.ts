/**
 * The S and O arguments of the g_ functions (issue 21, item 6), as 1010data documents them.
 * Every row of S must be 1 or 0 and any other value is an error: a 2, a -1, a 0.5 or an N/A in S
 * is refused with a message naming the function and the value, the same whether the query runs
 * whole or split over workers; 0 and 1 (comparisons, constants, 0/1 columns) select as before.
 * An ordering column O must have no N/A (an error naming the column), except g_splice's, which
 * orders N/A first.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'
import { checkedOps, split, taskOf } from './parallel-harness.js'

const ROWS = 40
const T = makeTable('t.s', [
  { name: 'g', type: 'int', values: Array.from({ length: ROWS }, (_, i) => i % 3) },
  { name: 'x', type: 'float', values: Array.from({ length: ROWS }, (_, i) => i / 2) },
  { name: 'one', type: 'int', values: Array.from({ length: ROWS }, (_, i) => i % 2) },
  { name: 'two', type: 'int', values: Array.from({ length: ROWS }, (_, i) => (i === 17 ? 2 : i % 2)) },
  { name: 'neg', type: 'int', values: Array.from({ length: ROWS }, (_, i) => (i === 5 ? -1 : 1)) },
  { name: 'half', type: 'float', values: Array.from({ length: ROWS }, (_, i) => (i === 30 ? 0.5 : 0)) },
  { name: 'na', type: 'int', values: Array.from({ length: ROWS }, (_, i) => (i === 9 ? null : 1)) },
  { name: 'when', type: 'date', values: Array.from({ length: ROWS }, (_, i) => (i === 3 ? null : 20240101 + (ROWS - i))) },
  { name: 'word', type: 'text', values: Array.from({ length: ROWS }, (_, i) => (i === 3 ? null : `w${i}`)) },
  { name: 'tag', type: 'text', values: Array.from({ length: ROWS }, (_, i) => `t${i}`) },
])

function refusal(run: () => unknown): AppError {
  let caught: unknown = null
  try {
    run()
  } catch (e) {
    caught = e
  }
  expect(caught, 'expected a refusal').to.be.instanceOf(AppError)
  return caught as AppError
}

describe('g_ functions: S must be 0 or 1 on every row', () => {
  for (const [col, shown] of [
    ['two', '2'],
    ['neg', '-1'],
    ['half', '0.5'],
    ['na', 'N/A'],
  ] as const) {
    it(`refuses S = ${shown} (column ${col}), naming the function and the value, whole or split`, () => {
      const xml = `<base table="t.s"/><willbe name="s" value="g_sum(g;${col};x)"/>`
      const whole = refusal(() => runXml(xml, [T]))
      expect(whole.code).to.equal('CHECK_ERROR')
      expect(whole.message).to.equal(
        `g_sum(): the argument S must be 0 or 1 on every row, but it is ${shown} on some; give a comparison (such as amount>0) or a column of 0s and 1s.`,
      )
      const parts = refusal(() => split(taskOf(checkedOps(xml, [T]), [T]), 3, 7))
      expect(parts.message).to.equal(whole.message)
    })
  }

  it('refuses it in every g_ function that takes S, not only those split over workers', () => {
    for (const call of ['g_cumsum(g;two;;x)', 'g_rank(g;two;;x)', 'g_cnt(g;two)', 'g_first1(g;two;)', 'g_median(g;two;x)']) {
      const e = refusal(() => runXml(`<base table="t.s"/><willbe name="s" value="${call}"/>`, [T]))
      expect(e.message, call).to.match(/the argument S must be 0 or 1 on every row, but it is 2 on some/)
    }
  })

  it('selects with 0 and 1: a 0/1 column, a comparison, a constant', () => {
    const r = columnsOf(
      runXml('<base table="t.s"/><willbe name="a" value="g_sum(;one;x)"/><willbe name="b" value="g_sum(;x>=10;x)"/><willbe name="c" value="g_cnt(;1)"/>', [T]),
    )
    const sum = (keep: (i: number) => boolean) => Array.from({ length: ROWS }, (_, i) => i).reduce((a, i) => a + (keep(i) ? i / 2 : 0), 0)
    expect(r.a[1]).to.equal(sum((i) => i % 2 === 1))
    expect(r.b[ROWS - 1]).to.equal(sum((i) => i / 2 >= 10))
    expect(r.c[0]).to.equal(ROWS)
  })
})

describe('g_ functions: an ordering column O must have no N/A', () => {
  for (const call of [
    'g_cumsum(g;;when;x)',
    'g_rank(g;;when;x)',
    'g_rshift(g;;when;x;1)',
    'g_first(g;;when;x)',
    'g_cumcnt(g;;when)',
    'g_cumsum(g;;g word;x)',
  ]) {
    it(`refuses ${call}, naming the column`, () => {
      const e = refusal(() => runXml(`<base table="t.s"/><willbe name="s" value="${call}"/>`, [T]))
      expect(e.code).to.equal('CHECK_ERROR')
      const fn = call.slice(0, call.indexOf('('))
      const col = call.includes('word') ? 'word' : 'when'
      expect(e.message).to.equal(
        `${fn}(): the ordering column ${col} (argument O) is N/A on some rows, and O must have a value on every row; select those rows away first, or order by another column.`,
      )
    })
  }

  it('orders once the N/A rows are selected away', () => {
    const r = columnsOf(runXml('<base table="t.s"/><sel value="when>0"/><willbe name="c" value="g_cumcnt(;;when)"/>', [T]))
    // Dates fall as rows go on: the last row is first in O order.
    expect(r.c[0]).to.equal(ROWS - 1)
    expect(r.c[r.c.length - 1]).to.equal(1)
  })

  it('lets g_splice order by a column with N/A, N/A first', () => {
    const r = columnsOf(runXml('<base table="t.s"/><sel value="g=0"/><willbe name="j" value="g_splice(;;when;tag;\',\';3)"/>', [T]))
    // Rows 0, 3, 6… 39 have g = 0; row 3's date is N/A and comes first, then the dates up (they fall as rows go on).
    expect(r.j[0]).to.equal('t3,t39,t36')
  })
})
